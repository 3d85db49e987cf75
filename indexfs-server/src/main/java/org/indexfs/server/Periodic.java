package org.indexfs.server;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A background pass repeated every {@code intervalMs} on its own daemon thread (lease checks,
 * orphan scrubbing). A failed pass is logged and retried at the next interval; {@link #close}
 * stops the thread and waits for a running pass to end.
 */
public final class Periodic implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Periodic.class);

  /** One pass of the work. */
  @FunctionalInterface
  public interface Pass {
    void run() throws IOException;
  }

  private final String name;
  private final long intervalMs;
  private final boolean passFirst;
  private final Pass pass;
  private final Thread thread;
  private volatile boolean running = true;

  /** {@code passFirst}: run a pass at once on start, rather than after the first interval. */
  public Periodic(String name, long intervalMs, boolean passFirst, Pass pass) {
    this.name = name;
    this.intervalMs = intervalMs;
    this.passFirst = passFirst;
    this.pass = pass;
    this.thread = new Thread(this::loop, name);
    thread.setDaemon(true);
  }

  public void start() {
    thread.start();
  }

  private void loop() {
    boolean due = passFirst;
    while (running) {
      if (due) {
        try {
          pass.run();
        } catch (IOException | RuntimeException e) {
          LOG.warn("{}: pass failed; will retry in {} ms", name, intervalMs, e);
        }
      }
      synchronized (this) {
        if (!running) {
          return;
        }
        try {
          wait(intervalMs);
        } catch (InterruptedException e) {
          return;
        }
      }
      due = true;
    }
  }

  @Override
  public void close() {
    running = false;
    synchronized (this) {
      notifyAll();
    }
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
