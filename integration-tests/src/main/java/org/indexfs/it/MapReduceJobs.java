package org.indexfs.it;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.WordCount;
import org.apache.hadoop.examples.terasort.TeraChecksum;
import org.apache.hadoop.examples.terasort.TeraGen;
import org.apache.hadoop.examples.terasort.TeraSort;
import org.apache.hadoop.examples.terasort.TeraValidate;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The stock jobs of {@code hadoop-mapreduce-examples}, run by MapReduce's local job runner on
 * whatever {@code fs.defaultFS} the configuration names: nothing else differs between an
 * {@code indexfs://} run and an {@code hdfs://} run. Staging, the job jar, TeraSort's partition file
 * (through the distributed cache) and every task's output go through the default file system.
 */
public final class MapReduceJobs {
  private MapReduceJobs() {}

  /**
   * A client configuration for the local job runner: {@code fsConf} (fs.defaultFS and what the file
   * system needs), the given FileOutputCommitter algorithm, two map and two reduce slots, small sort
   * buffers and fast completion polling. {@code localDir} holds only what MapReduce keeps on local
   * disk (spills, the localized distributed cache).
   */
  public static Configuration localRunner(Map<String, String> fsConf, Path localDir, int committerAlgorithm) {
    Configuration conf = new Configuration();
    fsConf.forEach(conf::set);
    conf.set("mapreduce.framework.name", "local");
    conf.set("mapreduce.cluster.local.dir", localDir.resolve("mapred-local").toString());
    conf.set("mapreduce.jobtracker.staging.root.dir", "/tmp/staging");
    conf.setInt("mapreduce.fileoutputcommitter.algorithm.version", committerAlgorithm);
    conf.setInt("mapreduce.local.map.tasks.maximum", 2);
    conf.setInt("mapreduce.local.reduce.tasks.maximum", 2);
    conf.setInt("mapreduce.job.maps", 2);
    conf.setInt("mapreduce.job.reduces", 2);
    conf.setInt("mapreduce.task.io.sort.mb", 16);
    // The client polls for completion every 5 s by default, which would swamp jobs this small.
    conf.setInt("mapreduce.client.completion.pollinterval", 50);
    conf.setInt("mapreduce.client.progressmonitor.pollinterval", 50);
    return conf;
  }

  /** {@code wordcount in out}, set up exactly as the example's own main does. */
  public static void wordCount(Configuration conf, String in, String out) throws Exception {
    Job job = Job.getInstance(new Configuration(conf), "word count");
    job.setJarByClass(WordCount.class);
    job.setMapperClass(WordCount.TokenizerMapper.class);
    job.setCombinerClass(WordCount.IntSumReducer.class);
    job.setReducerClass(WordCount.IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path(in));
    FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(out));
    if (!job.waitForCompletion(false)) {
      throw new IOException("wordcount " + in + " " + out + " failed: " + job.getStatus().getFailureInfo());
    }
  }

  /** {@code teragen rows out}. */
  public static void teraGen(Configuration conf, long rows, String out) throws Exception {
    run(conf, new TeraGen(), "teragen", String.valueOf(rows), out);
  }

  /** {@code terasort in out}. */
  public static void teraSort(Configuration conf, String in, String out) throws Exception {
    run(conf, new TeraSort(), "terasort", in, out);
  }

  /** {@code teravalidate in report}: the report holds a checksum line, and an error line per problem found. */
  public static void teraValidate(Configuration conf, String in, String report) throws Exception {
    run(conf, new TeraValidate(), "teravalidate", in, report);
  }

  /** {@code terasum in out} (TeraChecksum): the order-independent checksum of every row, to compare with teravalidate's. */
  public static void teraChecksum(Configuration conf, String in, String out) throws Exception {
    run(conf, new TeraChecksum(), "terasum", in, out);
  }

  private static void run(Configuration conf, Tool tool, String name, String... args) throws Exception {
    int rc = ToolRunner.run(new Configuration(conf), tool, args);
    if (rc != 0) {
      throw new IOException(name + " " + String.join(" ", args) + " exited with " + rc);
    }
  }
}
