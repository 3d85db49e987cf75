package org.indexfs.hadoop.decoupled;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageStatistics;
import org.indexfs.common.policy.SubtreePolicy;
import org.indexfs.common.policy.SubtreePolicy.Consistency;
import org.indexfs.common.policy.SubtreePolicy.Durability;
import org.indexfs.hadoop.IndexFileSystem;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Consistency {@code decoupled} (issue 18, Cudele) through the Hadoop surface, on a cluster whose
 * data tier is a MiniDFSCluster: a client checks a subtree out, works on its private copy with no
 * RPC at all, and merges it back; what the server side changed since check-out wins and every
 * change of the copy not applied is reported by path and reason.
 */
class DecoupledCheckoutTest {
  private static final SubtreePolicy DECOUPLED = new SubtreePolicy(Consistency.DECOUPLED, Durability.SYNC);
  private static IndexFileSystem fs;
  private static IndexFileSystem other;

  @BeforeAll
  static void start() throws Exception {
    IndexFsTestCluster.get();
    fs = (IndexFileSystem) FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
    other = (IndexFileSystem) FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
  }

  @AfterAll
  static void stop() throws Exception {
    fs.close();
    other.close();
  }

  private static Set<String> names(FileSystem f, Path dir) throws Exception {
    return Arrays.stream(f.listStatus(dir)).map(s -> s.getPath().getName()).collect(Collectors.toSet());
  }

  private static void write(FileSystem f, Path p, byte[] bytes) throws Exception {
    try (FSDataOutputStream out = f.create(p, true)) {
      out.write(bytes);
    }
  }

  private static byte[] read(FileSystem f, Path p) throws Exception {
    try (FSDataInputStream in = f.open(p)) {
      return in.readAllBytes();
    }
  }

