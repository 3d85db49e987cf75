package org.indexfs.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;

/**
 * What the HDFS NameNode still sees once the namespace has moved: during a 10,000-file mixed
 * workload through indexfs:// (mkdir, create, read, list, stat, rename, chmod, append, delete,
 * recursive delete, located listing), its audit log ({@code FSNamesystem.audit}) shows only
 * object-level commands on paths under the data root: creates and appends of large files' objects,
 * opens to read them or locate their blocks, the owner, group and mode each object takes from its
 * file once recorded (and a chmod of its file: DESIGN §14), deletes when they are reclaimed, and a
 * reader's check of the object it reads (its owner, then opening it by its inode: issue 31). No
 * listing, rename, mkdir or stat of a user path reaches it, and small files never reach it at all.
 */
class NameNodeAuditTest {
  private static final String AUDIT_LOGGER = "org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit";
  private static final Pattern LINE = Pattern.compile("\\bcmd=(\\S+)\\s+src=(\\S+)\\s+dst=(\\S+)");
  private static final int FILES = 10_000;
  private static final int DIRS = 100;
  private static final int LARGE_EVERY = 20; // 500 large files (100 KiB), 9,500 small (up to 4 KiB)

  /** Collects the NameNode's audit lines: those logged by its RPC handler threads. */
  private static final class AuditCapture extends AppenderSkeleton {
    final List<String[]> events = new ArrayList<>();
    final List<String> unparsed = new ArrayList<>();
    int otherThreads;

    @Override
    protected synchronized void append(LoggingEvent event) {
      if (!event.getThreadName().startsWith("IPC Server handler")) {
        // Not the NameNode (an HDFS-format audit log of the metadata server would land here).
        otherThreads++;
        return;
      }
      String line = event.getRenderedMessage();
      Matcher m = LINE.matcher(line);
      if (m.find()) {
        events.add(new String[] {m.group(1), m.group(2), m.group(3)});
      } else {
        unparsed.add(line);
      }
    }

    @Override
    public void close() {}

    @Override
    public boolean requiresLayout() {
      return false;
    }
  }

  private static boolean large(int i) {
    return i % LARGE_EVERY == 0;
  }

  private static int size(int i) {
    return large(i) ? 100 * 1024 : 1 + (i * 37) % 4096;
  }

  private static Path file(int i) {
    return new Path(String.format("/audit/d%02d/f%05d", i % DIRS, i));
  }

