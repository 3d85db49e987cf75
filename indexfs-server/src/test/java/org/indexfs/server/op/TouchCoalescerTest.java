package org.indexfs.server.op;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.indexfs.proto.PartitionRequest;
import org.indexfs.server.FaultPoints;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The group commit of directory-mtime touches, against a sender that holds its first call until
 * told: touches that come while a call is on its way ride on the next one, each caller returns
 * only once a call carrying its directory at its mtime (or later) is done.
 */
class TouchCoalescerTest {
  private final List<PartitionRequest> sent = new CopyOnWriteArrayList<>();
  private final CountDownLatch firstSent = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private final AtomicInteger joined = new AtomicInteger();

  @AfterEach
  void noHook() {
    FaultPoints.install(null);
  }

  private TouchCoalescer holdingTheFirstCall(boolean failFirst) {
    FaultPoints.install(p -> {
      if (p.equals("touch.joined")) {
        joined.incrementAndGet();
      }
    });
    return new TouchCoalescer((slot, call) -> {
      sent.add(call);
      if (firstSent.getCount() > 0) {
        firstSent.countDown();
        try {
          release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        if (failFirst) {
          throw new IOException("slot " + slot + " unreachable");
        }
      }
    });
  }

  private static PartitionRequest touch(long dirId, long mtime) {
    return PartitionRequest.newBuilder().setAction(PartitionRequest.Action.TOUCH).setDirId(dirId)
        .setEntryParent(1).setEntryName("d" + dirId).setMtime(mtime).setPath("/d" + dirId).build();
  }

  private static CompletableFuture<Void> async(TouchCoalescer c, int slot, PartitionRequest t) {
    return CompletableFuture.runAsync(() -> {
      try {
        c.touch(slot, t);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }, r -> new Thread(r).start());
  }

  private void awaitJoined(int n) throws InterruptedException {
    for (int i = 0; i < 3000 && joined.get() < n; i++) {
      Thread.sleep(10);
    }
    assertEquals(n, joined.get(), "touches that joined a gathering call");
  }

  @Test
  void concurrentTouchesOfOneDirectoryShareTheNextCallAtTheLargestMtime() throws Exception {
    TouchCoalescer c = holdingTheFirstCall(false);
    CompletableFuture<Void> first = async(c, 1, touch(7, 100));
    assertTrue(firstSent.await(10, TimeUnit.SECONDS));
    List<CompletableFuture<Void>> later = new ArrayList<>();
    for (int i = 1; i <= 15; i++) {
      later.add(async(c, 1, touch(7, 100 + i)));
    }
    awaitJoined(15);
    for (CompletableFuture<Void> f : later) {
      assertTrue(!f.isDone(), "a touch returns only once a call carrying it is done");
    }
    release.countDown();
    first.get(10, TimeUnit.SECONDS);
    for (CompletableFuture<Void> f : later) {
      f.get(10, TimeUnit.SECONDS);
    }
    assertEquals(2, sent.size(), "16 touches of one directory: the held call and one more");
    assertEquals(100, sent.get(0).getMtime());
    assertEquals(115, sent.get(1).getMtime(), "the gathered call carries the largest mtime");
    assertEquals(0, sent.get(1).getMoreTouchesCount());
    assertEquals(0, c.lanes(), "nothing left behind");
  }

  @Test
  void touchesOfOtherDirectoriesOnTheSameSlotRideInOneCall() throws Exception {
    TouchCoalescer c = holdingTheFirstCall(false);
    CompletableFuture<Void> first = async(c, 2, touch(1, 100));
    assertTrue(firstSent.await(10, TimeUnit.SECONDS));
    List<CompletableFuture<Void>> later = new ArrayList<>();
    for (int d = 2; d <= 6; d++) {
      later.add(async(c, 2, touch(d, 200 + d)));
    }
    later.add(async(c, 2, touch(3, 50))); // an older touch of a gathered directory changes nothing
    awaitJoined(6);
    release.countDown();
    first.get(10, TimeUnit.SECONDS);
    for (CompletableFuture<Void> f : later) {
      f.get(10, TimeUnit.SECONDS);
    }
    assertEquals(2, sent.size());
    PartitionRequest call = sent.get(1);
    List<PartitionRequest> all = new ArrayList<>(List.of(call.toBuilder().clearMoreTouches().build()));
    all.addAll(call.getMoreTouchesList());
    assertEquals(5, all.size(), "five directories in one call");
    for (PartitionRequest t : all) {
      assertEquals(200 + t.getDirId(), t.getMtime());
    }
  }

  @Test
  void otherSlotsAreNotHeldBehindABusyOne() throws Exception {
    TouchCoalescer c = holdingTheFirstCall(false);
    CompletableFuture<Void> first = async(c, 1, touch(1, 100));
    assertTrue(firstSent.await(10, TimeUnit.SECONDS));
    async(c, 3, touch(2, 100)).get(10, TimeUnit.SECONDS);
    release.countDown();
    first.get(10, TimeUnit.SECONDS);
    assertEquals(2, sent.size());
  }

  @Test
  void aFailedCallFailsItsOwnCallersOnly() throws Exception {
    TouchCoalescer c = holdingTheFirstCall(true);
    CompletableFuture<Void> first = async(c, 1, touch(1, 100));
    assertTrue(firstSent.await(10, TimeUnit.SECONDS));
    CompletableFuture<Void> second = async(c, 1, touch(1, 101));
    awaitJoined(1);
    release.countDown();
    ExecutionException e = assertThrows(ExecutionException.class, () -> first.get(10, TimeUnit.SECONDS));
    assertTrue(e.getCause().getMessage().contains("unreachable"), e.toString());
    second.get(10, TimeUnit.SECONDS);
    assertEquals(2, sent.size());
    assertEquals(0, c.lanes());
  }

  @Test
  void aFullCallLeavesTheRestToTheNext() throws Exception {
    TouchCoalescer c = holdingTheFirstCall(false);
    CompletableFuture<Void> first = async(c, 1, touch(0, 100));
    assertTrue(firstSent.await(10, TimeUnit.SECONDS));
    int n = TouchCoalescer.MAX_PER_CALL + 10;
    List<CompletableFuture<Void>> later = new ArrayList<>();
    for (int d = 1; d <= n; d++) {
      later.add(async(c, 1, touch(d, 100)));
    }
    awaitJoined(n);
    release.countDown();
    first.get(10, TimeUnit.SECONDS);
    for (CompletableFuture<Void> f : later) {
      f.get(10, TimeUnit.SECONDS);
    }
    assertEquals(3, sent.size());
    assertEquals(TouchCoalescer.MAX_PER_CALL, 1 + sent.get(1).getMoreTouchesCount());
    assertEquals(10, 1 + sent.get(2).getMoreTouchesCount());
  }
}
