package org.indexfs.hadoop.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.indexfs.client.admin.AdminClient;
import org.indexfs.client.admin.FsckCheck;
import org.indexfs.client.admin.FsckProblem;
import org.indexfs.client.admin.FsckProblem.Kind;
import org.indexfs.client.admin.FsckResult;
import org.indexfs.client.admin.FsckSource;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.InodeIds;
import org.indexfs.common.giga.GigaIndex;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.hadoop.IndexFileSystem;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.indexfs.hadoop.admin.FsckCluster.Stored;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.SafeModeRequest;
import org.indexfs.server.filelease.FileLease;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code admin -fsck} on a four-slot cluster (data objects on HDFS): clean after a randomized
 * workload (nested directories, inline and object files, renames within and across slots,
 * deletes, chmod, a directory split by GIGA+ over the slots, a file left open), and each fault
 * injected into the slots' RocksDB or the data tier reported as exactly one problem with its exact
 * words — then undone, and the cluster is clean again. The cluster is in safe mode meanwhile, so
 * nothing moves under the checks.
 */
class FsckTest {
  private static final int SLOTS = 4;
  private static LocalCluster cluster;
  private static FileSystem fs;
  private static IndexFileSystem ifs;
  private static FsckCluster raw;
  private static AdminClient admin;
  private static Configuration conf;
  private static String dataUri;
  private static FSDataOutputStream openWriter;
  private static long seed;

  @BeforeAll
  static void randomizedWorkload() throws Exception {
    seed = Long.getLong("fsck.seed", System.nanoTime());
    System.out.println("FsckTest workload seed: " + seed + " (rerun with -Dfsck.seed=" + seed + ")");
    dataUri = IndexFsTestCluster.hdfs().uri() + "/fsck-data";
    cluster = LocalCluster.builder(IndexFsTestCluster.newWorkDir("fsck")).clusterName("fsck").servers(SLOTS)
        .set(IndexFsConfig.DATA_URI.name(), dataUri)
        .set(IndexFsConfig.SPLIT_THRESHOLD.name(), "40")
        .set(IndexFsConfig.SCRUB_INTERVAL_MS.name(), "0")
        .set(IndexFsConfig.HTTP_PORT.name(), "-1")
        .start();
    conf = IndexFsTestCluster.conf(cluster);
    fs = FileSystem.newInstance(URI.create(cluster.defaultFs()), conf);
    ifs = (IndexFileSystem) fs;
    raw = new FsckCluster(cluster);
    admin = new AdminClient(ifs.client());
    Random r = new Random(seed);

    fs.mkdirs(new Path("/w/plain"));
    for (int i = 0; i < 3; i++) {
      touch(new Path("/w/plain/f" + i), 10 + i);
    }
    touch(new Path("/w/plain/large"), 100 * 1024); // past the inline limit: an HDFS object
    fs.mkdirs(new Path("/w/big"));
    for (int i = 0; i < 200; i++) {
      touch(new Path("/w/big/file-" + i), 0);
    }
    fs.mkdirs(new Path("/w/loop/a/b"));

    List<Path> dirs = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      Path d = new Path("/w/r" + i);
      fs.mkdirs(d);
      dirs.add(d);
    }
    for (int op = 0; op < 250; op++) {
      int dice = r.nextInt(100);
      Path dir = dirs.get(r.nextInt(dirs.size()));
      if (dice < 45 || files.size() < 5) {
        Path f = new Path(dir, "f" + op);
        touch(f, r.nextInt(20) == 0 ? 70 * 1024 : r.nextInt(200));
        files.add(f);
      } else if (dice < 60) {
        Path d = new Path(dir, "d" + op);
        fs.mkdirs(d);
        dirs.add(d);
      } else if (dice < 75) {
        Path f = files.remove(r.nextInt(files.size()));
        Path to = new Path(dir, "m" + op);
        assertTrue(fs.rename(f, to), "rename " + f + " to " + to);
        files.add(to);
      } else if (dice < 80 && dirs.size() > 8) {
        Path src = dirs.get(6 + r.nextInt(dirs.size() - 6));
        if (!dir.toString().startsWith(src + "/") && !dir.equals(src)) {
          Path to = new Path(dir, "moved" + op);
          assertTrue(fs.rename(src, to), "rename " + src + " to " + to);
          String from = src.toString();
          dirs.replaceAll(d -> d.toString().equals(from) || d.toString().startsWith(from + "/")
              ? new Path(to + d.toString().substring(from.length())) : d);
          files.replaceAll(f -> f.toString().startsWith(from + "/") ? new Path(to + f.toString().substring(from.length())) : f);
        }
      } else if (dice < 92) {
        Path f = files.remove(r.nextInt(files.size()));
        assertTrue(fs.delete(f, false), "delete " + f);
      } else if (dice < 95 && dirs.size() > 8) {
        Path d = dirs.get(6 + r.nextInt(dirs.size() - 6));
        String gone = d.toString();
        assertTrue(fs.delete(d, true), "delete -r " + d);
        dirs.removeIf(x -> x.toString().equals(gone) || x.toString().startsWith(gone + "/"));
        files.removeIf(x -> x.toString().startsWith(gone + "/"));
      } else {
        fs.setPermission(dir, new FsPermission((short) (r.nextBoolean() ? 0750 : 0755)));
      }
    }
    openWriter = fs.create(new Path("/w/open"));
    openWriter.write("still writing".getBytes(StandardCharsets.UTF_8));
    openWriter.hflush();

