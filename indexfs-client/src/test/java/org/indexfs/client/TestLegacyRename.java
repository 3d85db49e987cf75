package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code FileSystem.rename} rules of RenameOp (HDFS FSDirRenameOp, legacy mode) against a real
 * embedded cluster: refusals answer false and change nothing; an existing directory destination
 * means "move into it"; a directory moves with its whole subtree in one batch.
 */
class TestLegacyRename {
  @TempDir
  static Path workDir;
  private static LocalCluster cluster;
  private static IndexFsClient client;
  private String dir;

  @BeforeAll
  static void startCluster() throws IOException {
    cluster = LocalCluster.builder(workDir).start();
    ClusterConnection connection = ClusterConnection.acquire(cluster.zookeeperConnect(), cluster.clusterName(),
        IndexFsConfig.RPC_MAX_FRAME_BYTES.defaultValue(), 30_000);
    // The process user is the server's superuser: these tests are about rename rules, not access.
    client = new IndexFsClient(connection,
        IndexFsClient.caller(System.getProperty("user.name"), List.of(), UUID.randomUUID().toString()),
        IndexFsConfig.RPC_TIMEOUT_MS.defaultValue());
  }

  @AfterAll
  static void stopCluster() {
    if (client != null) {
      client.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @BeforeEach
  void makeTestDirectory(TestInfo test) throws IOException {
    dir = "/" + test.getTestMethod().orElseThrow().getName();
    assertTrue(client.mkdirs(dir, 0755));
  }

  private String path(String relative) {
    return dir + "/" + relative;
  }

  private long file(String relative) throws IOException {
    FileStatus created = client.create(path(relative), 0644, false, 1, 1 << 20, true);
    client.complete(path(relative), created.getInodeId(), 0, new byte[0], null);
    return created.getInodeId();
  }

  private long mkdirs(String relative) throws IOException {
    assertTrue(client.mkdirs(path(relative), 0755));
    return id(relative);
  }

  private long id(String relative) throws IOException {
    return client.getFileStatus(path(relative)).getInodeId();
  }

  private boolean exists(String relative) throws IOException {
    try {
      client.getFileStatus(path(relative));
      return true;
    } catch (IndexFsException e) {
      if (e.code() == Code.FILE_NOT_FOUND) {
        return false;
      }
      throw e;
    }
  }

  private boolean rename(String src, String dst) throws IOException {
    return client.rename(path(src), path(dst));
  }

  @Test
  void missingSourceAnswersFalse() throws IOException {
    mkdirs("dst");
    assertFalse(rename("ghost", "dst/ghost"));
    assertFalse(exists("dst/ghost"));
  }

  @Test
  void existingDestinationFileAnswersFalseAndKeepsBoth() throws IOException {
    long src = file("src");
    long dst = file("dst");
    assertFalse(rename("src", "dst"));
    assertEquals(src, id("src"));
    assertEquals(dst, id("dst"));
  }

  @Test
  void missingDestinationParentAnswersFalse() throws IOException {
    long src = file("src");
    assertFalse(rename("src", "nowhere/dst"));
    assertFalse(exists("nowhere"));
    assertEquals(src, id("src"));
  }

  @Test
  void destinationUnderTheSourceAnswersFalse() throws IOException {
    long b = mkdirs("a/b");
    assertFalse(rename("a", "a/b/c"));
    assertFalse(rename("a", "a/b"), "into a/b means a/b/a, which is below a");
    assertEquals(b, id("a/b"));
    assertFalse(exists("a/b/c"));
    assertFalse(exists("a/b/a"));
  }

  @Test
  void renamingTheRootAnswersFalse() throws IOException {
    long before = client.getFileStatus("/").getInodeId();
    assertFalse(client.rename("/", path("root")));
    assertFalse(exists("root"));
    assertEquals(before, client.getFileStatus("/").getInodeId());
  }

  @Test
  void existingDirectoryDestinationMeansMoveIntoIt() throws IOException {
    long f = file("f");
    long sub = mkdirs("d/sub");
    mkdirs("target");
    assertTrue(rename("f", "target"));
    assertTrue(rename("d", "target"));
    assertEquals(f, id("target/f"));
    assertEquals(sub, id("target/d/sub"));
    assertFalse(exists("f"));
    assertFalse(exists("d"));
  }

  @Test
  void fileOntoItselfAnswersTrueAndChangesNothing() throws IOException {
    long f = file("d/f");
    assertTrue(rename("d/f", "d/f"));
    // Onto its own directory means onto itself as well.
    assertTrue(rename("d/f", "d"));
    assertEquals(f, id("d/f"));
  }

  @Test
  void directoryOntoItselfAnswersFalse() throws IOException {
    // The destination exists and is a directory, so it means d/d: below the source.
    long d = mkdirs("d");
    assertFalse(rename("d", "d"));
    assertEquals(d, id("d"));
    assertFalse(exists("d/d"));
  }

  @Test
  void directoryRenameMovesItsWholeSubtreeInOneStep() throws IOException {
    long y = mkdirs("old/x/y");
    long leaf = file("old/x/y/leaf");
    long sibling = file("old/sibling");
    long mutationsBefore = cluster.server().namespace().mutationCount();

    assertTrue(rename("old", "new"));

    assertEquals(1, cluster.server().namespace().mutationCount() - mutationsBefore,
        "the whole subtree moves in one batch");
    assertEquals(y, id("new/x/y"));
    assertEquals(leaf, id("new/x/y/leaf"));
    assertEquals(sibling, id("new/sibling"));
    for (String gone : new String[] {"old", "old/x", "old/x/y", "old/x/y/leaf", "old/sibling"}) {
      assertFalse(exists(gone), gone);
    }
    assertEquals(List.of("new"), client.listAll(dir).stream().map(FileStatus::getName).toList());
  }
}