  @Test
  void tenThousandFileWorkloadShowsTheNameNodeOnlyObjectLevelCommands() throws Exception {
    LocalCluster cluster = IndexFsTestCluster.get();
    String dataRoot = IndexFsTestCluster.DATA_ROOT + "/";
    while (!cluster.server().reclaimer().runOnce()) {
      // Finish earlier tests' reclamation first, so every line counted below is this workload's.
    }
    Logger audit = Logger.getLogger(AUDIT_LOGGER);
    AuditCapture capture = new AuditCapture();
    Level level = audit.getLevel();
    audit.addAppender(capture);
    audit.setLevel(Level.INFO);
    Map<String, Long> counts = new TreeMap<>();
    int expectedCreates = 0;
    int expectedAppends = 0;
    int expectedDeletes = 0;
    long t0 = System.nanoTime();
    try (FileSystem fs = FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf())) {
      ExecutorService pool = Executors.newFixedThreadPool(8);
      try {
        for (int d = 0; d < DIRS; d++) {
          assertThat(fs.mkdirs(new Path(String.format("/audit/d%02d", d)))).isTrue();
        }
        run(pool, FILES, i -> {
          try (FSDataOutputStream out = fs.create(file(i), false)) {
            out.write(TestData.bytes(i, size(i)));
          }
        });
        expectedCreates += FILES / LARGE_EVERY;
        for (int d = 0; d < DIRS; d++) {
          assertThat(fs.listStatus(new Path(String.format("/audit/d%02d", d)))).hasSize(FILES / DIRS);
        }
        run(pool, 2000, i -> assertThat(fs.getFileStatus(file(i * 5)).getLen()).isEqualTo(size(i * 5)));
        // Read every large file and 1,000 small ones.
        run(pool, FILES, i -> {
          if (large(i) || i % 10 == 1) {
            try (FSDataInputStream in = fs.open(file(i))) {
              assertThat(in.readAllBytes()).isEqualTo(TestData.bytes(i, size(i)));
            }
          }
        });
        // Locality for a directory: block locations of its large files come from their objects.
        List<LocatedFileStatus> located = DataPathAssertions.located(fs, new Path("/audit/d00"));
        assertThat(located).hasSize(FILES / DIRS);
        // Rename 1,000 files: 950 small ones and the 50 large ones with i % 200 == 0 (all of which
        // land in d50), each into another directory under a new name.
        Path[] current = new Path[FILES];
        for (int i = 0; i < FILES; i++) {
          current[i] = file(i);
        }
        List<Integer> renamed = new ArrayList<>();
        for (int i = 0; i < FILES; i++) {
          if (i % 10 == 1 && i < 9500 || i % 200 == 0) {
            renamed.add(i);
            current[i] = new Path(String.format("/audit/d%02d/moved-%05d", (i + 50) % DIRS, i));
          }
        }
        assertThat(renamed).hasSize(1000);
        run(pool, renamed.size(), k -> assertThat(fs.rename(file(renamed.get(k)), current[renamed.get(k)])).isTrue());
        run(pool, 500, k -> fs.setPermission(current[k * 20 + 2], new FsPermission((short) 0600)));
        // Append to 100 small files (they stay inline) and 100 large ones (their objects grow).
        run(pool, 200, k -> {
          int i = k < 100 ? k * 100 + 5 : (k - 100) * 100 + 20;
          try (FSDataOutputStream out = fs.append(current[i])) {
            out.write(new byte[100]);
          }
        });
        expectedAppends += 100;
        // Delete 1,050 files one by one (50 of them large), then directory d50 with 150 files
        // (the 50 large ones renamed into it).
        run(pool, 1000, k -> assertThat(fs.delete(current[k * 10 + 7], false)).isTrue());
        run(pool, 50, k -> assertThat(fs.delete(current[k * 200 + 100], false)).isTrue());
        assertThat(fs.listStatus(new Path("/audit/d50"))).hasSize(150);
        assertThat(fs.delete(new Path("/audit/d50"), true)).isTrue();
        expectedDeletes += 50 + 50;
      } finally {
        pool.shutdownNow();
      }
      long workloadMs = (System.nanoTime() - t0) / 1_000_000;
      int deletes = expectedDeletes;
      DataPathAssertions.eventually(() -> count(capture, "delete") >= deletes, "the deleted files' objects are reclaimed");
      Thread.sleep(500); // anything else in flight lands in the log before we count
      audit.removeAppender(capture);
      synchronized (capture) {
        for (String[] e : capture.events) {
          counts.merge(e[0], 1L, Long::sum);
        }
        System.out.printf("NameNode audit during %d-file workload through indexfs:// (%d ms): %s total %d;"
            + " lines from other threads: %d%n", FILES, workloadMs, counts, capture.events.size(), capture.otherThreads);
        assertThat(capture.unparsed).isEmpty();
        for (String[] e : capture.events) {
          // A reader opens an object by its inode (/.reserved/.inodes/<id>) once it checked whose it is.
          boolean byInode = (e[0].equals("getfileinfo") || e[0].equals("open"))
              && e[1].startsWith("/.reserved/.inodes/");
          assertThat(byInode || e[1].startsWith(dataRoot)).as("path of audit event %s", String.join(" ", e)).isTrue();
          assertThat(e[2]).as("destination of audit event %s", String.join(" ", e)).isEqualTo("null");
        }
      }
      assertThat(counts).doesNotContainKeys("rename", "listStatus", "mkdirs", "setTimes", "contentSummary");
      assertThat(counts.keySet()).isSubsetOf("create", "open", "append", "delete", "setPermission", "setOwner",
          "getfileinfo");
      // Each object is given its file's owner, group and mode once (setPermission also for chmods of its file).
      assertThat(counts.get("setOwner")).isEqualTo(expectedCreates);
      assertThat(counts.get("setPermission")).isGreaterThanOrEqualTo(expectedCreates);
      assertThat(counts.get("create")).as("one object per large file, none for small ones").isEqualTo(expectedCreates);
      assertThat(counts.get("append")).isEqualTo(expectedAppends);
      assertThat(counts.get("delete")).isEqualTo(expectedDeletes);
      assertThat(fs.delete(new Path("/audit"), true)).isTrue();
    } finally {
      audit.removeAppender(capture);
      audit.setLevel(level);
    }
  }

  private static long count(AuditCapture capture, String cmd) {
    synchronized (capture) {
      return capture.events.stream().filter(e -> e[0].equals(cmd)).count();
    }
  }

  interface Step {
    void run(int i) throws Exception;
  }

  private static void run(ExecutorService pool, int n, Step step) throws Exception {
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      int first = t;
      futures.add(pool.submit(() -> {
        for (int i = first; i < n; i += 8) {
          step.run(i);
        }
        return null;
      }));
    }
    for (Future<?> f : futures) {
      f.get();
    }
  }
}
