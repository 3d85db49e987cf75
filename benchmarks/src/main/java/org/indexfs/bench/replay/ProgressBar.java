package org.indexfs.bench.replay;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A one-line terminal progress bar ({@code \r}-redrawn twice a second) for a phase of known
 * size: done / total, rate, and time left.
 */
public final class ProgressBar implements AutoCloseable {
  private static final int WIDTH = 30;

  private final PrintStream out;
  private final String label;
  private final long total;
  private final LongSupplier done;
  private final long startNanos = System.nanoTime();
  private final Thread painter;
  private volatile boolean running = true;
  private int lastLength;

  ProgressBar(PrintStream out, String label, long total, LongSupplier done) {
    this.out = out;
    this.label = label;
    this.total = total;
    this.done = done;
    painter = new Thread(this::paintLoop, "progress-bar");
    painter.setDaemon(true);
    painter.start();
  }

  /** A bar on stderr, or (not enabled) one that prints nothing. */
  public static ProgressBar open(boolean enabled, String label, long total, LongSupplier done) {
    return enabled ? new ProgressBar(System.err, label, total, done) : new ProgressBar(null, label, total, done);
  }

  private void paintLoop() {
    while (running) {
      paint(false);
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  static String line(String label, long done, long total, double seconds) {
    double fraction = total > 0 ? Math.min(1.0, (double) done / total) : 0;
    int filled = (int) Math.round(fraction * WIDTH);
    double rate = seconds > 0 ? done / seconds : 0;
    String eta = rate > 0 && total > done ? String.format(Locale.ROOT, "%ds left", (long) ((total - done) / rate)) : "";
    return String.format(Locale.ROOT, "%-18s [%s%s] %3d%% %,d/%,d  %,.0f/s  %s", label,
        "#".repeat(filled), ".".repeat(WIDTH - filled), (int) (fraction * 100), done, total, rate, eta);
  }

  private synchronized void paint(boolean last) {
    if (out == null) {
      return;
    }
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    String text = line(label, done.getAsLong(), total, seconds);
    // Blank out what a longer previous line left behind.
    String pad = " ".repeat(Math.max(0, lastLength - text.length()));
    lastLength = text.length();
    out.print("\r" + text + pad + (last ? "\n" : ""));
    out.flush();
  }

  @Override
  public void close() {
    running = false;
    painter.interrupt();
    try {
      painter.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    paint(true);
  }
}