    awaitNoSplitInFlight();
    admin.safeMode(SafeModeRequest.Action.ENTER);
    awaitNoSplitInFlight();
    assertTrue(raw.partitionSlots(status("/w/big").getInodeId()).size() >= 3,
        "/w/big did not split over the slots: " + raw.partitionSlots(status("/w/big").getInodeId()));
  }

  private static void touch(Path p, int bytes) throws IOException {
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(new byte[bytes]);
    }
  }

  private static void awaitNoSplitInFlight() throws Exception {
    for (int stable = 0, round = 0; stable < 3; round++) {
      int inFlight = 0;
      for (int slot = 0; slot < SLOTS; slot++) {
        inFlight += cluster.server(slot).splits().inFlight();
      }
      stable = inFlight == 0 ? stable + 1 : 0;
      assertTrue(round < 300, "splits never settled");
      Thread.sleep(200);
    }
  }

  @AfterAll
  static void close() throws Exception {
    if (admin != null) {
      admin.safeMode(SafeModeRequest.Action.LEAVE);
    }
    if (openWriter != null) {
      openWriter.close();
    }
    if (fs != null) {
      fs.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  /** Every test undoes its fault: the cluster must be clean again afterwards. */
  @AfterEach
  void cleanAgain() throws IOException {
    assertEquals(List.of(), fsck().problems(), "the cluster is not clean after the fault was undone");
  }

  private static FsckResult fsck() throws IOException {
    return FsckCheck.run(FsckSource.of(admin, new DataTierObjects(dataUri, conf)));
  }

  private static void assertOnly(Kind kind, String path, String message) throws IOException {
    assertEquals(List.of(new FsckProblem(kind, path, message)), fsck().problems());
  }

  private static FileStatus status(String path) throws IOException {
    return ifs.client().getFileStatus(path);
  }

  @Test
  void healthyClusterAfterRandomWorkloadIsClean() throws Exception {
    FsckResult result = fsck();
    assertEquals(List.of(), result.problems(), "seed " + seed);
    assertTrue(result.safeMode());
    assertEquals(1, result.counts().openFiles(), "the file left open");
    assertTrue(result.counts().splitDirectories() >= 1, "a directory split over slots");
    assertTrue(result.counts().objects() >= 1, "large files are HDFS objects");
    assertEquals(SLOTS, result.counts().slots());

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = new IndexFsAdmin(conf, new PrintStream(out, true, StandardCharsets.UTF_8), System.err)
        .run(new String[] {"-fsck", "/"});
    String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, printed);
    assertTrue(printed.contains("Status: HEALTHY"), printed);
    assertTrue(printed.endsWith("The filesystem under path '/' is HEALTHY\n"), printed);
  }

  @Test
  void balanceCountsEveryEntryAndNamesTheSplitDirectory() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = new IndexFsAdmin(conf, new PrintStream(out, true, StandardCharsets.UTF_8), System.err)
        .run(new String[] {"-balance", "-top", "50"});
    String printed = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, printed);
    List<Stored> all = raw.all();
    assertTrue(printed.startsWith("Slots: " + SLOTS + ", entries: " + all.size() + " (counted)\n"), printed);
    long max = 0;
    int busiest = -1;
    for (int slot = 0; slot < SLOTS; slot++) {
      int s = slot;
      long n = all.stream().filter(e -> e.slot() == s).count();
      if (n > max) {
        max = n;
        busiest = slot;
      }
    }
    assertTrue(printed.contains(String.format("Busiest slot by entries: %d with %d, %.2f x the mean (%.1f)%n", busiest,
        max, max / (all.size() / (double) SLOTS), all.size() / (double) SLOTS)), printed);
    FileStatus big = status("/w/big");
    int partitions = raw.partitionSlots(big.getInodeId()).size();
    assertTrue(printed.contains("  /w/big (" + InodeIds.format(big.getInodeId()) + "): 200 entries in " + partitions
        + " partition(s) — "), printed);
  }

  @Test
  void homePartitionRecordDeletedIsAMissingPartition() throws IOException {
    FileStatus plain = status("/w/plain");
    int home = plain.getZerothSlot();
    List<Stored> below = raw.entriesOf(home, plain.getInodeId());
    byte[] key = FsckCluster.partitionKey(plain.getInodeId());
    byte[] old = raw.get(home, true, key);
    raw.put(home, true, key, null);
    try {
      assertOnly(Kind.MISSING_PARTITION, "/w/plain", "/w/plain: slot " + home + ", its home, holds no partition record"
          + " (partition 0); " + below.size() + " entries there are unreachable (first: '"
          + below.get(0).entryKey().name() + "')");
    } finally {
      raw.put(home, true, key, old);
    }
  }

  @Test
  void splitPartitionRecordDeletedIsAMissingPartition() throws IOException {
    FileStatus big = status("/w/big");
    long id = big.getInodeId();
    int z = big.getZerothSlot();
    int slot = -1;
    for (int s : raw.partitionSlots(id)) {
      if (s != z && !raw.entriesOf(s, id).isEmpty()) {
        slot = s;
        break;
      }
    }
    int index = Math.floorMod(slot - z, SLOTS);
    int namedBy = -1;
    for (int s : raw.partitionSlots(id)) {
      if (s != slot && bitmap(s, id).contains(index)) {
        namedBy = s;
        break;
      }
    }
    List<Stored> below = raw.entriesOf(slot, id);
    byte[] key = FsckCluster.partitionKey(id);
    byte[] old = raw.get(slot, true, key);
    raw.put(slot, true, key, null);
    try {
      assertOnly(Kind.MISSING_PARTITION, "/w/big", "/w/big: slot " + slot + ", named by the bitmap on slot " + namedBy
          + ", holds no partition record (partition " + index + "); " + below.size()
          + " entries there are unreachable (first: '" + below.get(0).entryKey().name() + "')");
    } finally {
      raw.put(slot, true, key, old);
    }
  }

  @Test
  void objectNoEntryNamesIsUnreferenced() throws Exception {
    Path orphan = new Path(dataUri + "/2/999999999");
    FileSystem data = FileSystem.get(URI.create(dataUri), conf);
    try (FSDataOutputStream out = data.create(orphan)) {
      out.write(new byte[10]);
    }
    try {
      assertOnly(Kind.UNREFERENCED_OBJECT, null,
          "data object 2/999999999 (10 bytes) is referred to by no entry, writer or reclamation");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      IndexFsAdmin tool = new IndexFsAdmin(conf, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
      assertEquals(1, tool.run(new String[] {"-fsck", "/"}));
      String printed = out.toString(StandardCharsets.UTF_8);
      assertTrue(printed.contains("UNREFERENCED_OBJECT: data object 2/999999999 (10 bytes)"), printed);
      assertTrue(printed.endsWith("The filesystem under path '/' is CORRUPT\n"), printed);
      // An object has no path: a check of a subtree does not show it.
      assertEquals(0, tool.run(new String[] {"-fsck", "/w/plain"}));
    } finally {
      data.delete(orphan, false);
    }
  }

  @Test
  void entryWhoseObjectIsGoneIsAMissingObject() throws IOException {
    String object = status("/w/plain/large").getDataObject();
    FileSystem data = FileSystem.get(URI.create(dataUri), conf);
    Path stored = new Path(dataUri + "/" + object);
    Path away = new Path(dataUri + "/moved-away");
    assertTrue(data.rename(stored, away));
    try {
      assertOnly(Kind.MISSING_OBJECT, "/w/plain/large",
          "/w/plain/large refers to data object " + object + ", which does not exist");
    } finally {
      assertTrue(data.rename(away, stored));
    }
  }

  @Test
  void entryInADirectoryThatDoesNotExistIsAnOrphan() throws IOException {
    Inode ghost = raw.find(status("/w/plain").getInodeId(), "f0").inode().copy();
    ghost.inodeId = InodeIds.of(3, 5);
    byte[] key = EntryKey.of(InodeIds.of(3, 999_999), "ghost").encode();
    raw.put(1, false, key, ghost.encode());
    try {
      assertOnly(Kind.ORPHAN_ENTRY, null,
          "1 entries on slot 1 are in directory 3:999999, which does not exist (first: 'ghost')");
    } finally {
      raw.put(1, false, key, null);
    }
  }

  @Test
  void bitmapBitForAPartitionNobodyHoldsIsAMismatch() throws IOException {
    FileStatus plain = status("/w/plain");
    int home = plain.getZerothSlot();
    PartitionBitmap flipped = PartitionBitmap.initial();
    flipped.add(1);
    byte[] key = FsckCluster.bitmapKey(plain.getInodeId());
    byte[] old = raw.get(home, true, key);
    raw.put(home, true, key, flipped.toBytes());
    try {
      assertOnly(Kind.BITMAP_MISMATCH, "/w/plain", "/w/plain: the bitmap on slot " + home
          + " names partition 1, which slot " + (home + 1) % SLOTS + " does not hold");
    } finally {
      raw.put(home, true, key, old);
    }
  }

  @Test
  void childMissingFromItsSplittersBitmapIsAMismatch() throws IOException {
    FileStatus big = status("/w/big");
    long id = big.getInodeId();
    int z = big.getZerothSlot();
    int slot = raw.partitionSlots(id).stream().filter(s -> s != z).findFirst().orElseThrow();
    int child = Math.floorMod(slot - z, SLOTS);
    int parent = GigaIndex.parentOf(child);
    int splitter = GigaIndex.slotOf(z, parent, SLOTS);
    byte[] key = FsckCluster.bitmapKey(id);
    byte[] old = raw.get(splitter, true, key);
    PartitionBitmap without = PartitionBitmap.initial();
    for (int bit : PartitionBitmap.fromBytes(old).partitions()) {
      if (bit != child) {
        without.add(bit);
      }
    }
    raw.put(splitter, true, key, without.toBytes());
    try {
      assertOnly(Kind.BITMAP_MISMATCH, "/w/big", "/w/big: partition " + child + " on slot " + slot
          + " is missing from the bitmap on slot " + splitter + " (partition " + parent + ", which split it off)");
    } finally {
      raw.put(splitter, true, key, old);
    }
  }

  @Test
  void partitionRecordWithOtherAttributesIsAHomeMismatch() throws IOException {
    FileStatus plain = status("/w/plain");
    int home = plain.getZerothSlot();
    byte[] key = FsckCluster.partitionKey(plain.getInodeId());
    byte[] old = raw.get(home, true, key);
    Inode changed = Inode.decode(old);
    changed.permission = 0700;
    raw.put(home, true, key, changed.encode());
    try {
      assertOnly(Kind.HOME_MISMATCH, "/w/plain", "/w/plain: the partition record on slot " + home
          + " says mode 700 (entry: " + String.format("%o", plain.getPermission()) + ")");
    } finally {
      raw.put(home, true, key, old);
    }
  }

  @Test
  void partitionRecordNoEntryNamesIsAnOrphanPartition() throws IOException {
    FileStatus plain = status("/w/plain");
    Inode record = Inode.decode(raw.get(plain.getZerothSlot(), true, FsckCluster.partitionKey(plain.getInodeId())));
    long ghost = InodeIds.of(2, 888_888);
    record.inodeId = ghost;
    record.zerothSlot = 2;
    byte[] key = FsckCluster.partitionKey(ghost);
    raw.put(2, true, key, record.encode());
    try {
      assertOnly(Kind.ORPHAN_PARTITION, null, "slot 2 holds a partition record of directory 2:888888, which no entry names");
    } finally {
      raw.put(2, true, key, null);
    }
  }

  @Test
  void fileMarkedOpenWithoutALeaseIsReported() throws IOException {
    Stored f0 = raw.find(status("/w/plain").getInodeId(), "f0");
    Inode open = f0.inode().copy();
    open.flags |= Inode.FLAG_UNDER_CONSTRUCTION;
    raw.put(f0.slot(), false, f0.key(), open.encode());
    try {
      assertOnly(Kind.OPEN_WITHOUT_LEASE, "/w/plain/f0",
          "/w/plain/f0 is open for writing, but slot " + f0.slot() + " holds no write lease on it");
    } finally {
      raw.put(f0.slot(), false, f0.key(), f0.inode().encode());
    }
  }

  @Test
  void leaseOnAClosedFileIsStray() throws IOException {
    long plain = status("/w/plain").getInodeId();
    Stored f1 = raw.find(plain, "f1");
    long id = f1.inode().inodeId;
    byte[] key = FsckCluster.leaseKey(id);
    raw.put(f1.slot(), true, key, new FileLease(id, "ghost-client", plain, "f1", "").encode());
    try {
      assertOnly(Kind.STRAY_LEASE, "/w/plain/f1", "slot " + f1.slot() + " holds a write lease of ghost-client on inode "
          + InodeIds.format(id) + " ('f1' in " + InodeIds.format(plain) + "), which is not open for writing there");
    } finally {
      raw.put(f1.slot(), true, key, null);
    }
  }

  @Test
  void entryOnTheWrongPartitionsSlotIsMisplaced() throws IOException {
    FileStatus big = status("/w/big");
    long id = big.getInodeId();
    int z = big.getZerothSlot();
    List<Integer> slots = raw.partitionSlots(id);
    int from = slots.stream().filter(s -> !raw.entriesOf(s, id).isEmpty()).findFirst().orElseThrow();
    int to = slots.stream().filter(s -> s != from).findFirst().orElseThrow();
    Stored moving = raw.entriesOf(from, id).get(0);
    raw.put(from, false, moving.key(), null);
    raw.put(to, false, moving.key(), moving.inode().encode());
    try {
      String path = "/w/big/" + moving.entryKey().name();
      assertOnly(Kind.MISPLACED_ENTRY, path, path + " is on slot " + to + " (partition " + Math.floorMod(to - z, SLOTS)
          + "), but its name hashes to partition " + Math.floorMod(from - z, SLOTS) + " on slot " + from);
    } finally {
      raw.put(to, false, moving.key(), null);
      raw.put(from, false, moving.key(), moving.inode().encode());
    }
  }

  @Test
  void twoEntriesWithOneInodeIdAreADuplicate() throws IOException {
    long plain = status("/w/plain").getInodeId();
    Stored f0 = raw.find(plain, "f0");
    byte[] key = EntryKey.of(plain, "f0-copy").encode();
    raw.put(f0.slot(), false, key, f0.inode().encode());
    try {
      boolean copyFirst = Arrays.compareUnsigned(key, f0.key()) < 0;
      String first = copyFirst ? "/w/plain/f0-copy" : "/w/plain/f0";
      String second = copyFirst ? "/w/plain/f0" : "/w/plain/f0-copy";
      assertOnly(Kind.DUPLICATE_INODE, second, "inode " + InodeIds.format(f0.inode().inodeId) + " is named twice: "
          + first + " (slot " + f0.slot() + ") and " + second + " (slot " + f0.slot() + ")");
    } finally {
      raw.put(f0.slot(), false, key, null);
    }
  }

  @Test
  void allocatorMarkBelowIdsInUseIsReported() throws IOException {
    int slot = status("/w/plain").getZerothSlot();
    Stored highest = null;
    for (Stored e : raw.all()) {
      long id = e.inode().inodeId;
      if (InodeIds.slot(id) == slot && id != InodeIds.ROOT
          && (highest == null || InodeIds.sequence(id) > InodeIds.sequence(highest.inode().inodeId))) {
        highest = e;
      }
    }
    String path = raw.paths().get(highest.inode().inodeId);
    byte[] key = FsckCluster.highWaterKey();
    byte[] old = raw.get(slot, true, key);
    raw.put(slot, true, key, java.nio.ByteBuffer.allocate(8).putLong(16).array());
    try {
      assertOnly(Kind.ID_ABOVE_MARK, path, "slot " + slot + " allocates inode ids from " + slot + ":16 on, but " + path
          + " already has " + InodeIds.format(highest.inode().inodeId) + ": the allocator would hand it out again");
    } finally {
      raw.put(slot, true, key, old);
    }
  }

  @Test
  void undecodableEntryIsCorrupt() throws IOException {
    long plain = status("/w/plain").getInodeId();
    Stored f2 = raw.find(plain, "f2");
    raw.put(f2.slot(), false, f2.key(), new byte[] {9, 9, 9});
    try {
      assertOnly(Kind.CORRUPT_ENTRY, null, "slot " + f2.slot() + ": entry 'f2' of directory " + InodeIds.format(plain)
          + " cannot be read: Corrupt or unknown entry value (3 bytes, version 9)");
    } finally {
      raw.put(f2.slot(), false, f2.key(), f2.inode().encode());
    }
  }

  @Test
  void sealedPartitionWithoutARemovalIsReported() throws IOException {
    FileStatus plain = status("/w/plain");
    int home = plain.getZerothSlot();
    byte[] key = FsckCluster.partitionKey(plain.getInodeId());
    byte[] old = raw.get(home, true, key);
    Inode sealed = Inode.decode(old);
    sealed.flags |= Inode.FLAG_SEALED;
    raw.put(home, true, key, sealed.encode());
    try {
      assertOnly(Kind.SEALED_PARTITION, "/w/plain", "/w/plain: partition 0 on slot " + home
          + " is sealed against new entries, but no removal of the directory is under way");
    } finally {
      raw.put(home, true, key, old);
    }
  }

  @Test
  void directoryMovedBelowItsOwnChildIsACycle() throws IOException {
    FileStatus loop = status("/w/loop");
    FileStatus a = status("/w/loop/a");
    FileStatus b = status("/w/loop/a/b");
    Stored aEntry = raw.find(loop.getInodeId(), "a");
    byte[] cyclic = EntryKey.of(b.getInodeId(), "a").encode();
    raw.put(aEntry.slot(), false, aEntry.key(), null);
    raw.put(b.getZerothSlot(), false, cyclic, aEntry.inode().encode());
    try {
      String na = "'a' (" + InodeIds.format(a.getInodeId()) + ")";
      String nb = "'b' (" + InodeIds.format(b.getInodeId()) + ")";
      boolean aFirst = Long.compareUnsigned(a.getInodeId(), b.getInodeId()) < 0;
      assertOnly(Kind.CYCLE, null, "directories " + (aFirst ? na + " → " + nb : nb + " → " + na)
          + " are each other's parents: they and everything below them are unreachable from /");
    } finally {
      raw.put(b.getZerothSlot(), false, cyclic, null);
      raw.put(aEntry.slot(), false, aEntry.key(), aEntry.inode().encode());
    }
  }

  @Test
  void entryWithoutItsListingRecordIsAnIndexMismatch() throws IOException {
    long plain = status("/w/plain").getInodeId();
    Stored f1 = raw.find(plain, "f1");
    byte[] listed = raw.listing(f1.slot(), plain, "f1");
    raw.putListing(f1.slot(), plain, "f1", null);
    try {
      assertOnly(Kind.INDEX_MISMATCH, "/w/plain/f1",
          "/w/plain/f1: slot " + f1.slot() + ": no listing record: listings leave it out");
    } finally {
      raw.putListing(f1.slot(), plain, "f1", listed);
    }
  }

  @Test
  void listingRecordWithOtherAttributesIsAnIndexMismatch() throws IOException {
    long plain = status("/w/plain").getInodeId();
    Stored f1 = raw.find(plain, "f1");
    byte[] listed = raw.listing(f1.slot(), plain, "f1");
    Inode stale = Inode.decode(listed);
    stale.mtime -= 60_000;
    raw.putListing(f1.slot(), plain, "f1", stale.encode());
    try {
      assertOnly(Kind.INDEX_MISMATCH, "/w/plain/f1", "/w/plain/f1: slot " + f1.slot()
          + ": its listing record holds other attributes: listings show stale ones");
    } finally {
      raw.putListing(f1.slot(), plain, "f1", listed);
    }
  }

  @Test
  void listingRecordWithNoEntryIsAnIndexMismatch() throws IOException {
    long plain = status("/w/plain").getInodeId();
    Stored f1 = raw.find(plain, "f1");
    Inode ghost = Inode.decode(raw.listing(f1.slot(), plain, "f1"));
    ghost.inodeId = InodeIds.of(f1.slot(), 888_888);
    raw.putListing(f1.slot(), plain, "ghost", ghost.encode());
    try {
      assertOnly(Kind.INDEX_MISMATCH, "/w/plain/ghost", "/w/plain/ghost: slot " + f1.slot() + " lists it (inode "
          + InodeIds.format(ghost.inodeId) + ") but holds no entry for it: listings show a name that does not exist");
    } finally {
      raw.putListing(f1.slot(), plain, "ghost", null);
    }
  }

  private static PartitionBitmap bitmap(int slot, long dirId) throws IOException {
    byte[] v = raw.get(slot, true, FsckCluster.bitmapKey(dirId));
    return v == null ? PartitionBitmap.initial() : PartitionBitmap.fromBytes(v);
  }
}
