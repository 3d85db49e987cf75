package org.indexfs.server.metrics;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Values (microseconds, sizes) recorded by many threads, read as the distribution of the last
 * completed window. Recording is wait-free (HdrHistogram's {@link Recorder}), so the request path
 * pays no lock; {@link #roll} closes the current window. Every reader (metrics2 sinks, /prom, the
 * status page) sees the same window, however often it asks.
 */
public final class LatencyWindow {
  private final Recorder recorder = new Recorder(3);
  private volatile Histogram last = new Histogram(3);

  public void record(long value) {
    recorder.recordValue(Math.max(0, value));
  }

  /** Ends the current window: from now on readers see what was recorded in it. */
  public void roll() {
    last = recorder.getIntervalHistogram();
  }

  /** The last completed window. */
  public Histogram last() {
    return last;
  }

  /** The {@code percentile} (0-100) of the last window; 0 when it recorded nothing. */
  public long percentile(double percentile) {
    Histogram h = last;
    return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile);
  }
}