  private static byte[] text(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Path decoupledRoot(String name) throws Exception {
    Path root = new Path("/" + name);
    fs.mkdirs(root);
    fs.setPolicy(root, DECOUPLED);
    return root;
  }

  @Test
  void theCopyIsWorkedOnWithoutRpcsAndOthersSeeItOnlyAfterTheMerge() throws Exception {
    Path root = decoupledRoot("dec-work");
    write(fs, new Path(root, "old"), text("checked out"));
    write(fs, new Path(root, "d1/x"), text("x"));
    fs.checkout(root);

    StorageStatistics stats = fs.getStorageStatistics();
    long rpcs = stats.getLong("rpc");
    byte[] large = new byte[300 * 1024];
    new Random(18).nextBytes(large);
    assertTrue(fs.mkdirs(new Path(root, "new/sub")));
    for (int i = 0; i < 50; i++) {
      fs.create(new Path(root, "new/sub/part-" + i)).close();
    }
    write(fs, new Path(root, "new/small"), text("small bytes"));
    write(fs, new Path(root, "new/large"), large);
    assertEquals(51, fs.listStatus(new Path(root, "new/sub")).length + 1);
    assertEquals(11, fs.getFileStatus(new Path(root, "new/small")).getLen());
    assertTrue(fs.rename(new Path(root, "old"), new Path(root, "old2")));
    assertTrue(fs.rename(new Path(root, "new/sub/part-0"), new Path(root, "first")));
    assertTrue(fs.delete(new Path(root, "d1/x"), false));
    assertFalse(fs.exists(new Path(root, "old")));
    assertEquals(Set.of("d1", "first", "new", "old2"), names(fs, root));
    assertArrayEquals(large, read(fs, new Path(root, "new/large")));
    assertEquals(rpcs, stats.getLong("rpc"), "everything on the copy is answered without a server");
    assertArrayEquals(text("checked out"), read(fs, new Path(root, "old2")), "checked-out bytes are the server's");

    assertEquals(Set.of("d1", "old"), names(other, root), "others see none of the copy before the merge");
    assertThrows(FileNotFoundException.class, () -> other.getFileStatus(new Path(root, "new")));

    MergeReport report = fs.merge(root);
    assertEquals(List.of(), report.conflicts());
    assertEquals(Set.of("d1", "first", "new", "old2"), names(other, root));
    assertEquals(Set.of(), names(other, new Path(root, "d1")));
    assertEquals(49, other.listStatus(new Path(root, "new/sub")).length);
    assertArrayEquals(text("small bytes"), read(other, new Path(root, "new/small")));
    assertArrayEquals(large, read(other, new Path(root, "new/large")));
    assertArrayEquals(text("checked out"), read(other, new Path(root, "old2")));
    // The copy is gone: calls reach the server again, and the subtree is free for anyone.
    long before = stats.getLong("rpc");
    fs.getFileStatus(new Path(root, "first"));
    assertTrue(stats.getLong("rpc") > before);
    write(other, new Path(root, "after"), text("a"));
  }

  @Test
  void whatTheServerSideChangedSinceCheckOutWinsAndEveryLossIsReported() throws Exception {
    Path root = decoupledRoot("dec-conflict");
    for (String f : List.of("a", "b", "c", "d/f")) {
      write(fs, new Path(root, f), text("v1 " + f));
    }
    fs.checkout(root);
    // The copy: a new name, a rename, a delete, an overwrite, a recursive delete, a new directory.
    write(fs, new Path(root, "both"), text("copy"));
    assertTrue(fs.rename(new Path(root, "a"), new Path(root, "a2")));
    assertTrue(fs.delete(new Path(root, "b"), false));
    write(fs, new Path(root, "c"), text("copy's c"));
    assertTrue(fs.delete(new Path(root, "d"), true));
    write(fs, new Path(root, "shared/mine"), text("mine"));
    // Meanwhile, on the server.
    write(other, new Path(root, "both"), text("server"));
    assertTrue(other.delete(new Path(root, "a"), false));
    assertTrue(other.delete(new Path(root, "b"), false));
    write(other, new Path(root, "b"), text("server's b"));
    write(other, new Path(root, "d/g"), text("server's g"));
    write(other, new Path(root, "shared/theirs"), text("theirs"));

    MergeReport report = fs.merge(root);
    List<String> conflicts = report.conflicts().stream().map(MergeReport.Conflict::toString).toList();
    assertEquals(4, conflicts.size(), conflicts.toString());
    assertEquals("/dec-conflict/a: not renamed to /dec-conflict/a2: deleted on the server since check-out;"
        + " the server's entry is kept", conflicts.get(0));
    assertEquals("/dec-conflict/b: not deleted: replaced on the server since check-out; the server's entry is kept",
        conflicts.get(1));
    assertEquals("/dec-conflict/d: not deleted: it holds entries the server side created since check-out; kept",
        conflicts.get(2));
    assertTrue(conflicts.get(3).startsWith("/dec-conflict/both: not made: the name was created on the server since"
        + " check-out ("), conflicts.get(3));

    assertEquals(Set.of("b", "both", "c", "d", "shared"), names(other, root));
    assertArrayEquals(text("server"), read(other, new Path(root, "both")));
    assertArrayEquals(text("server's b"), read(other, new Path(root, "b")));
    assertArrayEquals(text("copy's c"), read(other, new Path(root, "c")), "unchanged on the server: the copy's wins");
    assertEquals(Set.of("g"), names(other, new Path(root, "d")), "d/f went, the server's d/g stays");
    assertEquals(Set.of("mine", "theirs"), names(other, new Path(root, "shared")), "two new directories merge");
  }

  @Test
  void twoCopiesOfOneSubtreeMergeInTurnAndTheSecondLosesWhatTheFirstMade() throws Exception {
    Path root = decoupledRoot("dec-two");
    write(fs, new Path(root, "base"), text("b"));
    IndexFileSystem second = (IndexFileSystem) FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
    try {
      fs.checkout(root);
      second.checkout(root);
      write(fs, new Path(root, "same"), text("first"));
      write(fs, new Path(root, "dir/one"), text("1"));
      write(second, new Path(root, "same"), text("second"));
      write(second, new Path(root, "dir/two"), text("2"));
      FSDataOutputStream unfinished = second.create(new Path(root, "unfinished"));
      unfinished.write(text("half"));
      assertTrue(second.delete(new Path(root, "base"), false));
      assertEquals(Set.of("base", "dir", "same"), names(fs, root), "each copy sees only itself");
      assertEquals(Set.of("dir", "same", "unfinished"), names(second, root));

      assertEquals(List.of(), fs.merge(root).conflicts());
      MergeReport late = second.merge(root);
      assertEquals(2, late.conflicts().size(), late.toString());
      assertEquals("/dec-two/unfinished: not made: it was still being written in the copy (its stream not closed)"
          + " at the merge", late.conflicts().get(0).toString());
      assertEquals("/dec-two/same", late.conflicts().get(1).path());
      assertTrue(late.conflicts().get(1).reason().startsWith("not made: the name was created on the server since"
          + " check-out"), late.toString());
      unfinished.close(); // after the merge: its copy is gone, nothing follows it to the server
    } finally {
      second.close();
    }
    assertEquals(Set.of("dir", "same"), names(other, root), "the second copy's delete of an unchanged entry applies");
    assertArrayEquals(text("first"), read(other, new Path(root, "same")));
    assertEquals(Set.of("one", "two"), names(other, new Path(root, "dir")));
  }

  @Test
  void aCopyNeverMergedLeavesNothingOnTheServer() throws Exception {
    Path root = decoupledRoot("dec-dropped");
    write(fs, new Path(root, "kept"), text("k"));
    IndexFileSystem dying = (IndexFileSystem) FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
    dying.checkout(root);
    for (int i = 0; i < 20; i++) {
      write(dying, new Path(root, "gone/f" + i), text("f" + i));
    }
    assertTrue(dying.delete(new Path(root, "kept"), false));
    // No lease was kept by the check-out: another client changes the subtree at once, without waiting.
    write(other, new Path(root, "meanwhile"), text("m"));
    dying.close(); // as a killed client: the copy lived only in its process
    assertEquals(Set.of("kept", "meanwhile"), names(other, root));
    assertThrows(java.io.IOException.class, () -> fs.merge(root), "nothing is checked out by this client");
  }

  @Test
  void onlyADecoupledSubtreeIsCheckedOutAndTheCopyRefusesWhatItDoesNotKeep() throws Exception {
    fs.mkdirs(new Path("/dec-strong"));
    UnsupportedOperationException strong = assertThrows(UnsupportedOperationException.class,
        () -> fs.checkout(new Path("/dec-strong")));
    assertTrue(strong.getMessage().startsWith("Cannot check out /dec-strong: its consistency is strong"),
        strong.getMessage());

    Path root = decoupledRoot("dec-refuse");
    write(fs, new Path(root, "f"), text("f"));
    fs.checkout(root);
    try {
      assertThrows(UnsupportedOperationException.class,
          () -> fs.setPermission(new Path(root, "f"), new org.apache.hadoop.fs.permission.FsPermission((short) 0600)));
      assertThrows(java.io.IOException.class, () -> fs.rename(new Path(root, "f"), new Path("/dec-outside")));
      assertThrows(java.io.IOException.class, () -> fs.checkout(new Path(root, "inner")));
    } finally {
      assertEquals(0, fs.discardCheckout(root));
    }
    assertEquals(Set.of("f"), names(other, root));
  }
}
