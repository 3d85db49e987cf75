package org.indexfs.bench.scale;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import org.indexfs.common.giga.GigaIndex;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.schema.NameHash;
import org.indexfs.server.placement.Placement;

/**
 * A namespace spread over N slots with no servers and no network, to predict load balance on
 * clusters larger than this machine. What decides where things go is the real code:
 *
 * <ul>
 *   <li>a new directory's home slot is chosen by {@link Placement#choose} (power of two choices),
 *       run by the slot that receives the mkdir, over that slot's view of every slot's entry count.
 *       The view is refreshed from the true counts every {@code refreshEvery} operations (the
 *       servers publish theirs every {@code indexfs.placement.refresh-ms}); between refreshes each
 *       slot only counts its own choices, as the server does;</li>
 *   <li>an entry belongs to partition {@link GigaIndex#partitionOf} of its parent, served by slot
 *       {@link GigaIndex#slotOf} {@code (zeroth + i) mod N}.</li>
 * </ul>
 *
 * <p>With {@code splitting} on, a partition holding more than {@code splitThreshold} entries
 * splits at once into {@link GigaIndex#nextChild} (at most N partitions, so never two on one
 * slot) and the entries {@link GigaIndex#movesTo} the child move. That is GIGA+ as the index math
 * defines it, split at once where the servers split in the background one partition at a time.
 *
 * <p>Each call is one operation at the slot of the partition holding its entry (a warm client
 * cache: one RPC); a listing is one operation at each slot holding a partition of the directory;
 * a rename also counts at the destination's slot when that differs. Entries a call refers to that
 * do not exist yet are created first without counting an operation (the namespace before the
 * trace), each directory by its own mkdir.
 *
 * <p>Besides the operations, the calls one slot makes to another on their behalf are counted
 * apart, at the slot that receives them ({@link Result#peerCalls}): a create, delete or rename
 * raises its directory's mtime where the directory's own entry lives, and a mkdir makes the new
 * directory's first partition on its home slot — each a call between slots when that slot is not
 * the one that served the operation.
 */
public final class SlotLoadModel {
  /** How the model is set up. */
  public record Settings(int slots, boolean splitting, int splitThreshold, long refreshEvery, long seed) {
    public Settings {
      if (slots < 1 || splitThreshold < 1 || refreshEvery < 1) {
        throw new IllegalArgumentException("slots, split threshold and refresh interval must be positive");
      }
    }
  }

  /**
   * Operations per slot over the run; entries per slot when the namespace was largest (a run that
   * deletes what it created ends nearly empty); the largest directory's entry count.
   */
  public record Result(Settings settings, long[] operations, long[] entries, long directories, long splits,
      long largestDirectory, long[] peerCalls) {
    public double operationImbalance() {
      return maxOverMean(operations);
    }

    public double entryImbalance() {
      return maxOverMean(entries);
    }
  }

  /** The busiest slot's count over the mean count (1.0: perfectly even; N: everything on one slot). */
  public static double maxOverMean(long[] perSlot) {
    long max = 0;
    long sum = 0;
    for (long v : perSlot) {
      max = Math.max(max, v);
      sum += v;
    }
    return sum == 0 ? 1.0 : max / ((double) sum / perSlot.length);
  }

  private static final class Entry {
    final long hash;
    Dir dir; // null for a file

    Entry(long hash, Dir dir) {
      this.hash = hash;
      this.dir = dir;
    }
  }

  private static final class Dir {
    final int zeroth;
    /** Where this directory's own entry lives: in {@code parent}'s partition of {@code hash} (the root: slot 0). */
    Dir parent;
    long hash;
    final PartitionBitmap bitmap = PartitionBitmap.initial();
    final Map<String, Entry> children = new HashMap<>();
    int[] counts = new int[1];

    Dir(int zeroth) {
      this.zeroth = zeroth;
    }
  }

  private final Settings settings;
  private final Dir root = new Dir(0);
  private final long[] operations;
  private final long[] peerCalls;
  private final long[] entries;
  private final AtomicLongArray[] views;
  private final SplittableRandom random;
  private long sinceRefresh;
  private long directories = 1;
  private long splits;
  private long total;
  private long peakTotal;
  private final long[] peakEntries;
  private long largestDirectory;

  public SlotLoadModel(Settings settings) {
    this.settings = settings;
    int n = settings.slots();
    operations = new long[n];
    peerCalls = new long[n];
    entries = new long[n];
    peakEntries = new long[n];
    views = new AtomicLongArray[n];
    for (int s = 0; s < n; s++) {
      views[s] = new AtomicLongArray(n);
    }
    random = new SplittableRandom(settings.seed());
  }

