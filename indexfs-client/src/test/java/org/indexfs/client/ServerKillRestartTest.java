package org.indexfs.client;

import org.indexfs.common.IndexFsConfig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.FileType;
import org.indexfs.server.local.EmbeddedZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Restart safety: with {@code indexfs.wal.sync=true}, every mutation whose call returned survives
 * a SIGKILL of the server process, and a client re-discovers the restarted server through
 * ZooKeeper on its own. The server runs as a separate JVM so the kill is a real one: no shutdown
 * hook, no RocksDB close.
 */
class ServerKillRestartTest {
  private static final String CLUSTER = "kill-restart";
  private static final int WRITERS = 4;
  /** Entries (directories, or files created and closed) to see returned before the kill. */
  private static final int ENTRIES_BEFORE_KILL = 3000;
  private static final int SIGKILL_EXIT_STATUS = 128 + 9;

  /** One entry whose call returned successfully. */
  private record Written(String path, FileType type) {}

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void everyReturnedWriteSurvivesSigkillAndTheClientFindsTheRestartedServer() throws Exception {
    Path work = TestData.newDir("kill-restart");
    try (EmbeddedZooKeeper zk = new EmbeddedZooKeeper(work.resolve("zookeeper").toFile(), 0)) {
      Map<String, String> conf = new LinkedHashMap<>();
      conf.put("indexfs.server.dir", work.resolve("slot-0").toString());
      conf.put("indexfs.zookeeper.quorum", zk.connectString());
      conf.put(IndexFsConfig.SECURITY_ZOOKEEPER_DIGEST.name(), TestData.SERVERS_DIGEST);
      conf.put("indexfs.cluster.name", CLUSTER);
      conf.put("indexfs.wal.sync", "true");
      conf.put("indexfs.server.port", "0");
      // The restarted server waits for the killed one's slot lease, i.e. its ZooKeeper session.
      conf.put("indexfs.zookeeper.session-timeout-ms", "2000");
      conf.put("indexfs.data.uri", work.resolve("data").toUri().toString());
      Path log = work.resolve("server.log");

      Queue<Written> written = new ConcurrentLinkedQueue<>();
      Queue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
      AtomicBoolean killed = new AtomicBoolean();
      // Writers give up soon after the kill (riding through is RideThroughTest's subject); the
      // first call after the restart still finds the new process by itself.
      try (IndexFsClient client = TestData.client(zk.connectString(), CLUSTER, 1_000)) {
        ServerProcess server = ServerProcess.start(conf, log);
        try {
          List<Thread> writers = new ArrayList<>();
          for (int w = 0; w < WRITERS; w++) {
            String dir = "/w" + w;
            Thread t = new Thread(() -> write(client, dir, written, killed, unexpected), "writer-" + w);
            writers.add(t);
            t.start();
          }

          long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
          while (written.size() < ENTRIES_BEFORE_KILL && unexpected.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5);
          }
          assertTrue(unexpected.isEmpty(), () -> "a write failed before the kill: " + unexpected.peek());
          assertTrue(written.size() >= ENTRIES_BEFORE_KILL, "only " + written.size() + " writes in 2 minutes");
          for (Thread t : writers) {
            assertTrue(t.isAlive(), t.getName() + " stopped writing before the kill");
          }
          killed.set(true);
          int status = server.kill();
          assertEquals(SIGKILL_EXIT_STATUS, status, "the server must die by SIGKILL, not shut down");
          for (Thread t : writers) {
            t.join(60_000);
            assertFalse(t.isAlive(), t.getName() + " still writing to a dead server");
          }
        } finally {
          server.close();
        }
        assertTrue(unexpected.isEmpty(), () -> "a write failed before the kill: " + unexpected.peek());
        int returned = written.size();

        try (ServerProcess restarted = ServerProcess.start(conf, log)) {
          // The very first call goes through the connection the kill broke: the client must
          // notice, look the slot up in ZooKeeper again, and reach the new process.
          FileStatus root = client.getFileStatus("/");
          assertEquals(FileType.DIRECTORY, root.getType());

          long maxInode = root.getInodeId();
          Set<String> missing = new HashSet<>();
          for (Written e : written) {
            FileStatus s;
            try {
              s = client.getFileStatus(e.path());
            } catch (IOException notThere) {
              missing.add(e.path() + " (" + notThere.getMessage() + ")");
              continue;
            }
            assertEquals(e.type(), s.getType(), e.path());
            if (e.type() == FileType.FILE) {
              assertFalse(s.getUnderConstruction(), e.path() + " was closed before the kill");
            }
            maxInode = Math.max(maxInode, s.getInodeId());
          }
          assertTrue(missing.isEmpty(), missing.size() + " of " + returned + " returned writes lost, e.g. "
              + missing.stream().limit(5).toList());

          Set<String> listed = new HashSet<>();
          for (FileStatus top : client.listAll("/")) {
            listed.add("/" + top.getName());
            for (FileStatus child : client.listAll("/" + top.getName())) {
              listed.add("/" + top.getName() + "/" + child.getName());
            }
          }
          for (Written e : written) {
            assertTrue(listed.contains(e.path()), e.path() + " is not listed");
          }

          // Still writable, and inode ids are never handed out twice after a crash.
          FileStatus fresh = client.create("/after-restart", 0644, false, 1, 1 << 20, false);
          assertTrue(fresh.getInodeId() > maxInode, "inode id " + fresh.getInodeId() + " reused");
          assertTrue(client.mkdirs("/after-restart-dir/sub", 0755));
        }
      }
    }
  }

  /**
   * Writes directories and closed empty files under {@code dir} until a call fails, recording
   * each entry whose call returned. A failure before the kill is a test failure.
   */
  private static void write(IndexFsClient client, String dir, Queue<Written> written, AtomicBoolean killed,
      Queue<Throwable> unexpected) {
    try {
      client.mkdirs(dir, 0755);
      written.add(new Written(dir, FileType.DIRECTORY));
      for (int i = 0; ; i++) {
        String path = dir + "/e" + i;
        if (i % 2 == 0) {
          client.mkdirs(path, 0755);
          written.add(new Written(path, FileType.DIRECTORY));
        } else {
          FileStatus created = client.create(path, 0644, false, 1, 1 << 20, false);
          client.complete(path, created.getInodeId(), 0, new byte[0], null);
          written.add(new Written(path, FileType.FILE));
        }
      }
    } catch (IOException | RuntimeException e) {
      if (!killed.get()) {
        unexpected.add(e);
      }
    }
  }
}
