package org.indexfs.bench.jmh;

/** {@code bin/indexfs bench jmh [JMH options]}: runs the hot-path micro-benchmarks (defaults to all). */
public final class JmhMain {
  private JmhMain() {}

  public static void main(String[] args) throws Exception {
    String[] jmhArgs = args.length == 0 ? new String[] {HotPathBenchmarks.class.getName()} : args;
    org.openjdk.jmh.Main.main(jmhArgs);
  }
}
