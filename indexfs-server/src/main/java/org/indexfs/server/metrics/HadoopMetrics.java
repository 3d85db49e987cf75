package org.indexfs.server.metrics;

import java.io.IOException;
import java.io.Writer;
import org.apache.hadoop.metrics2.MetricsException;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.sink.PrometheusMetricsSink;
import org.apache.hadoop.metrics2.source.JvmMetrics;

/**
 * The process's Hadoop metrics2 system, shared by every server in it, as Hadoop daemons share
 * theirs: initialized with prefix {@code indexfs}, so {@code hadoop-metrics2-indexfs.properties}
 * (or {@code hadoop-metrics2.properties}) on the classpath configures sinks. Holds the one
 * {@link PrometheusMetricsSink} behind every server's {@code /prom}, registered as HttpServer2
 * registers it when {@code hadoop.prometheus.endpoint.enabled} is set, and the JVM's own metrics.
 */
public final class HadoopMetrics {
  public static final String PREFIX = "indexfs";
  private static final PrometheusMetricsSink PROMETHEUS = new PrometheusMetricsSink();
  private static int users;
  private static boolean sinkRegistered;

  private HadoopMetrics() {}

  /** Registers {@code source} under a name unique in this process; returns that name. */
  static synchronized String register(String name, String description, MetricsSource source) {
    // Reference counted inside Hadoop: every initialize is matched by the shutdown in unregister.
    MetricsSystem system = DefaultMetricsSystem.initialize(PREFIX);
    users++;
    if (!sinkRegistered) {
      // Once per process: a restarted metrics system registers its known sinks again by itself.
      system.register("prometheus", "IndexFS /prom endpoint", PROMETHEUS);
      JvmMetrics.initSingleton("IndexFsServer", null);
      sinkRegistered = true;
    }
    // Two clusters of the same name in one process (tests) take the next free suffix.
    for (int instance = 0; ; instance++) {
      String unique = instance == 0 ? name : name + "-" + instance;
      try {
        system.register(unique, description, source);
        return unique;
      } catch (MetricsException taken) {
        if (instance >= 100) {
          users--;
          DefaultMetricsSystem.shutdown();
          throw taken;
        }
      }
    }
  }

  static synchronized void unregister(String name) {
    DefaultMetricsSystem.instance().unregisterSource(name);
    users--;
    DefaultMetricsSystem.shutdown();
  }

  /**
   * Writes every metric of this process in Prometheus' text format, freshly collected, as
   * Hadoop's {@code PrometheusServlet} does.
   */
  public static void writePrometheus(Writer out) throws IOException {
    DefaultMetricsSystem.instance().publishMetricsNow();
    PROMETHEUS.writeMetrics(out);
  }
}