  /** A lookup of {@code path} (stat, open, chmod, setTimes ...). */
  public void touch(String path) {
    List<String> names = components(path);
    count(names.isEmpty() ? 0 : locate(names, false).slot()); // the root's entry lives on slot 0
  }

  public void create(String path) {
    add(components(path), false);
  }

  public void mkdir(String path) {
    add(components(path), true);
  }

  /**
   * {@code mkdir -p}, as the server's MkdirsOp places it: one new directory under an existing
   * parent gets its home by power of two choices; a chain of new ones all stay on the slot that
   * receives the call (the one holding the first missing entry), so the chain is one batch.
   */
  public void mkdirs(String path) {
    List<String> names = components(path);
    Dir d = root;
    int i = 0;
    for (; i < names.size() - 1; i++) {
      Entry e = d.children.get(names.get(i));
      if (e == null) {
        break;
      }
      d = directory(new Located(d, names.get(i), e, slotOf(d, e.hash)));
    }
    if (i >= names.size() - 1) {
      add(names, true); // the last one only (or none) is missing: a single mkdir
      return;
    }
    int receiver = slotOf(d, NameHash.of(names.get(i)));
    count(receiver);
    raiseMtime(d, receiver);
    for (; i < names.size(); i++) {
      Dir made = new Dir(receiver);
      directories++;
      insert(d, names.get(i), made);
      d = made;
    }
  }

  /** A listing of a directory: one operation at each slot holding one of its partitions. */
  public void list(String path) {
    List<String> names = components(path);
    Dir d = names.isEmpty() ? root : directory(locate(names, true));
    for (int p : d.bitmap.partitions()) {
      count(GigaIndex.slotOf(d.zeroth, p, settings.slots()));
    }
  }

  public void delete(String path) {
    List<String> names = components(path);
    if (names.isEmpty()) {
      count(0); // the root cannot go
      return;
    }
    Located l = locate(names, false);
    count(l.slot());
    raiseMtime(l.parent(), l.slot());
    remove(l, true);
  }

  public void rename(String src, String dst) {
    List<String> s = components(src);
    List<String> d = components(dst);
    if (s.isEmpty() || d.isEmpty()) {
      count(0);
      return;
    }
    Located from = locate(s, false);
    count(from.slot());
    if (d.size() >= s.size() && d.subList(0, s.size()).equals(s)) {
      return; // onto itself or into its own subtree: refused, nothing moves
    }
    Dir target = parentOf(d);
    String name = d.get(d.size() - 1);
    Entry replaced = target.children.get(name);
    if (replaced != null) {
      remove(new Located(target, name, replaced, slotOf(target, replaced.hash)), true);
    }
    remove(from, false); // the entry moves; a directory keeps its home and contents
    int to = insert(target, name, from.entry().dir);
    if (to != from.slot()) {
      count(to);
    }
    raiseMtime(from.parent(), from.slot());
    raiseMtime(target, to);
  }

  public Result result() {
    return new Result(settings, operations.clone(), peakEntries.clone(), directories, splits, largestDirectory,
        peerCalls.clone());
  }

  private record Located(Dir parent, String name, Entry entry, int slot) {}

  private void add(List<String> names, boolean directory) {
    if (names.isEmpty()) {
      count(0); // mkdir / : the root exists
      return;
    }
    Dir parent = parentOf(names);
    String name = names.get(names.size() - 1);
    Entry existing = parent.children.get(name);
    if (existing != null) {
      count(slotOf(parent, existing.hash)); // a create over an existing entry (overwrite), or mkdir of one
      return;
    }
    long hash = NameHash.of(name);
    int slot = slotOf(parent, hash);
    count(slot);
    Dir made = directory ? new Dir(chooseHome(slot)) : null;
    insert(parent, name, made);
    raiseMtime(parent, slot);
    if (made != null && made.zeroth != slot) {
      peerCalls[made.zeroth]++; // its first partition, made at its home
    }
  }

  /** {@code dir} changed through slot {@code served}: its mtime is raised where its entry lives. */
  private void raiseMtime(Dir dir, int served) {
    int entrySlot = dir.parent == null ? 0 : slotOf(dir.parent, dir.hash);
    if (entrySlot != served) {
      peerCalls[entrySlot]++;
    }
  }

  /** The entry at {@code names}, created (uncounted) with its parents when missing. */
  private Located locate(List<String> names, boolean directory) {
    return locateIn(parentOf(names), names.get(names.size() - 1), directory);
  }

