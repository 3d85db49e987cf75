package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.server.IndexFsServer;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A full disk under a slot's RocksDB (a size-limited tmpfs mounted where the slot keeps it; the
 * test needs root, as CI has): below {@code indexfs.store.reserved-bytes} calls that grow the store
 * answer NO_SPACE with a clear message while deletes go on; with no byte left RocksDB refuses its
 * writes too, still as NO_SPACE; once space is freed writing resumes by itself, in the same server,
 * and nothing acknowledged is lost.
 */
class FullDiskTest {
  private static final long RESERVE = 40L << 20;

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void aFullDiskRefusesGrowthKeepsDeletesAndResumesByItselfOnceSpaceIsBack() throws Exception {
    Path work = TestData.newDir("full-disk");
    Path slotDir = work.resolve("slot-0");
    Files.createDirectories(slotDir);
    mount(slotDir, "128m");
    try {
      try (LocalCluster cluster = LocalCluster.builder(work).clusterName("full")
          .set(IndexFsConfig.STORE_RESERVED_BYTES.name(), String.valueOf(RESERVE)).start();
           IndexFsClient client = Slots.client(cluster, TestData.USER, List.of())) {
        IndexFsServer server = cluster.server(0);
        client.mkdirs("/d", 0755);
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
          TestData.createClosed(client, "/d/f" + i);
          kept.add("/d/f" + i);
        }

        // Below the reserve: growth refused, deletes accepted.
        Path filler = slotDir.resolve("filler-low");
        fill(filler, Files.getFileStore(slotDir).getUsableSpace() - RESERVE / 2);
        Thread.sleep(200); // the server reads the free space at most every 100 ms
        IndexFsException create = assertThrows(IndexFsException.class, () -> client.create("/d/new", 0644, false, 1,
            1 << 20, false));
        assertEquals(Code.NO_SPACE, create.code(), create.getMessage());
        assertTrue(create.getMessage().startsWith("Cannot create file /d/new: IndexFS slot 0 is low on metadata space ("),
            create.getMessage());
        assertTrue(create.getMessage().contains("reserved by indexfs.store.reserved-bytes). Deletes are still accepted;"
            + " writes resume by themselves once space is freed."), create.getMessage());
        IndexFsException mkdir = assertThrows(IndexFsException.class, () -> client.mkdirs("/e", 0755));
        assertEquals(Code.NO_SPACE, mkdir.code());
        assertTrue(client.delete("/d/f0", false), "a delete goes on while space is low");
        kept.remove("/d/f0");

        // Not one byte left: RocksDB itself cannot write, and says so as NO_SPACE. (It gets space back
        // when a flush truncates the WAL it preallocated, so deletes may go on a while: fill again.)
        List<Path> fillers = new ArrayList<>(List.of(filler));
        IndexFsException refused = null;
        for (int round = 1; round < 20 && refused == null; round++) {
          Path full = slotDir.resolve("filler-full-" + round);
          fill(full, Long.MAX_VALUE);
          fillers.add(full);
          try {
            assertTrue(client.delete("/d/f" + round, false));
            kept.remove("/d/f" + round);
            server.namespace().store().flush();
          } catch (IndexFsException e) {
            refused = e;
          }
        }
        assertTrue(refused != null && refused.code() == Code.NO_SPACE, "a full disk must end in NO_SPACE: " + refused);
        IndexFsException again = assertThrows(IndexFsException.class, () -> client.delete("/d/f40", false));
        assertEquals(Code.NO_SPACE, again.code(), "RocksDB refuses every write until space is back: " + again);

        // Space is back: the same server writes again by itself.
        for (Path f : fillers) {
          Files.delete(f);
        }
        long freed = System.nanoTime();
        while (true) {
          try {
            TestData.createClosed(client, "/d/after");
            break;
          } catch (IndexFsException e) {
            assertEquals(Code.NO_SPACE, e.code(), e.getMessage());
            assertTrue(System.nanoTime() - freed < TimeUnit.SECONDS.toNanos(60), "writes did not resume: " + e);
            Thread.sleep(200);
          }
        }
        System.out.printf("Full disk: writes resumed %.1f s after space was freed%n", (System.nanoTime() - freed) / 1e9);
        assertSame(server, cluster.server(0), "no restart");
        assertTrue(client.mkdirs("/e", 0755));
        for (String p : kept) {
          client.getFileStatus(p);
        }
        assertEquals(kept.size() + 1, client.listAll("/d").size(), "exactly the acknowledged creates and deletes");
      }
    } finally {
      run("umount", slotDir.toString());
    }
  }

  /** Writes zeros to {@code file} until {@code bytes} are written or the disk is full. */
  private static void fill(Path file, long bytes) throws IOException {
    byte[] chunk = new byte[1 << 16];
    long written = 0;
    try (OutputStream out = Files.newOutputStream(file)) {
      while (written < bytes) {
        int n = (int) Math.min(chunk.length, bytes - written);
        out.write(chunk, 0, n);
        written += n;
      }
    } catch (IOException diskFull) {
      if (bytes != Long.MAX_VALUE) {
        throw diskFull;
      }
    }
  }

  private static void mount(Path dir, String size) throws Exception {
    run("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString());
  }

  private static void run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0) {
      throw new AssertionError(String.join(" ", command) + " failed (this test needs root to mount a tmpfs): " + out);
    }
  }
}
