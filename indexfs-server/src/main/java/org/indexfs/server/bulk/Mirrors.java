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
import org.indexfs.proto.SplitDir;
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
   * What a walk of the subtree over its slots found: the directories homed on other slots than
   * this one ({@code away}, as in {@link #pushSubtree}), and each directory below the root that had
   * split before the localization with its whole bitmap, gathered from its partitions' slots
   * ({@code split}; a localized directory takes no split, so it stays true until the end).
   */
  record Reach(Map<Long, SubtreeDirs.Away> away, Map<Long, SubtreeDirs.Split> split) {}

  /**
   * Tells every slot homing a directory of the subtree (made there before the localization), and
   * every slot holding a partition of a directory of it that had split (the localized directory
   * itself included: a partition's slot walks its part of the root), the record {@code l}, so
   * mutations inside those directories by other clients are refused there as here; each such slot
   * walks its part and names the directories it found there (those homed on yet another slot are
   * asked in turn) and those that split, until none is left. Returns every directory of the subtree
   * met on the way whose entry is not in {@code here}'s walk, with its entry's owner and group ids
   * as this slot interns them (those homed here too: their entries are elsewhere), and the split
   * ones; empty, with no call made, when every directory of the subtree is whole and homed here.
   */
  Reach pushSubtree(Localization l, SubtreeDirs here) throws IOException {
    return visitSubtree(l.dirId(), here, LocalizeRequest.newBuilder().setAction(LocalizeRequest.Action.MIRROR)
        .setDirId(l.dirId()).setRecord(ByteString.copyFrom(l.encode())));
  }

  /** Tells those slots the localization ended. */
  void endSubtree(long dirId, SubtreeDirs here) throws IOException {
    visitSubtree(dirId, here, LocalizeRequest.newBuilder().setAction(LocalizeRequest.Action.UNMIRROR).setDirId(dirId));
  }

  /** One directory to tell one slot about (its home, or the slot of one of its partitions). */
  private record Visit(long dir, int slot) {}

  private Reach visitSubtree(long dirId, SubtreeDirs here, LocalizeRequest.Builder req) throws IOException {
    int self = ctx.ns().slot();
    int slots = ctx.partitions().slotCount();
    Map<Long, SubtreeDirs.Away> found = new LinkedHashMap<>(here.elsewhere());
    Map<Long, SubtreeDirs.Split> split = new LinkedHashMap<>();
    Set<Visit> asked = new HashSet<>();
    Deque<Visit> todo = new ArrayDeque<>();
    for (long d : here.ids()) {
      asked.add(new Visit(d, self)); // walked here already
    }
    for (SubtreeDirs.Away a : found.values()) {
      ask(new Visit(a.inode().inodeId, a.slot()), asked, todo);
    }
    // A split root too: each of its partitions' slots walks its part of the root (the directories
    // whose entries are there, and everything below them), as for any directory walked elsewhere.
    here.split().forEach((d, sp) -> gather(d, sp, split, slots, asked, todo));
    while (!todo.isEmpty()) {
      // Bounded when a lease is handed out; an end walks all, or a refused grant would stay held.
      int reached = found.size() + split.size() - (split.containsKey(dirId) ? 1 : 0);
      if (reached > MAX_DIRS_ELSEWHERE && req.getAction() == LocalizeRequest.Action.MIRROR) {
        throw new IndexFsException(Code.UNSUPPORTED, "Directory " + InodeIds.format(dirId) + " holds more than "
            + MAX_DIRS_ELSEWHERE + " directories homed on other slots than its own or split across slots; "
            + "localize a smaller subtree");
      }
      // One call per slot per round, naming every directory of the subtree it holds not asked yet.
      Map<Integer, List<Long>> bySlot = new TreeMap<>();
      while (!todo.isEmpty()) {
        Visit v = todo.poll();
        bySlot.computeIfAbsent(v.slot(), k -> new ArrayList<>()).add(v.dir());
      }
      for (Map.Entry<Integer, List<Long>> e : bySlot.entrySet()) {
        List<SubtreeDirs.Away> below = new ArrayList<>();
        Map<Long, SubtreeDirs.Split> splitThere = new LinkedHashMap<>();
        if (e.getKey() == self) {
          // A directory homed here again, deeper (its entry on another slot), or a partition of a
          // split one held here: walk it here.
          for (long d : e.getValue()) {
            SubtreeDirs s = SubtreeDirs.scan(ctx.ns(), d);
            below.addAll(s.found().values());
            splitThere.putAll(s.split());
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
          for (SplitDir sd : g.getSplitDirsList()) {
            splitThere.put(sd.getId(), new SubtreeDirs.Split(sd.getZerothSlot(),
                PartitionBitmap.fromBytes(sd.getBitmap().toByteArray())));
          }
        }
        for (SubtreeDirs.Away b : below) {
          if (found.putIfAbsent(b.inode().inodeId, b) == null) {
            if (b.slot() == e.getKey()) {
              asked.add(new Visit(b.inode().inodeId, b.slot())); // homed where it was found: walked there already
            }
            ask(new Visit(b.inode().inodeId, b.slot()), asked, todo);
          }
        }
        splitThere.forEach((d, sp) -> gather(d, sp, split, slots, asked, todo));
      }
    }
    split.remove(dirId); // the localized directory's own partitions: push / end, and PublishPlan's bitmap
    return new Reach(found, split);
  }

  private static void ask(Visit v, Set<Visit> asked, Deque<Visit> todo) {
    if (asked.add(v)) {
      todo.add(v);
    }
  }

  /** Merges what one slot knows of split directory {@code d}'s bitmap; asks the slots of partitions new to it. */
  private static void gather(long d, SubtreeDirs.Split sp, Map<Long, SubtreeDirs.Split> split, int slots,
      Set<Visit> asked, Deque<Visit> todo) {
    SubtreeDirs.Split all = split.computeIfAbsent(d, k -> new SubtreeDirs.Split(sp.zerothSlot(), sp.bitmap().copy()));
    all.bitmap().merge(sp.bitmap());
    for (int index : all.bitmap().partitions()) {
      ask(new Visit(d, GigaIndex.slotOf(all.zerothSlot(), index, slots)), asked, todo);
    }
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
