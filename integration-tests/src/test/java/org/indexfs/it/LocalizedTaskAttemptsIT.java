package org.indexfs.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.it.JobCluster.Target;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MapReduce jobs, unchanged, with {@code indexfs.client.localize.task-attempts=true}: every task
 * attempt directory is a localized subtree. The output is byte for byte what the same job writes
 * on {@code hdfs://}, and a task's RPCs (setupTask through commitTask, committer algorithm 1) stay
 * the same whether it writes 2 files or 51, where without the setting each file costs two (create,
 * complete).
 * Each job runs as a {@link FreshClient}, so its tasks get a client with its settings.
 */
class LocalizedTaskAttemptsIT {
  private static final String BASE = "/localized-attempts";

  @BeforeAll
  static void writeInputs() throws Exception {
    for (Target target : Target.values()) {
      try (FileSystem fs = SharedJobCluster.fileSystem(target)) {
        // Two inputs of different sizes: two map tasks, assigned in the same order on both file systems.
        write(fs, BASE + "/in/a.txt", "alpha", 300);
        write(fs, BASE + "/in/b.txt", "beta", 100);
      }
    }
  }

  private static void write(FileSystem fs, String path, String word, int lines) throws IOException {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < lines; i++) {
      b.append(word).append(' ').append(i).append(' ').append(word.repeat(i % 7)).append('\n');
    }
    try (FSDataOutputStream out = fs.create(new Path(path))) {
      out.write(b.toString().getBytes(StandardCharsets.UTF_8));
    }
  }

  private static Configuration conf(Target target, boolean localized, int algorithm) throws IOException {
    Configuration conf = MapReduceJobs.localRunner(SharedJobCluster.get().clientConf(target),
        SharedJobCluster.newWorkDir("mr-localized"), algorithm);
    conf.setBoolean(IndexFsConfig.CLIENT_LOCALIZE_TASK_ATTEMPTS.name(), localized);
    return conf;
  }

  /** Every file under {@code dir} by relative path, with its bytes. */
  private static TreeMap<String, byte[]> tree(Target target, String dir) throws IOException {
    TreeMap<String, byte[]> files = new TreeMap<>();
    try (FileSystem fs = SharedJobCluster.fileSystem(target)) {
      String prefix = fs.makeQualified(new Path(dir)).toUri().getPath() + "/";
      RemoteIterator<LocatedFileStatus> it = fs.listFiles(new Path(dir), true);
      while (it.hasNext()) {
        LocatedFileStatus f = it.next();
        try (var in = fs.open(f.getPath())) {
          files.put(f.getPath().toUri().getPath().substring(prefix.length()), in.readAllBytes());
        }
      }
      OutputTree.assertCommitted(fs, new Path(dir));
    }
    return files;
  }

  private static void assertSameTree(TreeMap<String, byte[]> expected, TreeMap<String, byte[]> actual) {
    assertEquals(expected.keySet(), actual.keySet());
    for (Map.Entry<String, byte[]> e : expected.entrySet()) {
      assertArrayEquals(e.getValue(), actual.get(e.getKey()), e.getKey());
    }
  }

  @ParameterizedTest(name = "committer algorithm {0}")
  @ValueSource(ints = {1, 2})
  void wordCountAndAManyFilesJobWriteWhatTheyWriteOnHdfs(int algorithm) throws Exception {
    String base = BASE + "/v" + algorithm;
    for (Target target : Target.values()) {
      Configuration conf = conf(target, target == Target.INDEXFS, algorithm);
      FreshClient.run(() -> {
        MapReduceJobs.wordCount(conf, BASE + "/in", base + "/wordcount");
        ManyFilesJob.run(conf, BASE + "/in", base + "/many", 20);
        return null;
      });
    }
    for (String job : List.of("wordcount", "many")) {
      TreeMap<String, byte[]> onHdfs = tree(Target.HDFS, base + "/" + job);
      assertFalse(onHdfs.isEmpty());
      assertSameTree(onHdfs, tree(Target.INDEXFS, base + "/" + job));
    }
    assertEquals(1 + 2 + 2 * 20, tree(Target.INDEXFS, base + "/many").size(), "_SUCCESS, 2 parts, 20 side files per task");
  }

  @Test
  void aTaskCostsTheSameRpcsForTwoFilesOrFiftyOneWithLocalizedAttemptsAndTwoPerFileWithout() throws Exception {
    Map<String, Long> strongOne = taskCalls(false, 1);
    Map<String, Long> strongFifty = taskCalls(false, 50);
    Map<String, Long> localizedOne = taskCalls(true, 1);
    Map<String, Long> localizedFifty = taskCalls(true, 50);
    System.out.printf("calls per map task (setupTask..commitTask, algorithm 1): strong 2 files %s, 51 files %s; "
        + "localized 2 files %s, 51 files %s%n", strongOne, strongFifty, localizedOne, localizedFifty);
    assertEquals(2, strongOne.size());
    for (String task : strongOne.keySet()) {
      assertTrue(strongFifty.get(task) - strongOne.get(task) >= 49, "strong: at least one RPC per file, " + task);
      assertEquals(localizedOne.get(task), localizedFifty.get(task), "localized: a constant per task, " + task);
      // The constant (localize, publish, the commit's stats and rename: ~10) beats strong's one
      // create and one complete per file from a handful of files on.
      assertTrue(localizedFifty.get(task) < strongFifty.get(task) / 5, "localized: a fraction at 51 files, " + task);
    }
  }

  /** Per map task (by task id, attempt suffix dropped), the calls of the many-files job on indexfs://. */
  private static Map<String, Long> taskCalls(boolean localized, int files) throws Exception {
    String out = BASE + "/calls-" + localized + "-" + files;
    Configuration conf = conf(Target.INDEXFS, localized, 1);
    FreshClient.run(() -> {
      ManyFilesJob.run(conf, BASE + "/in", out, files);
      return null;
    });
    Map<String, Long> byTask = new TreeMap<>();
    ManyFilesJob.TASK_CALLS.forEach((attempt, calls) -> byTask.put(taskOf(attempt), calls));
    return byTask;
  }

  /** {@code attempt_<job>_m_000001_0} → {@code m_000001}: the same task in another run of the job. */
  private static String taskOf(String attempt) {
    int m = attempt.indexOf("_m_");
    return attempt.substring(m + 1, attempt.lastIndexOf('_'));
  }
}
