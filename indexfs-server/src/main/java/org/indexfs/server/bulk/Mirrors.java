package org.indexfs.server.bulk;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.InodeIds;
import org.indexfs.common.giga.GigaIndex;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Code;
import org.indexfs.proto.LocalizeGrant;
import org.indexfs.proto.LocalizeRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.split.PrincipalTranslation;
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

  /**
   * The most directories inside one localized subtree homed on slots other than its root's that a
   * localization takes: each is walked at grant and at the end, and its slot holds a mirror.
   */
  static final int MAX_DIRS_ELSEWHERE = 1024;

  /**
   * Tells every slot homing a directory of the subtree (made there before the localization) the
   * record {@code l}, so mutations inside those directories by other clients are refused there as
   * here; each such slot walks its part and names the directories below homed on yet another slot,
   * until none is left. Returns every directory of the subtree met on the way whose entry is not in
   * {@code here}'s walk, with its entry's owner and group ids as this slot interns them (those homed
   * here too: their entries are elsewhere); empty, with no call made, when every directory of the
   * subtree is homed here.
   */
  Map<Long, SubtreeDirs.Away> pushSubtree(Localization l, SubtreeDirs here) throws IOException {
    return visitSubtree(l.dirId(), here, LocalizeRequest.newBuilder().setAction(LocalizeRequest.Action.MIRROR)
        .setDirId(l.dirId()).setRecord(ByteString.copyFrom(l.encode())));
  }

  /** Tells those slots the localization ended. */
  void endSubtree(long dirId, SubtreeDirs here) throws IOException {
    visitSubtree(dirId, here, LocalizeRequest.newBuilder().setAction(LocalizeRequest.Action.UNMIRROR).setDirId(dirId));
  }

  private Map<Long, SubtreeDirs.Away> visitSubtree(long dirId, SubtreeDirs here, LocalizeRequest.Builder req)
      throws IOException {
    int self = ctx.ns().slot();
    Map<Long, SubtreeDirs.Away> found = new LinkedHashMap<>(here.elsewhere());
    Deque<Long> todo = new ArrayDeque<>(found.keySet());
    Set<Long> walkedHere = new HashSet<>();
    while (!todo.isEmpty()) {
      if (found.size() > MAX_DIRS_ELSEWHERE && req.getAction() == LocalizeRequest.Action.MIRROR) { // an end walks all
        throw new IndexFsException(Code.UNSUPPORTED, "Directory " + InodeIds.format(dirId) + " holds more than "
            + MAX_DIRS_ELSEWHERE + " directories homed on other slots than its own; localize a smaller subtree");
      }
      // One call per slot per round, naming every directory of the subtree it homes not asked yet.
      Map<Integer, List<Long>> bySlot = new TreeMap<>();
      while (!todo.isEmpty()) {
        long d = todo.poll();
        bySlot.computeIfAbsent(found.get(d).slot(), k -> new ArrayList<>()).add(d);
      }
      for (Map.Entry<Integer, List<Long>> e : bySlot.entrySet()) {
        List<SubtreeDirs.Away> below = new ArrayList<>();
        if (e.getKey() == self) {
          // A directory homed here again, deeper (its entry on another slot): walk it here.
          for (long d : e.getValue()) {
            if (walkedHere.add(d)) {
              below.addAll(SubtreeDirs.scan(ctx.ns(), d).elsewhere().values());
            }
          }
        } else {
          LocalizeGrant g = ctx.peers().call(e.getKey(), Request.newBuilder().setLocalize(req.clone()
              .clearSubtreeDirs().addAllSubtreeDirs(e.getValue()).setHomeSlot(self))).getLocalizeGrant();
          PrincipalTranslation ids = PrincipalTranslation.of(g.getPrincipalsMap(), ctx.ns().principals());
          for (int i = 0; i < g.getFoundDirsCount(); i++) {
            Inode inode = Inode.decode(g.getFoundInodes(i).toByteArray());
            inode.ownerId = ids.map(inode.ownerId);
            inode.groupId = ids.map(inode.groupId);
            below.add(new SubtreeDirs.Away(g.getFoundSlots(i), g.getFoundParents(i), g.getFoundNames(i), inode));
          }
        }
        for (SubtreeDirs.Away b : below) {
          if (found.putIfAbsent(b.inode().inodeId, b) == null) {
            todo.add(b.inode().inodeId);
          }
        }
      }
    }
    return found;
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
