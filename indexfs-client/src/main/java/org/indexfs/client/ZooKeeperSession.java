package org.indexfs.client;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client process's ZooKeeper session, built and started on a thread of its own (DESIGN §10, fast
 * first call): Curator and the ZooKeeper client cost a fresh JVM a few hundred milliseconds of
 * class loading and set-up, which the first call does not need when the slot map is remembered
 * ({@link SlotDirectory}). Whoever needs the session waits for it; the rest never does.
 */
final class ZooKeeperSession {
  private static final Logger LOG = LoggerFactory.getLogger(ZooKeeperSession.class);

  private final CompletableFuture<CuratorFramework> started = new CompletableFuture<>();
  private final long waitMs;

  private final Thread starter;
  private final java.util.concurrent.atomic.AtomicBoolean launched = new java.util.concurrent.atomic.AtomicBoolean();
  private volatile boolean closed;

  /**
   * A session to {@code zkQuorum}, to be {@link #start}ed in the background; {@code onStarted} runs
   * there once it is started (watches to set up).
   */
  ZooKeeperSession(String zkQuorum, int connectTimeoutMs, Consumer<CuratorFramework> onStarted) {
    this.waitMs = Math.max(connectTimeoutMs, 10_000);
    this.starter = new DefaultThreadFactory("indexfs-client-zk-start", true).newThread(() -> {
      try {
        CuratorFramework curator = CuratorFrameworkFactory.builder()
            .connectString(zkQuorum)
            // The connect string as configured is the one to keep: Curator's ensemble tracker would replace
            // it with the servers' own names from /zookeeper/config, which a client elsewhere may not resolve
            // (clients then lost ZooKeeper for good after the next ZooKeeper node restart; ChaosIT).
            .ensembleTracker(false)
            .sessionTimeoutMs(30_000)
            .connectionTimeoutMs(connectTimeoutMs)
            .retryPolicy(new ExponentialBackoffRetry(200, 5))
            .threadFactory(new DefaultThreadFactory("indexfs-client-zk", true))
            .build();
        curator.start();
        onStarted.accept(curator);
        started.complete(curator);
      } catch (RuntimeException | Error e) {
        started.completeExceptionally(e);
      }
    });
  }

  /**
   * Builds and starts the session on its own thread after {@code delayMs} — a short-lived command
   * (a {@code hadoop fs} call answered from the remembered slot map) ends before and never pays for
   * it — or at once when someone needs it ({@link #get}); returns at once.
   */
  void start(long delayMs) {
    if (delayMs <= 0) {
      launch();
      return;
    }
    Thread timer = new DefaultThreadFactory("indexfs-client-zk-wait", true).newThread(() -> {
      try {
        Thread.sleep(delayMs);
      } catch (InterruptedException e) {
        return;
      }
      launch();
    });
    timer.start();
  }

  private void launch() {
    if (!closed && launched.compareAndSet(false, true)) {
      starter.start();
    }
  }

  /** The started session (starts it now if it was not; waits for its start, not for its connection). */
  CuratorFramework get() throws IOException {
    launch();
    try {
      return started.get(waitMs, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted starting the ZooKeeper session");
    } catch (ExecutionException e) {
      throw new IOException("The ZooKeeper session did not start: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new IOException("The ZooKeeper session did not start within " + waitMs + " ms");
    }
  }

  /** Closes the session once it has started (without waiting here); {@code beforeClose} runs first. */
  void closeLater(Runnable beforeClose) {
    closed = true; // a session not launched yet never is
    started.thenAccept(curator -> {
      // Nothing here is worth waiting for: the session ends by itself if its goodbye is cut short.
      Thread closer = new Thread(() -> {
        try {
          beforeClose.run();
          curator.close();
        } catch (RuntimeException e) {
          LOG.debug("Closing the ZooKeeper session failed: {}", e.toString());
        }
      }, "indexfs-client-zk-close");
      closer.setDaemon(true);
      closer.start();
    });
  }
}
