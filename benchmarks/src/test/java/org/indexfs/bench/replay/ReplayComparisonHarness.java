package org.indexfs.bench.replay;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.indexfs.server.local.LocalCluster;

/**
 * The {@code bin/indexfs replay --generate N --target indexfs://… --compare hdfs://…} comparison
 * on one machine, with both systems started in this JVM: an embedded IndexFS cluster and a stock
 * HDFS MiniDFSCluster ({@code bin/indexfs local --hdfs} gives the same pair as a separate process,
 * which is what the README's numbers use). Not a test: benchmarks are run, not asserted. From the
 * repository root:
 *
 * <pre>
 * mvn -B -o -q package -DskipTests -pl benchmarks -am dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/test-cp.txt
 * java -Xmx2g -cp benchmarks/target/test-classes:benchmarks/target/classes:$(cat benchmarks/target/test-cp.txt) \
 *     org.indexfs.bench.replay.ReplayComparisonHarness 20000 [more replay options]
 * </pre>
 */
public final class ReplayComparisonHarness {
  private ReplayComparisonHarness() {}

  public static void main(String[] args) throws Exception {
    System.setProperty("java.awt.headless", "true");
    long lines = args.length > 0 ? Long.parseLong(args[0].replace("_", "")) : 20_000;
    Path work = Files.createDirectories(Path.of("target", "replay-comparison"));
    Path indexfsDir = Files.createTempDirectory(work, "indexfs-");
    MiniHdfs hdfs = new MiniHdfs("hdfs");
    try (LocalCluster indexfs = ServerIdentities.with(LocalCluster.builder(indexfsDir)).start()) {
      Path conf = indexfs.writeClientConf(indexfsDir.resolve("conf"));
      List<String> cli = new ArrayList<>(List.of("--generate", String.valueOf(lines),
          "--target", indexfs.defaultFs(), "--compare", hdfs.uri() + "/",
          "--conf", conf.toString(), "-D", "dfs.replication=1", "--out", work.resolve("report-" + lines).toString()));
      for (int i = 1; i < args.length; i++) {
        cli.add(args[i]);
      }
      ReplayMain.run(ReplayOptions.parse(cli.toArray(new String[0])));
    } finally {
      hdfs.close();
    }
  }
}
