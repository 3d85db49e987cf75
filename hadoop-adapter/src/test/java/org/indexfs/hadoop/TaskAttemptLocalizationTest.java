package org.indexfs.hadoop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.common.IndexFsConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code indexfs.client.localize.task-attempts}: Hadoop's own FileOutputCommitter, driven attempt
 * by attempt as a task and its application master drive it (both algorithms), with attempts that
 * commit, abort, or vanish. The committed output is byte for byte what the same steps leave on
 * HDFS; an attempt's files cost no RPC each and are invisible to other clients until its commit;
 * an aborted or vanished attempt leaves nothing, data objects included.
 *
 * <p>Committers find the file system with {@code FileSystem.get}, so each run is done as a fresh
 * UGI (same user): its cached IndexFileSystem has this test's settings and is closed at the end.
 */
class TaskAttemptLocalizationTest {
  private static final int LARGE = 200 * 1024; // past the inline limit: a data object on HDFS

  private static FileSystem hdfs;
  private static FileSystem reader;

  @BeforeAll
  static void start() throws Exception {
    IndexFsTestCluster.get();
    hdfs = IndexFsTestCluster.hdfs().fileSystem();
    reader = FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
  }

  @AfterAll
  static void stop() throws Exception {
    reader.close();
  }

  private enum Outcome { COMMIT, ABORT, VANISH }

  /** One FileSystem user of the job: the committers and writers of a run share its cached FileSystem. */
  private record Run(UserGroupInformation ugi, Configuration conf, URI fs) {
    static Run indexfs(boolean localized, int algorithm) throws IOException {
      Configuration conf = IndexFsTestCluster.conf();
      conf.setBoolean(IndexFsConfig.CLIENT_LOCALIZE_TASK_ATTEMPTS.name(), localized);
      return of(conf, IndexFsTestCluster.uri(), algorithm);
    }

    static Run hdfs(int algorithm) throws IOException {
      return of(new Configuration(hdfs.getConf()), hdfs.getUri(), algorithm);
    }

    private static Run of(Configuration conf, URI fs, int algorithm) throws IOException {
      conf.setInt(FileOutputCommitter.FILEOUTPUTCOMMITTER_ALGORITHM_VERSION, algorithm);
      return new Run(UserGroupInformation.createRemoteUser(UserGroupInformation.getCurrentUser().getShortUserName()),
          conf, fs);
    }

    <T> T as(PrivilegedExceptionAction<T> action) throws Exception {
      return ugi.doAs(action);
    }

    FileSystem fileSystem() throws Exception {
      return as(() -> FileSystem.get(fs, conf));
    }

    void close() throws IOException {
      FileSystem.closeAllForUGI(ugi);
    }
  }

  private static TaskAttemptContext attempt(Run run, String out, int task, int attempt) {
    Configuration conf = new Configuration(run.conf());
    conf.set("mapreduce.output.fileoutputformat.outputdir", new Path(run.fs().toString() + out).toString());
    return new TaskAttemptContextImpl(conf, new TaskAttemptID("loc", 1, TaskType.REDUCE, task, attempt));
  }

  private static byte[] large(int task) {
    byte[] b = new byte[LARGE];
    new Random(task).nextBytes(b);
    return b;
  }

  /** Writes what task {@code task}'s attempt writes: a part file, one in a subdirectory, a large one; {@code extra} more. */
  private static List<Path> write(FileSystem fs, Path work, int task, int attempt, int extra) throws IOException {
    List<Path> written = new ArrayList<>();
    String text = "task " + task + " attempt " + attempt + "\n";
    for (String name : List.of("part-r-0000" + task, "sub/side-" + task)) {
      Path p = new Path(work, name);
      try (FSDataOutputStream out = fs.create(p, false)) {
        out.writeBytes(text);
      }
      written.add(p);
    }
    Path big = new Path(work, "large-" + task);
    try (FSDataOutputStream out = fs.create(big, false)) {
      out.write(large(task));
    }
    written.add(big);
    for (int i = 0; i < extra; i++) {
      Path p = new Path(work, "more-" + task + "-" + i);
      try (FSDataOutputStream out = fs.create(p, false)) {
        out.writeBytes(text + i + "\n");
      }
      written.add(p);
    }
    return written;
  }

  /** Every file under {@code dir} by relative path, with its bytes. */
  private static TreeMap<String, byte[]> tree(FileSystem fs, Path dir) throws IOException {
    TreeMap<String, byte[]> files = new TreeMap<>();
    String prefix = fs.makeQualified(dir).toUri().getPath() + "/";
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(dir, true);
    while (it.hasNext()) {
      LocatedFileStatus f = it.next();
      try (var in = fs.open(f.getPath())) {
        files.put(f.getPath().toUri().getPath().substring(prefix.length()), in.readAllBytes());
      }
    }
    return files;
  }

