package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.rpc.RpcConnection;
import org.indexfs.proto.Code;
import org.indexfs.proto.PublishResult;
import org.indexfs.server.FaultPoints;

/**
 * A holder's publish sent again, as the bulk-insertion fault tests do it: after a stop injected at
 * a server point, under the first try's call id (what the client does after a reply timeout), and
 * while the directory is still held by a publish that settles.
 */
final class PublishAgain {
  private PublishAgain() {}

  /**
   * Publishes {@code t} under a new call id, stopped once at {@code point} after the home received
   * it: the publish fails and the fault is removed. Returns the call id, for the resend.
   */
  static long stoppedAt(String point, IndexFsClient holder, LocalSubtree t, boolean release) {
    List<String> points = new CopyOnWriteArrayList<>();
    AtomicBoolean fired = new AtomicBoolean();
    FaultPoints.install(p -> {
      points.add(p);
      // call.applied follows every at-most-once call: stop the publish's, once it ran.
      if (p.equals(point) && points.contains("publish.received") && fired.compareAndSet(false, true)) {
        throw new IllegalStateException("injected stop at " + p);
      }
    });
    long id = RpcConnection.newCallId();
    holder.reuseCallId(id);
    assertThrows(IOException.class, () -> t.publish(release));
    assertTrue(fired.get(), "the publish reached " + point + ": " + points);
    FaultPoints.install(null);
    return id;
  }

  /** The publish sent again under call {@code id}, once; the server points it passed are added to {@code seen}. */
  static PublishResult underCallId(IndexFsClient holder, LocalSubtree t, long id, boolean release, List<String> seen)
      throws IOException {
    FaultPoints.install(seen::add);
    try {
      holder.reuseCallId(id);
      return t.publish(release);
    } finally {
      FaultPoints.install(null);
    }
  }

  /**
   * The publish (with release) sent again under call {@code id} while the directory is still held by
   * a settling publish (STALE_RESOLUTION), for up to a minute; the points it passed are added to {@code seen}.
   */
  static PublishResult underCallIdOnceSettled(IndexFsClient holder, LocalSubtree t, long id, List<String> seen)
      throws Exception {
    FaultPoints.install(seen::add);
    try {
      return untilAccepted(t, 60_000, () -> holder.reuseCallId(id), Set.of(Code.STALE_RESOLUTION));
    } finally {
      FaultPoints.install(null);
    }
  }

  /**
   * The holder's publish (with release) sent again while it is answered with one of {@code retried}
   * (a slot still settles an earlier publish), for up to {@code waitMs}; any other refusal is thrown.
   */
  static PublishResult untilAccepted(LocalSubtree t, long waitMs, Code... retried) throws Exception {
    return untilAccepted(t, waitMs, () -> {}, Set.of(retried));
  }

  private static PublishResult untilAccepted(LocalSubtree t, long waitMs, Runnable beforeEach, Set<Code> retried)
      throws Exception {
    long deadline = System.currentTimeMillis() + waitMs;
    while (true) {
      beforeEach.run();
      try {
        return t.publish(true);
      } catch (IndexFsException e) {
        if (!retried.contains(e.code()) || System.currentTimeMillis() > deadline) {
          throw e;
        }
        Thread.sleep(200);
      }
    }
  }
}
