package org.indexfs.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.it.JobCluster.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Job commit is where rename and listing semantics bite. The stock FileOutputCommitter is driven
 * through the protocol an application master follows, with task attempts that fail, die or
 * lose to a retry; the output on {@code indexfs://} must be exactly what the same steps leave on
 * {@code hdfs://} (file names and contents), and hold only committed attempts' data — also with
 * {@code indexfs.client.localize.task-attempts}, where every attempt directory is a localized
 * subtree that its commit publishes and its abort (or the job's cleanup) drops.
 */
class TaskAttemptCommitIT {

  /** indexfs:// with or without {@code indexfs.client.localize.task-attempts}, beside hdfs:// without. */
  private static final String RUNS = "1,false\n2,false\n1,true\n2,true";

  /** With localized task attempts the indexfs run gets a client of its own ({@link FreshClient}). */
  private static <T> T onIndexfs(boolean localized, java.security.PrivilegedExceptionAction<T> run) throws Exception {
    return localized ? FreshClient.run(run) : run.run();
  }

  private static String dir(int algorithm, boolean localized, String name) {
    return "/commit-v" + algorithm + (localized ? "-localized/" : "/") + name;
  }

  @ParameterizedTest(name = "committer algorithm {0}, localized task attempts {1}")
  @CsvSource(textBlock = RUNS)
  void onlyCommittedAttemptsReachTheOutputAsOnHdfs(int algorithm, boolean localized) throws Exception {
    String dir = dir(algorithm, localized, "ok");
    TreeMap<String, String> onIndexfs = onIndexfs(localized, () -> commitScenario(Target.INDEXFS, algorithm, localized, dir));
    TreeMap<String, String> onHdfs = commitScenario(Target.HDFS, algorithm, false, dir);

    assertEquals(Map.of(
        "_SUCCESS", "",
        "part-r-00000", "task\t0 attempt 1\n",
        "part-r-00001", "task\t1 attempt 0\n",
        "part-r-00002", "task\t2 attempt 1\n"), onIndexfs);
    assertEquals(onHdfs, onIndexfs);
  }

  @ParameterizedTest(name = "committer algorithm {0}, localized task attempts {1}")
  @CsvSource(textBlock = RUNS)
  void anAbortedJobLeavesNoSuccessMarkerAsOnHdfs(int algorithm, boolean localized) throws Exception {
    String dir = dir(algorithm, localized, "aborted");
    TreeMap<String, String> onIndexfs = onIndexfs(localized, () -> abortScenario(Target.INDEXFS, algorithm, localized, dir));
    TreeMap<String, String> onHdfs = abortScenario(Target.HDFS, algorithm, false, dir);

    assertFalse(onIndexfs.containsKey("_SUCCESS"), onIndexfs.toString());
    assertFalse(onIndexfs.keySet().stream().anyMatch(k -> k.startsWith("_temporary")), onIndexfs.toString());
    // Algorithm 1 publishes task output only at job commit; 2 at task commit, so a committed task's
    // part file outlives the failed job (on HDFS too: that is the algorithm's documented trade).
    assertEquals(algorithm == 1 ? Map.of() : Map.of("part-r-00000", "task\t0 attempt 0\n"), onIndexfs);
    assertEquals(onHdfs, onIndexfs);
  }

  @ParameterizedTest(name = "committer algorithm {0}, localized task attempts {1}")
  @CsvSource(textBlock = RUNS)
  void aJobWhoseMapperFailsCommitsNothingAsOnHdfs(int algorithm, boolean localized) throws Exception {
    String dir = dir(algorithm, localized, "failing");
    TreeMap<String, String> onIndexfs = onIndexfs(localized, () -> failingJob(Target.INDEXFS, algorithm, localized, dir));
    TreeMap<String, String> onHdfs = failingJob(Target.HDFS, algorithm, false, dir);

    assertEquals(Map.of(), onIndexfs, "no _SUCCESS, no _temporary, no part file");
    assertEquals(onHdfs, onIndexfs);
  }

  /**
   * Task 0: attempt 0 writes and fails (aborted), attempt 1 commits. Task 1: attempt 0 commits.
   * Task 2: attempt 0 writes and is never heard of again (neither committed nor aborted), attempt 1
   * commits. Then the job commits.
   */
  private static TreeMap<String, String> commitScenario(Target target, int algorithm, boolean localized, String dir)
      throws Exception {
    Configuration conf = conf(target, algorithm, localized, dir);
    JobContext job = new JobContextImpl(conf, new JobID("it", 1));
    OutputCommitter jobCommitter = new TextOutputFormat<Text, Text>().getOutputCommitter(attempt(conf, 0, 0));
    jobCommitter.setupJob(job);

    runAttempt(conf, 0, 0, Outcome.ABORT);
    runAttempt(conf, 0, 1, Outcome.COMMIT);
    runAttempt(conf, 1, 0, Outcome.COMMIT);
    runAttempt(conf, 2, 0, Outcome.VANISH);
    runAttempt(conf, 2, 1, Outcome.COMMIT);
    jobCommitter.commitJob(job);

    try (FileSystem fs = SharedJobCluster.fileSystem(target)) {
      OutputTree.assertCommitted(fs, new Path(dir));
      return OutputTree.read(fs, new Path(dir));
    }
  }

  /** Task 0 commits, task 1's only attempt fails, and the job is aborted as failed. */
  private static TreeMap<String, String> abortScenario(Target target, int algorithm, boolean localized, String dir)
      throws Exception {
    Configuration conf = conf(target, algorithm, localized, dir);
    JobContext job = new JobContextImpl(conf, new JobID("it", 2));
    OutputCommitter jobCommitter = new TextOutputFormat<Text, Text>().getOutputCommitter(attempt(conf, 0, 0));
    jobCommitter.setupJob(job);

    runAttempt(conf, 0, 0, Outcome.COMMIT);
    runAttempt(conf, 1, 0, Outcome.ABORT);
    jobCommitter.abortJob(job, JobStatus.State.FAILED);

    try (FileSystem fs = SharedJobCluster.fileSystem(target)) {
      return OutputTree.read(fs, new Path(dir));
    }
  }

  /** A real job on the local runner whose mapper throws on its input: the runner fails and aborts it. */
  private static TreeMap<String, String> failingJob(Target target, int algorithm, boolean localized, String dir)
      throws Exception {
    Configuration conf = MapReduceJobs.localRunner(SharedJobCluster.get().clientConf(target),
        SharedJobCluster.newWorkDir("mr-local"), algorithm);
    conf.setBoolean(IndexFsConfig.CLIENT_LOCALIZE_TASK_ATTEMPTS.name(), localized);
    try (FileSystem fs = SharedJobCluster.fileSystem(target)) {
      try (var out = fs.create(new Path(dir + "-in/input.txt"))) {
        out.writeBytes("one line\n");
      }
      Job job = Job.getInstance(conf, "failing");
      job.setMapperClass(FailingMapper.class);
      job.setOutputKeyClass(LongWritable.class);
      job.setOutputValueClass(Text.class);
      FileInputFormat.addInputPath(job, new Path(dir + "-in"));
      FileOutputFormat.setOutputPath(job, new Path(dir));
      assertFalse(job.waitForCompletion(false), "the job fails");
      assertTrue(fs.getFileStatus(new Path(dir)).isDirectory(), "setupJob made the output directory");
      return OutputTree.read(fs, new Path(dir));
    }
  }

  private enum Outcome { COMMIT, ABORT, VANISH }

  /** One task attempt as a task JVM runs it: write through the output format, then commit or abort. */
  private static void runAttempt(Configuration conf, int task, int attempt, Outcome outcome)
      throws IOException, InterruptedException {
    TaskAttemptContext context = attempt(conf, task, attempt);
    TextOutputFormat<Text, Text> format = new TextOutputFormat<>();
    OutputCommitter committer = format.getOutputCommitter(context);
    committer.setupTask(context);
    RecordWriter<Text, Text> writer = format.getRecordWriter(context);
    writer.write(new Text("task"), new Text(task + " attempt " + attempt));
    writer.close(context);
    switch (outcome) {
      case COMMIT -> {
        assertTrue(committer.needsTaskCommit(context));
        committer.commitTask(context);
      }
      case ABORT -> committer.abortTask(context);
      case VANISH -> { }
    }
  }

  private static TaskAttemptContext attempt(Configuration conf, int task, int attempt) {
    return new TaskAttemptContextImpl(conf, new TaskAttemptID("it", 1, TaskType.REDUCE, task, attempt));
  }

  private static Configuration conf(Target target, int algorithm, boolean localized, String dir) {
    Configuration conf = new Configuration();
    SharedJobCluster.get().clientConf(target).forEach(conf::set);
    conf.setBoolean(IndexFsConfig.CLIENT_LOCALIZE_TASK_ATTEMPTS.name(), localized);
    conf.setInt("mapreduce.fileoutputcommitter.algorithm.version", algorithm);
    conf.set(FileOutputFormat.OUTDIR, dir);
    return conf;
  }

  /** Fails every map task. */
  public static final class FailingMapper extends Mapper<LongWritable, Text, LongWritable, Text> {
    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException {
      throw new IOException("this task attempt fails on purpose");
    }
  }
}