  /**
   * Task 0: attempt 0 writes and aborts, attempt 1 commits. Task 1 commits. Task 2: attempt 0
   * writes and vanishes, attempt 1 commits. Then the job commits (deleting {@code _temporary}).
   * Returns the data objects the aborted and vanished attempts wrote (IndexFS only).
   */
  private static List<String> scenario(Run run, String out) throws Exception {
    List<String> dropped = new ArrayList<>();
    run.as(() -> {
      FileSystem fs = FileSystem.get(run.fs(), run.conf());
      JobContext job = new JobContextImpl(attempt(run, out, 0, 0).getConfiguration(), new JobID("loc", 1));
      FileOutputCommitter jobCommitter = new FileOutputCommitter(new Path(run.fs() + out), job);
      jobCommitter.setupJob(job);
      int[][] attempts = {{0, 0}, {0, 1}, {1, 0}, {2, 0}, {2, 1}};
      Outcome[] outcomes = {Outcome.ABORT, Outcome.COMMIT, Outcome.COMMIT, Outcome.VANISH, Outcome.COMMIT};
      for (int i = 0; i < attempts.length; i++) {
        TaskAttemptContext context = attempt(run, out, attempts[i][0], attempts[i][1]);
        FileOutputCommitter committer = new FileOutputCommitter(new Path(run.fs() + out), context);
        committer.setupTask(context);
        List<Path> written = write(fs, committer.getWorkPath(), attempts[i][0], attempts[i][1], 0);
        if (fs instanceof IndexFileSystem ifs && outcomes[i] != Outcome.COMMIT) {
          dropped.add(((IndexFileStatus) ifs.getFileStatus(written.get(2))).dataObject());
        }
        switch (outcomes[i]) {
          case COMMIT -> {
            assertTrue(committer.needsTaskCommit(context));
            committer.commitTask(context);
          }
          case ABORT -> committer.abortTask(context);
          case VANISH -> { }
        }
      }
      jobCommitter.commitJob(job);
      return null;
    });
    return dropped;
  }

  @ParameterizedTest(name = "committer algorithm {0}")
  @ValueSource(ints = {1, 2})
  void committedOutputIsByteForByteWhatHdfsHoldsAndDroppedAttemptsLeaveNothing(int algorithm) throws Exception {
    String out = "/attempts-v" + algorithm + "/out";
    Run onHdfs = Run.hdfs(algorithm);
    Run onIndexfs = Run.indexfs(true, algorithm);
    try {
      scenario(onHdfs, out);
      List<String> dropped = scenario(onIndexfs, out);

      TreeMap<String, byte[]> expected = tree(hdfs, new Path(out));
      TreeMap<String, byte[]> actual = tree(reader, new Path(out));
      assertEquals(List.of("_SUCCESS", "large-0", "large-1", "large-2", "part-r-00000", "part-r-00001", "part-r-00002",
          "sub/side-0", "sub/side-1", "sub/side-2"), List.copyOf(expected.keySet()));
      assertEquals(expected.keySet(), actual.keySet());
      for (String name : expected.keySet()) {
        assertArrayEquals(expected.get(name), actual.get(name), name);
      }
      assertEquals("task 0 attempt 1\n", new String(actual.get("part-r-00000")));
      assertEquals("task 2 attempt 1\n", new String(actual.get("part-r-00002")));
      assertFalse(reader.exists(new Path(out, "_temporary")));

      // The aborted attempt's and the vanished one's (dropped with _temporary) data objects are gone.
      assertEquals(2, dropped.size());
      for (String object : dropped) {
        assertNotNull(object);
        assertFalse(hdfs.exists(TestData.objectPath(IndexFsTestCluster.get(), object)), object);
      }
      IndexFileSystem fs = (IndexFileSystem) onIndexfs.fileSystem();
      assertEquals(List.of(), fs.localizedPaths().bulk().atOrBelow("/"), "no attempt stays localized");
    } finally {
      onHdfs.close();
      onIndexfs.close();
    }
  }

  @Test
  void anAttemptsFilesAreInvisibleToOthersUntilItsCommitPublishesThem() throws Exception {
    String out = "/attempts-visibility/out";
    Run run = Run.indexfs(true, 1);
    try {
      run.as(() -> {
        FileSystem fs = FileSystem.get(run.fs(), run.conf());
        TaskAttemptContext context = attempt(run, out, 0, 0);
        FileOutputCommitter committer = new FileOutputCommitter(new Path(run.fs() + out), context);
        committer.setupJob(context);
        committer.setupTask(context);
        Path work = committer.getWorkPath();
        write(fs, work, 0, 0, 3);
        assertEquals(6, fs.listStatus(work).length, "the task sees its files");
        assertTrue(reader.exists(work), "the attempt directory itself is on the server");
        assertEquals(0, reader.listStatus(work).length, "others see none of its files before the commit");
        committer.commitTask(context);
        Path committed = committer.getCommittedTaskPath(context);
        assertEquals(6, reader.listStatus(committed).length, "the commit's rename published them");
        assertFalse(reader.exists(work));
        return null;
      });
    } finally {
      run.close();
    }
  }

