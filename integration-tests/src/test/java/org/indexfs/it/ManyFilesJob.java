package org.indexfs.it;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.MultipleOutputs;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/**
 * A map-only job whose every task writes {@code it.files.per.task} files through MultipleOutputs
 * (in a subdirectory) beside its part file, with the stock FileOutputCommitter. Its output format
 * only meters the committer: each task attempt's client calls from {@code setupTask} through
 * {@code commitTask} are recorded ({@link #TASK_CALLS}); committing is the stock code's.
 */
final class ManyFilesJob {
  static final String FILES_PER_TASK = "it.files.per.task";
  /** Calls per committed task attempt of the last job run (tasks run one at a time, so they do not mix). */
  static final Map<String, Long> TASK_CALLS = new ConcurrentHashMap<>();

  private ManyFilesJob() {}

  static void run(Configuration base, String in, String out, int filesPerTask) throws Exception {
    Configuration conf = new Configuration(base);
    conf.setInt(FILES_PER_TASK, filesPerTask);
    conf.setInt("mapreduce.local.map.tasks.maximum", 1);
    TASK_CALLS.clear();
    Job job = Job.getInstance(conf, "many files");
    job.setJarByClass(ManyFilesJob.class);
    job.setMapperClass(Writer.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(NullWritable.class);
    job.setOutputValueClass(Text.class);
    job.setOutputFormatClass(MeteredOutputFormat.class);
    FileInputFormat.addInputPath(job, new Path(in));
    FileOutputFormat.setOutputPath(job, new Path(out));
    if (!job.waitForCompletion(false)) {
      throw new IOException("many-files job " + in + " " + out + " failed: " + job.getStatus().getFailureInfo());
    }
  }

  /** Copies its lines to its part file, then writes the side files, each naming the task's first line. */
  public static final class Writer extends Mapper<LongWritable, Text, NullWritable, Text> {
    private MultipleOutputs<NullWritable, Text> side;
    private String first;

    @Override
    protected void setup(Context context) {
      side = new MultipleOutputs<>(context);
    }

    @Override
    protected void map(LongWritable key, Text value, Context context) throws IOException, InterruptedException {
      if (first == null) {
        first = value.toString();
      }
      context.write(NullWritable.get(), value);
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      int files = context.getConfiguration().getInt(FILES_PER_TASK, 1);
      for (int i = 0; i < files; i++) {
        side.write(NullWritable.get(), new Text(first + " / side file " + i), "side/f" + i);
      }
      side.close();
    }
  }

  /** TextOutputFormat with a metered FileOutputCommitter. */
  public static final class MeteredOutputFormat extends TextOutputFormat<NullWritable, Text> {
    private MeteredCommitter committer;

    @Override
    public synchronized OutputCommitter getOutputCommitter(TaskAttemptContext context) throws IOException {
      if (committer == null) {
        committer = new MeteredCommitter(getOutputPath(context), context);
      }
      return committer;
    }
  }

  /** The stock committer; setupTask and commitTask read the client's call counter around the task. */
  static final class MeteredCommitter extends FileOutputCommitter {
    private static final Map<String, Long> STARTS = new ConcurrentHashMap<>();
    private final Path output;

    MeteredCommitter(Path output, TaskAttemptContext context) throws IOException {
      super(output, context);
      this.output = output;
    }

    @Override
    public void setupTask(TaskAttemptContext context) throws IOException {
      STARTS.put(context.getTaskAttemptID().toString(), calls(context));
      super.setupTask(context);
    }

    @Override
    public void commitTask(TaskAttemptContext context) throws IOException {
      super.commitTask(context);
      Long start = STARTS.remove(context.getTaskAttemptID().toString());
      if (start != null) {
        TASK_CALLS.put(context.getTaskAttemptID().toString(), calls(context) - start);
      }
    }

    /** RPCs less re-sends of calls first routed to the wrong slot (they depend on the cache, not the task). */
    private long calls(TaskAttemptContext context) throws IOException {
      FileSystem fs = output.getFileSystem(context.getConfiguration());
      var stats = fs.getStorageStatistics();
      Long rpc = stats.getLong("rpc");
      if (rpc == null) {
        return 0; // not indexfs://
      }
      return rpc - stats.getLong("resolve.elsewhere") - stats.getLong("resolve.stale");
    }
  }
}
