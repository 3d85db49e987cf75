package org.indexfs.server;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.journal.Standby;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One slot's server through its life (DESIGN §11): it serves the slot (or first stands by for it);
 * when it hands the slot over, or finds on its return that another server took it over meanwhile,
 * it stops and stays on as a standby of the slot — with a journal to follow. Without one, a
 * superseded server has nothing to follow: the runner reports exit status
 * {@link IndexFsServer#EXIT_SUPERSEDED}, so a supervisor can start it afresh.
 */
public final class SlotRunner implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SlotRunner.class);

  /** What the runner tells its owner. */
  public interface Events {
    /** The server follows the slot's journal as a standby. */
    default void standing(Standby standby) {}

    /** The server serves the slot. */
    default void serving(IndexFsServer server) {}

    /** The runner stopped for good; a process would exit with {@code status}. */
    default void stopped(int status) {}
  }

  private final Map<String, String> conf;
  private final Events events;
  private final Thread thread;
  private final CompletableFuture<Void> started = new CompletableFuture<>();
  private volatile IndexFsServer current;
  private volatile Standby standing;
  private volatile boolean closed;

  private SlotRunner(Map<String, String> conf, Events events) {
    this.conf = new HashMap<>(conf);
    this.events = events;
    this.thread = new Thread(this::run, "indexfs-slot-runner-" + IndexFsConfig.SERVER_SLOT.get(conf));
    thread.setDaemon(true);
  }

  /**
   * Starts the slot's server and returns once it serves — or, with {@code indexfs.server.standby},
   * once it follows the journal as a standby; a failure to get there is thrown.
   */
  public static SlotRunner start(Map<String, String> conf, Events events) throws IOException {
    SlotRunner r = new SlotRunner(conf, events);
    r.thread.start();
    try {
      r.started.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      r.close();
      throw new java.io.InterruptedIOException("Interrupted starting slot " + IndexFsConfig.SERVER_SLOT.get(conf));
    } catch (ExecutionException e) {
      r.close();
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    }
    return r;
  }

  private void run() {
    Map<String, String> c = new HashMap<>(conf);
    while (!closed) {
      IndexFsServer s;
      try {
        s = IndexFsServer.start(c, standby -> {
          standing = standby;
          events.standing(standby);
          started.complete(null);
        });
      } catch (IOException | RuntimeException e) {
        standing = null;
        if (!closed) {
          LOG.error("Slot {}: the server did not start: {}", IndexFsConfig.SERVER_SLOT.get(c), e.toString());
          started.completeExceptionally(e);
          events.stopped(1);
        }
        return;
      }
      standing = null;
      BlockingQueue<String> ended = new ArrayBlockingQueue<>(2);
      s.onSuperseded(() -> ended.offer("another server took the slot over"));
      s.onHandedOver(() -> ended.offer("the slot was handed over"));
      current = s;
      events.serving(s);
      started.complete(null);
      String why;
      try {
        why = ended.take();
      } catch (InterruptedException e) {
        return; // closed
      }
      current = null;
      s.close();
      if (closed) {
        return;
      }
      if (!IndexFsConfig.JOURNAL_ENABLED.get(c)) {
        LOG.error("Slot {}: {}, and without a journal there is nothing to follow", IndexFsConfig.SERVER_SLOT.get(c), why);
        events.stopped(IndexFsServer.EXIT_SUPERSEDED);
        return;
      }
      LOG.info("Slot {}: {}; this server stays on as a standby", IndexFsConfig.SERVER_SLOT.get(c), why);
      c.put(IndexFsConfig.SERVER_STANDBY.name(), "true");
    }
  }

  /** The server while it serves the slot, else null. */
  public IndexFsServer current() {
    return current;
  }

  /** The standby while it follows the slot, else null. */
  public Standby standby() {
    return standing;
  }

  @Override
  public void close() {
    closed = true;
    IndexFsServer s = current;
    thread.interrupt();
    if (s != null) {
      s.close();
    }
    try {
      thread.join(60_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