  @Test
  void theSettingRefusesAClientOutsideTheFileSystemCache() {
    Configuration conf = IndexFsTestCluster.conf();
    conf.setBoolean(IndexFsConfig.CLIENT_LOCALIZE_TASK_ATTEMPTS.name(), true);
    conf.setBoolean("fs.indexfs.impl.disable.cache", true);
    IOException e = assertThrows(IOException.class, () -> FileSystem.get(IndexFsTestCluster.uri(), conf));
    assertTrue(e.getMessage().contains("fs.indexfs.impl.disable.cache"), e.getMessage());
  }

  /** Calls one task attempt costs, from setupTask through commitTask, writing 3 + {@code extra} files. */
  private static long taskRpcs(Run run, String out, int task, int extra) throws Exception {
    return run.as(() -> {
      FileSystem fs = FileSystem.get(run.fs(), run.conf());
      TaskAttemptContext context = attempt(run, out, task, 0);
      FileOutputCommitter committer = new FileOutputCommitter(new Path(run.fs() + out), context);
      long before = calls(fs);
      committer.setupTask(context);
      write(fs, committer.getWorkPath(), task, 0, extra);
      if (committer.needsTaskCommit(context)) {
        committer.commitTask(context);
      }
      return calls(fs) - before;
    });
  }

  /**
   * Calls sent: RPCs less the re-sends of a call routed to the wrong slot first ({@code resolve.*},
   * which depend on what the client's cache held, not on the task).
   */
  private static long calls(FileSystem fs) {
    var stats = fs.getStorageStatistics();
    return stats.getLong("rpc") - stats.getLong("resolve.elsewhere") - stats.getLong("resolve.stale");
  }

  @Test
  void aTaskCostsAConstantNumberOfRpcsWithLocalizedAttemptsAndOnePerFileWithout() throws Exception {
    long[] strong = rpcsFor1And50Files(false, 1);
    long[] localized = rpcsFor1And50Files(true, 1);
    System.out.printf("RPCs per task attempt (FileOutputCommitter v1), 4 vs 53 files: strong %s, localized %s%n",
        Arrays.toString(strong), Arrays.toString(localized));
    assertTrue(strong[1] - strong[0] >= 49, "strong: at least one RPC per file " + Arrays.toString(strong));
    assertEquals(localized[0], localized[1], "localized: the same RPCs whatever the number of files");
    assertTrue(localized[1] < strong[0], "localized costs less than strong even for a few files");
  }

  /**
   * Algorithm 2's commitTask moves every file into the output itself (a stat and a rename each, as
   * on HDFS): there the setting takes the writing's two calls per file (create, complete) away.
   */
  @Test
  void withAlgorithmTwoTheWritingIsFreeAndTheCommitMovesEachFileAsOnHdfs() throws Exception {
    long[] strong = rpcsFor1And50Files(false, 2);
    long[] localized = rpcsFor1And50Files(true, 2);
    System.out.printf("RPCs per task attempt (FileOutputCommitter v2), 4 vs 53 files: strong %s, localized %s%n",
        Arrays.toString(strong), Arrays.toString(localized));
    long strongPerFile = strong[1] - strong[0];
    long localizedPerFile = localized[1] - localized[0];
    assertTrue(strongPerFile - localizedPerFile >= 2 * 49, "two calls fewer per file: strong +" + strongPerFile
        + ", localized +" + localizedPerFile);
  }

  private static long[] rpcsFor1And50Files(boolean localized, int algorithm) throws Exception {
    String out = "/attempts-rpcs-" + localized + "-v" + algorithm + "/out";
    Run run = Run.indexfs(localized, algorithm);
    try {
      run.as(() -> {
        JobContext job = new JobContextImpl(attempt(run, out, 0, 0).getConfiguration(), new JobID("loc", 1));
        new FileOutputCommitter(new Path(run.fs() + out), job).setupJob(job);
        return null;
      });
      taskRpcs(run, out, 9, 0); // warms the client's caches, as a task's earlier work would
      return new long[] {taskRpcs(run, out, 0, 1), taskRpcs(run, out, 1, 50)};
    } finally {
      run.close();
    }
  }
}
