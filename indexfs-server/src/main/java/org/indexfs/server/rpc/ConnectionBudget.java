package org.indexfs.server.rpc;

import io.netty.channel.Channel;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Back-pressure for one connection (DESIGN §14): at most {@code limit} calls in flight, and no
 * more reading while its replies pile up unsent. A connection over either stops being read — its
 * own client waits, TCP pushes back on it — instead of the server refusing everyone with
 * SERVER_BUSY. Reading resumes when half the calls are answered and the replies drain.
 */
final class ConnectionBudget {
  private final Channel channel;
  private final int limit;
  private final AtomicInteger inFlight = new AtomicInteger();
  private volatile boolean paused;

  ConnectionBudget(Channel channel, int limit) {
    this.channel = channel;
    this.limit = limit;
  }

  /** A call read from this connection was dispatched. */
  void started() {
    if (inFlight.incrementAndGet() >= limit) {
      pause();
    }
  }

  /** One of its replies was written (any thread). */
  void finished() {
    if (inFlight.decrementAndGet() <= limit / 2 && paused && channel.isWritable()) {
      resume();
    }
  }

  /** The connection's outbound buffer crossed a water mark (on its I/O thread). */
  void writabilityChanged() {
    if (!channel.isWritable()) {
      pause();
    } else if (paused && inFlight.get() <= limit / 2) {
      resume();
    }
  }

  int inFlight() {
    return inFlight.get();
  }

  private void pause() {
    paused = true;
    channel.config().setAutoRead(false);
  }

  private void resume() {
    paused = false;
    channel.config().setAutoRead(true);
  }
}
