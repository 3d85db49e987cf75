package org.indexfs.server.rpc;

import io.netty.channel.Channel;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.indexfs.proto.Response;

/**
 * The replies of one connection. A reply made on the connection's I/O thread while it reads is
 * written at once and flushed with the rest of that read ({@link #flushIfWritten}); a reply made
 * anywhere else (a handler thread, the WAL syncer) is queued, and the I/O thread writes everything
 * queued in one turn with one flush — many replies per syscall under load.
 */
final class Replies {
  private final Channel channel;
  private final ConnectionBudget budget;
  private final ConcurrentLinkedQueue<Response> queued = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean drainScheduled = new AtomicBoolean();
  private final Runnable drain = this::drain;
  private boolean written;

  Replies(Channel channel, ConnectionBudget budget) {
    this.channel = channel;
    this.budget = budget;
  }

  void send(Response response) {
    budget.finished();
    if (channel.eventLoop().inEventLoop()) {
      channel.write(response, channel.voidPromise());
      written = true;
      return;
    }
    queued.add(response);
    if (drainScheduled.compareAndSet(false, true)) {
      try {
        channel.eventLoop().execute(drain);
      } catch (RejectedExecutionException closing) {
        queued.clear(); // the server is stopping; the client sees its connection close
      }
    }
  }

  /** On the I/O thread, at the end of a read: flushes what {@link #send} wrote during it. */
  void flushIfWritten() {
    if (written) {
      written = false;
      channel.flush();
    }
  }

  private void drain() {
    drainScheduled.set(false);
    for (Response r; (r = queued.poll()) != null; ) {
      channel.write(r, channel.voidPromise());
      written = true;
    }
    flushIfWritten();
  }
}
