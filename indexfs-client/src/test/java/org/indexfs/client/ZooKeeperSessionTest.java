package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A client's ZooKeeper session starts late (DESIGN §10, fast first call): a short-lived command
 * answered from the remembered slot map ends before it pays for the session's set-up; whoever needs
 * the session starts it at once; and one closed before its start never starts.
 */
class ZooKeeperSessionTest {
  /** Nobody answers here; starting a session needs no answer. */
  private static final String NOBODY = "127.0.0.1:1";

  @Test
  void aSessionStartsAfterItsDelayAtOnceWhenNeededAndNeverOnceClosed() throws Exception {
    CountDownLatch late = new CountDownLatch(1);
    ZooKeeperSession delayed = new ZooKeeperSession(NOBODY, 300, c -> late.countDown());
    delayed.start(200);
    assertTrue(late.await(10, TimeUnit.SECONDS), "started by itself after the delay");
    delayed.closeLater(() -> {});

    AtomicInteger starts = new AtomicInteger();
    ZooKeeperSession needed = new ZooKeeperSession(NOBODY, 300, c -> starts.incrementAndGet());
    needed.start(TimeUnit.HOURS.toMillis(1));
    assertEquals(0, starts.get(), "not before its delay");
    assertNotNull(needed.get(), "a caller that needs it starts it");
    assertEquals(1, starts.get());
    needed.closeLater(() -> {});

    AtomicInteger never = new AtomicInteger();
    ZooKeeperSession closed = new ZooKeeperSession(NOBODY, 300, c -> never.incrementAndGet());
    closed.start(100);
    closed.closeLater(() -> {});
    Thread.sleep(600);
    assertEquals(0, never.get(), "a client closed before its session started leaves none behind");
  }
}
