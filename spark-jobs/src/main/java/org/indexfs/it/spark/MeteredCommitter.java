package org.indexfs.it.spark;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageStatistics;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;

/**
 * The stock FileOutputCommitter (what Spark's HadoopMapReduceCommitProtocol uses), reading the
 * output file system's RPC counter around each task attempt: the client calls from setupTask
 * through commitTask land in {@link #TASK_CALLS}. Set with {@code spark.sql.sources.outputCommitterClass};
 * only meaningful when one task runs at a time (the metered jobs write with one task).
 */
public final class MeteredCommitter extends FileOutputCommitter {
  /** Calls per committed task attempt, by attempt id. */
  static final Map<String, Long> TASK_CALLS = new ConcurrentHashMap<>();
  private static final Map<String, Long> STARTS = new ConcurrentHashMap<>();

  private final Path output;

  public MeteredCommitter(Path output, TaskAttemptContext context) throws IOException {
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

  /** RPCs less re-sends of calls first routed to the wrong slot (those depend on the cache, not the task); 0 off indexfs. */
  private long calls(TaskAttemptContext context) throws IOException {
    FileSystem fs = output.getFileSystem(context.getConfiguration());
    StorageStatistics stats = fs.getStorageStatistics();
    if (!"indexfs".equals(fs.getScheme())) {
      return 0;
    }
    return stats.getLong("rpc") - stats.getLong("resolve.elsewhere") - stats.getLong("resolve.stale");
  }
}