  private Dir directory(Located l) {
    if (l.entry().dir == null) {
      // A path used as a directory that the trace also used as a file: from now on a directory.
      l.entry().dir = new Dir(chooseHome(l.slot()));
      l.entry().dir.parent = l.parent();
      l.entry().dir.hash = l.entry().hash;
    }
    return l.entry().dir;
  }

  private Dir parentOf(List<String> names) {
    Dir d = root;
    for (int i = 0; i < names.size() - 1; i++) {
      d = directory(locateIn(d, names.get(i), true));
    }
    return d;
  }

  private Located locateIn(Dir parent, String name, boolean directory) {
    Entry e = parent.children.get(name);
    if (e == null) {
      int slot = slotOf(parent, NameHash.of(name));
      insert(parent, name, directory ? new Dir(chooseHome(slot)) : null);
      e = parent.children.get(name);
    }
    return new Located(parent, name, e, slotOf(parent, e.hash));
  }

  /** The home slot for a new directory, chosen by {@code receiver}, the slot handling the mkdir. */
  private int chooseHome(int receiver) {
    directories++;
    return settings.slots() == 1 ? 0 : Placement.choose(views[receiver], random);
  }

  private int slotOf(Dir d, long hash) {
    return GigaIndex.slotOf(d.zeroth, GigaIndex.partitionOf(hash, d.bitmap), settings.slots());
  }

  /** Adds an entry and returns the slot that holds it (after any split it caused). */
  private int insert(Dir parent, String name, Dir dir) {
    long hash = NameHash.of(name);
    parent.children.put(name, new Entry(hash, dir));
    if (dir != null) {
      dir.parent = parent;
      dir.hash = hash;
    }
    int p = GigaIndex.partitionOf(hash, parent.bitmap);
    parent.counts[p]++;
    entries[GigaIndex.slotOf(parent.zeroth, p, settings.slots())]++;
    total++;
    largestDirectory = Math.max(largestDirectory, parent.children.size());
    if (settings.splitting() && parent.counts[p] > settings.splitThreshold()) {
      split(parent, p);
    }
    if (total > peakTotal) {
      peakTotal = total;
      System.arraycopy(entries, 0, peakEntries, 0, entries.length);
    }
    return slotOf(parent, hash);
  }

  private void split(Dir d, int p) {
    int child = GigaIndex.nextChild(p, d.bitmap, settings.slots());
    if (child < 0) {
      return; // the directory already spans every slot it can
    }
    d.bitmap.add(child);
    if (d.counts.length <= child) {
      d.counts = java.util.Arrays.copyOf(d.counts, Math.max(child + 1, d.counts.length * 2));
    }
    int from = GigaIndex.slotOf(d.zeroth, p, settings.slots());
    int to = GigaIndex.slotOf(d.zeroth, child, settings.slots());
    int moving = 0;
    for (Entry e : d.children.values()) {
      if (GigaIndex.partitionOf(e.hash, d.bitmap) == child) {
        moving++; // was in p, and GigaIndex.movesTo(e.hash, child)
      }
    }
    d.counts[p] -= moving;
    d.counts[child] += moving;
    entries[from] -= moving;
    entries[to] += moving;
    splits++;
  }

  private void remove(Located l, boolean withSubtree) {
    Entry e = l.parent().children.remove(l.name());
    if (e == null) {
      return;
    }
    int p = GigaIndex.partitionOf(e.hash, l.parent().bitmap);
    l.parent().counts[p]--;
    entries[GigaIndex.slotOf(l.parent().zeroth, p, settings.slots())]--;
    total--;
    if (withSubtree && e.dir != null) {
      removeSubtree(e.dir);
    }
  }

  private void removeSubtree(Dir d) {
    directories--;
    for (Entry e : d.children.values()) {
      entries[slotOf(d, e.hash)]--;
      total--;
      if (e.dir != null) {
        removeSubtree(e.dir);
      }
    }
    d.children.clear();
  }

  private void count(int slot) {
    operations[slot]++;
    if (++sinceRefresh >= settings.refreshEvery()) {
      sinceRefresh = 0;
      for (AtomicLongArray view : views) {
        for (int s = 0; s < entries.length; s++) {
          view.set(s, entries[s]);
        }
      }
    }
  }

  private static List<String> components(String path) {
    List<String> out = new ArrayList<>();
    for (String part : path.split("/")) {
      if (!part.isEmpty()) {
        out.add(part);
      }
    }
    return out;
  }
}
