package org.indexfs.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.indexfs.it.JobCluster.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The stock MapReduce examples on {@code fs.defaultFS=indexfs://}, with the default
 * FileOutputCommitter in both of its algorithms: the outputs are right, and committed as HDFS
 * commits them ({@code _SUCCESS}, nothing left in {@code _temporary}).
 */
class MapReduceJobsIT {
  private static final long TERA_ROWS = 20_000;
  private static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
      "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon"};

  private static Configuration jobConf(int algorithm) throws Exception {
    return MapReduceJobs.localRunner(SharedJobCluster.get().clientConf(Target.INDEXFS),
        SharedJobCluster.newWorkDir("mr-local"), algorithm);
  }

  @ParameterizedTest(name = "committer algorithm {0}")
  @ValueSource(ints = {1, 2})
  void wordCountCountsEveryWordOfInlineAndObjectFiles(int algorithm) throws Exception {
    String base = "/mr-v" + algorithm + "/wordcount";
    Map<String, Integer> expected = new TreeMap<>();
    try (FileSystem fs = SharedJobCluster.fileSystem(Target.INDEXFS)) {
      // One file past the 64 KiB inline limit (an HDFS object), one small enough to stay inline.
      writeWords(fs, base + "/in/large.txt", 30_000, 1, expected);
      writeWords(fs, base + "/in/small.txt", 200, 2, expected);

      MapReduceJobs.wordCount(jobConf(algorithm), base + "/in", base + "/out");

      Path out = new Path(base + "/out");
      OutputTree.assertCommitted(fs, out);
      Map<String, Integer> counted = new TreeMap<>();
      for (String line : OutputTree.partLines(fs, out)) {
        String[] kv = line.split("\t");
        assertEquals(null, counted.put(kv[0], Integer.parseInt(kv[1])), "each word in one reducer's output: " + kv[0]);
      }
      assertEquals(expected, counted);
      assertEquals(List.of("_SUCCESS", "part-r-00000", "part-r-00001"), List.copyOf(OutputTree.read(fs, out).keySet()));
    }
  }

  @ParameterizedTest(name = "committer algorithm {0}")
  @ValueSource(ints = {1, 2})
  void teraGenSortValidatePasses(int algorithm) throws Exception {
    String base = "/mr-v" + algorithm + "/tera";
    Configuration conf = jobConf(algorithm);
    MapReduceJobs.teraGen(conf, TERA_ROWS, base + "/gen");
    MapReduceJobs.teraSort(conf, base + "/gen", base + "/sorted");
    MapReduceJobs.teraValidate(conf, base + "/sorted", base + "/validate");
    MapReduceJobs.teraChecksum(conf, base + "/gen", base + "/gen-sum");

    try (FileSystem fs = SharedJobCluster.fileSystem(Target.INDEXFS)) {
      for (String dir : List.of("gen", "sorted", "validate", "gen-sum")) {
        OutputTree.assertCommitted(fs, new Path(base + "/" + dir));
      }
      assertEquals(TERA_ROWS * 100, fs.getContentSummary(new Path(base + "/gen")).getLength());
      FileStatus[] parts = fs.listStatus(new Path(base + "/sorted"),
          p -> p.getName().startsWith("part-"));
      assertEquals(2, parts.length, "one part per reducer");
      assertEquals(TERA_ROWS * 100, Arrays.stream(parts).mapToLong(FileStatus::getLen).sum());

      // teravalidate writes one "error" record per problem and, last, the checksum of all rows.
      List<String> report = OutputTree.partLines(fs, new Path(base + "/validate"));
      List<String> errors = report.stream().filter(l -> !l.startsWith("checksum\t")).collect(Collectors.toList());
      assertEquals(List.of(), errors, "teravalidate found no problems");
      assertEquals(1, report.size(), "one checksum line: " + report);
      // The sorted rows are exactly the generated rows: same order-independent checksum.
      List<String> generated = OutputTree.partLines(fs, new Path(base + "/gen-sum"));
      assertEquals(1, generated.size(), generated.toString());
      // terasum writes the bare checksum (a null key), teravalidate "checksum<TAB>" and the same value.
      assertFalse(generated.get(0).isBlank());
      assertEquals("checksum\t" + generated.get(0), report.get(0), "checksum of sorted rows = of generated rows");
    }
  }

  private static void writeWords(FileSystem fs, String path, int words, long seed, Map<String, Integer> counts)
      throws Exception {
    Random random = new Random(seed);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < words; i++) {
      String w = WORDS[random.nextInt(WORDS.length)];
      counts.merge(w, 1, Integer::sum);
      text.append(w).append(i % 12 == 11 ? '\n' : ' ');
    }
    try (FSDataOutputStream out = fs.create(new Path(path))) {
      out.write(text.toString().getBytes(StandardCharsets.UTF_8));
    }
  }
}
