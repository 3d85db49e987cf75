package org.indexfs.bench;

import java.util.Arrays;
import org.indexfs.bench.mdtest.CompareMain;
import org.indexfs.bench.mdtest.KvMain;
import org.indexfs.bench.scale.ScaleMain;

/** {@code bin/indexfs bench <compare|scale|cluster|kv|jmh> ...}. */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) throws Exception {
    String[] rest = args.length > 0 ? Arrays.copyOfRange(args, 1, args.length) : new String[0];
    switch (args.length > 0 ? args[0] : "") {
      case "compare" -> CompareMain.main(rest);
      case "kv" -> KvMain.main(rest);
      case "mdtest" -> org.indexfs.bench.mdtest.MdtestMain.main(rest);
      case "scale" -> ScaleMain.main(rest);
      case "cluster" -> org.indexfs.bench.cluster.ClusterMain.main(rest);
      case "jmh" -> org.indexfs.bench.jmh.JmhMain.main(rest);
      case "bulk" -> org.indexfs.bench.bulk.BulkMain.main(rest);
      case "snapshot" -> org.indexfs.bench.snapshot.SnapshotMain.main(rest);
      case "blob" -> org.indexfs.bench.bulk.BlobMain.main(rest);
      case "namenode-heap" -> org.indexfs.bench.bulk.NameNodeHeapMain.main(rest);
      case "policies" -> org.indexfs.bench.policy.PoliciesMain.main(rest);
      default -> {
        System.err.println("Usage: indexfs bench compare [options]   IndexFS vs HDFS NameNode, side by side\n"
            + "       indexfs bench scale [options]                the same workload on 1, 2, 4, 8 slots; load balance on 8-128\n"
            + "       indexfs bench cluster [options]              an emulated cluster of small machines: IndexFS on N slots\n"
            + "                                                    vs the NameNode on 1 and N slices (root)\n"
            + "       indexfs bench kv [--threads T] [--keys N]   raw RocksDB for the operations of a create and a stat\n"
            + "       indexfs bench jmh [JMH options]              micro-benchmarks of codecs, GIGA+ math, framing\n"
            + "       indexfs bench mdtest --target URI --phase P   one mdtest phase from this process only (profiling)\n"
            + "       " + org.indexfs.bench.bulk.BulkMain.USAGE + "\n"
            + "       " + org.indexfs.bench.snapshot.SnapshotMain.USAGE + "\n"
            + "       " + org.indexfs.bench.policy.PoliciesMain.USAGE + "\n\n"
            + CompareMain.USAGE + "\n" + ScaleMain.USAGE);
        System.exit(args.length == 0 || args[0].equals("--help") ? 0 : 2);
      }
    }
  }
}
