package org.indexfs.server.bulk;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.indexfs.common.InodeIds;
import org.indexfs.common.giga.GigaIndex;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.LocalizeRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.op.OpContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The localization of a directory split across slots (GIGA+), known on every slot holding a
 * partition of it: its home sends each of them the durable record (they store it as the home
 * does, in the batch that answers, journaled), so their partitions refuse other clients'
 * mutations, take no split, and validate their share of a publish against the holders' blocks.
 * Each slot knows only the partitions it split off itself (DESIGN §4): the home asks the slots it
 * knows, learns their children from the bitmaps they answer with, and asks those, until the
 * directory's whole bitmap is known (a localized directory takes no split, so it stays true).
 */
final class Mirrors implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Mirrors.class);

  private final OpContext ctx;
  private final ExecutorService contention;

  Mirrors(OpContext ctx) {
    this.ctx = ctx;
    this.contention = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "indexfs-localize-contend-" + ctx.ns().slot());
      t.setDaemon(true);
      return t;
    });
  }

  /** True when the directory homed here has split across slots. */
  boolean split(long dirId) throws IOException {
    return ctx.ns().bitmap(dirId).count() > 1;
  }

  /** Tells every other slot holding a partition of the directory the record {@code l}; the directory's whole bitmap. */
  PartitionBitmap push(Localization l) throws IOException {
    return visit(l.dirId(), LocalizeRequest.newBuilder().setAction(LocalizeRequest.Action.MIRROR)
        .setDirId(l.dirId()).setRecord(ByteString.copyFrom(l.encode())));
  }

  /** Tells them the localization ended (their partitions may split again). */
  void end(long dirId) throws IOException {
    visit(dirId, LocalizeRequest.newBuilder().setAction(LocalizeRequest.Action.UNMIRROR).setDirId(dirId));
  }

  private PartitionBitmap visit(long dirId, LocalizeRequest.Builder req) throws IOException {
    PartitionBitmap all = ctx.ns().bitmap(dirId).copy();
    Inode record = ctx.ns().partition(dirId);
    int home = record == null ? ctx.ns().slot() : record.zerothSlot;
    int slots = ctx.partitions().slotCount();
    Set<Integer> asked = new HashSet<>();
    asked.add(0);
    for (boolean more = true; more; ) {
      more = false;
      for (int index : all.partitions()) {
        if (!asked.add(index)) {
          continue;
        }
        Response r = ctx.peers().call(GigaIndex.slotOf(home, index, slots), Request.newBuilder().setLocalize(req));
        if (!r.getLocalizeGrant().getBitmap().isEmpty()) {
          all.merge(PartitionBitmap.fromBytes(r.getLocalizeGrant().getBitmap().toByteArray()));
        }
        more = true;
      }
    }
    return all;
  }

  /** A partition's slot saw another client ask for the subtree: its home denies the holders' renewals. */
  void contended(long dirId, int home) {
    contention.execute(() -> {
      try {
        ctx.peers().call(home, Request.newBuilder().setLocalize(LocalizeRequest.newBuilder()
            .setAction(LocalizeRequest.Action.CONTEND).setDirId(dirId)));
      } catch (IOException e) {
        LOG.warn("Could not tell slot {} that localized directory {} is asked for: {}", home, InodeIds.format(dirId),
            e.toString());
      }
    });
  }

  @Override
  public void close() {
    contention.shutdownNow();
  }
}
