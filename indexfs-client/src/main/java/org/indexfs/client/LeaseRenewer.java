package org.indexfs.client;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one client's write leases alive while it has files open for writing, like HDFS
 * DFSClient's {@code LeaseRenewer}: a daemon thread, started with the first open stream, renews
 * every half soft limit until the client closes. A client that stops renewing (it died, or
 * {@link #stop} was called) loses its files to the next writer after the soft limit and to the
 * server's recovery after the hard limit.
 */
public final class LeaseRenewer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseRenewer.class);

  private final IndexFsClient client;
  private final long intervalMs;
  private Thread thread;
  private int openStreams;
  private boolean stopped;

  public LeaseRenewer(IndexFsClient client, long softLimitMs) {
    this.client = client;
    // A server that does not say (0) gets HDFS's 60 s soft limit assumed.
    this.intervalMs = Math.max(10, (softLimitMs > 0 ? softLimitMs : 60_000) / 2);
  }

  /** A stream of this client opened a file for writing. */
  public synchronized void opened() {
    openStreams++;
    if (thread == null && !stopped) {
      thread = new Thread(this::run, "indexfs-lease-renewer-" + client.caller().getClientId());
      thread.setDaemon(true);
      thread.start();
    }
  }

  /** A stream closed (or failed) its file. */
  public synchronized void closed() {
    openStreams = Math.max(0, openStreams - 1);
  }

  private void run() {
    while (true) {
      synchronized (this) {
        try {
          wait(intervalMs);
        } catch (InterruptedException e) {
          return;
        }
        if (stopped) {
          return;
        }
        if (openStreams == 0) {
          continue;
        }
      }
      try {
        client.renewLease();
      } catch (IOException e) {
        LOG.warn("Could not renew the write leases of client {}: {}", client.caller().getClientId(), e.toString());
      }
    }
  }

  /** Stops renewing, leaving open files to lease expiry; as if this client had died. */
  public void stop() {
    Thread t;
    synchronized (this) {
      stopped = true;
      notifyAll();
      t = thread;
    }
    if (t != null) {
      try {
        t.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public void close() {
    stop();
  }
}
