package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.rpc.RpcConnection;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The retry cache (DESIGN §11): an at-most-once call sent again with the same call id — as the
 * client does when an answer was lost to a failover or a broken connection — gets its first answer,
 * not a second execution; the answers outlive a restart (they are in the slot's store); and a call
 * whose change was written but whose answer was not (the server stopped in between) is answered
 * from the namespace, or runs again when the namespace shows it did not take effect.
 */
class RetryCacheTest {
  @TempDir
  static Path workDir;
  static LocalCluster cluster;
  static IndexFsClient client;

  @BeforeAll
  static void start() throws IOException {
    cluster = LocalCluster.builder(workDir).clusterName("retries").servers(3)
        .set(IndexFsConfig.HOME_SYNC_INTERVAL_MS.name(), "200").start();
    client = Slots.client(cluster, TestData.USER, List.of());
  }

  @AfterAll
  static void stop() {
    client.close();
    cluster.close();
  }

  @AfterEach
  void noHook() {
    FaultPoints.install(null);
  }

  private interface Call<T> {
    T run() throws IOException;
  }

  /** Runs {@code call} as the try of call {@code id} (the first try, or a retry of it). */
  private static <T> T as(long id, Call<T> call) throws IOException {
    client.reuseCallId(id);
    return call.run();
  }

  @Test
  void aRetriedCreateGetsItsFirstAnswerInsteadOfAlreadyExists() throws Exception {
    client.mkdirs("/c", 0755);
    long id = RpcConnection.newCallId();
    FileStatus first = as(id, () -> client.create("/c/f", 0644, false, 1, 1 << 20, false));
    FileStatus retried = as(id, () -> client.create("/c/f", 0644, false, 1, 1 << 20, false));
    assertEquals(first, retried);
    IndexFsException another = assertThrows(IndexFsException.class,
        () -> client.create("/c/f", 0644, false, 1, 1 << 20, false));
    assertEquals(Code.ALREADY_BEING_CREATED, another.code(), "a new call is not a retry: " + another.getMessage());
  }

  @Test
  void retriedDeletesRenamesAndMkdirsAreAppliedOnce() throws Exception {
    client.mkdirs("/r", 0755);
    TestData.createClosed(client, "/r/a");
    long delete = RpcConnection.newCallId();
    assertTrue(as(delete, () -> client.delete("/r/a", false)));
    TestData.createClosed(client, "/r/a");
    assertTrue(as(delete, () -> client.delete("/r/a", false)), "the retry answers true, as the first try did");
    client.getFileStatus("/r/a"); // ... and did not delete the new file

    long rename = RpcConnection.newCallId();
    assertTrue(as(rename, () -> client.rename("/r/a", "/r/b")));
    assertTrue(as(rename, () -> client.rename("/r/a", "/r/b")), "a second execution would answer false");
    client.getFileStatus("/r/b");
  }

  @Test
  void aRetriedCrossSlotRenameIsAppliedOnce() throws Exception {
    FileStatus s = Slots.dirNotOn(client, "/", "xs", -1);
    FileStatus d = Slots.dirNotOn(client, "/", "xd", s.getZerothSlot());
    String src = "/" + s.getName() + "/f";
    String dst = "/" + d.getName() + "/f";
    TestData.createClosed(client, src);
    long rename = RpcConnection.newCallId();
    assertTrue(as(rename, () -> client.rename(src, dst)));
    TestData.createClosed(client, src);
    assertTrue(as(rename, () -> client.rename(src, dst)), "answered from the cache");
    client.getFileStatus(src); // the new file stayed where it was
    client.getFileStatus(dst);
  }

  @Test
  void refusalsAreAnsweredAgainToo() throws Exception {
    client.mkdirs("/e", 0755);
    TestData.createClosed(client, "/e/f");
    long id = RpcConnection.newCallId();
    IndexFsException first = assertThrows(IndexFsException.class,
        () -> as(id, () -> client.create("/e/f", 0644, false, 1, 1 << 20, false)));
    assertEquals(Code.FILE_ALREADY_EXISTS, first.code());
    client.delete("/e/f", false);
    IndexFsException retried = assertThrows(IndexFsException.class,
        () -> as(id, () -> client.create("/e/f", 0644, false, 1, 1 << 20, false)));
    assertEquals(first.getMessage(), retried.getMessage());
  }

  @Test
  void answersOutliveARestartOfTheServer() throws Exception {
    client.mkdirs("/k", 0755);
    int slot = client.getFileStatus("/k").getZerothSlot();
    long id = RpcConnection.newCallId();
    FileStatus first = as(id, () -> client.create("/k/f", 0644, false, 1, 1 << 20, false));
    cluster.restartServer(slot);
    FileStatus retried = as(id, () -> client.create("/k/f", 0644, false, 1, 1 << 20, false));
    assertEquals(first.getInodeId(), retried.getInodeId());
  }

  @Test
  void aCallWhoseAnswerWasLostIsAnsweredFromTheNamespace() throws Exception {
    client.mkdirs("/l", 0755);
    long create = RpcConnection.newCallId();
    stopAfterApplying();
    IndexFsException lost = assertThrows(IndexFsException.class,
        () -> as(create, () -> client.create("/l/f", 0644, false, 1, 1 << 20, false)));
    assertEquals(Code.INTERNAL_ERROR, lost.code(), lost.getMessage());
    FaultPoints.install(null);
    FileStatus written = client.getFileStatus("/l/f");
    FileStatus retried = as(create, () -> client.create("/l/f", 0644, false, 1, 1 << 20, false));
    assertEquals(written.getInodeId(), retried.getInodeId(), "the file the first try created, not a new one");
    assertTrue(retried.getUnderConstruction());
    // The writer must still be able to outgrow the inline limit: the object name reserved for it.
    assertFalse(retried.getSpillObject().isEmpty(), "the retried create's answer names the reserved spill object");

    long mkdir = RpcConnection.newCallId();
    stopAfterApplying();
    assertThrows(IndexFsException.class, () -> as(mkdir, () -> client.mkdirs("/l/d", 0755)));
    FaultPoints.install(null);
    assertTrue(as(mkdir, () -> client.mkdirs("/l/d", 0755)));

    long delete = RpcConnection.newCallId();
    stopAfterApplying();
    assertThrows(IndexFsException.class, () -> as(delete, () -> client.delete("/l/d", false)));
    FaultPoints.install(null);
    assertTrue(as(delete, () -> client.delete("/l/d", false)));
    assertFalse(client.listAll("/l").stream().anyMatch(st -> st.getName().equals("d")));
  }

  /** The next at-most-once call stops after its change is written, before its answer is recorded. */
  private static void stopAfterApplying() {
    FaultPoints.install(p -> {
      if (p.equals("call.applied")) {
        throw new IllegalStateException("injected stop after the change, before the answer");
      }
    });
  }
}
