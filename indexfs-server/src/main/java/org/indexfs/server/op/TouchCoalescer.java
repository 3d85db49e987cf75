package org.indexfs.server.op;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.indexfs.proto.PartitionRequest;
import org.indexfs.proto.Request;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.peer.Peers;

/**
 * A group commit for directory-mtime touches. While one TOUCH call is on its way to a slot, the
 * touches for that slot that come meanwhile gather into the next call: a later touch of a
 * directory already gathered only raises its mtime, a touch of another directory joins the call
 * beside it ({@code more_touches}, one write at the receiver). The slot holding the entries of
 * many directories (the parent of every private directory of a workload; the entry of a split
 * directory, for every partition elsewhere) then takes one call per round trip from each slot
 * instead of one per create or delete — one call each made creates and deletes on N slots cost
 * about one slot's throughput.
 *
 * <p>What a caller sees does not change: {@link #touch} returns once a call carrying its
 * directory at an mtime at least its own has been applied (or has failed), before its client gets
 * an answer, as when each touch was its own call. An entry's mtime only ever rises (TOUCH keeps
 * the larger), so one call with the largest mtime leaves it where the calls one by one would have.
 */
final class TouchCoalescer {
  /** Touches in one call at most: a call stays a small frame and a short write. */
  static final int MAX_PER_CALL = 256;

  /** One coalescer per server: its {@link Peers} (one per server process or in-process slot). */
  private static final Map<Peers, TouchCoalescer> BY_PEERS = new WeakHashMap<>();

  /** Where a call of touches goes; {@link Peers#call} in a server. */
  interface Sender {
    void send(int slot, PartitionRequest call) throws IOException;
  }

  /** One directory's entry (on the lane's slot). */
  private record Dir(long dirId, long entryParent, String entryName) {
    static Dir of(PartitionRequest t) {
      return new Dir(t.getDirId(), t.getEntryParent(), t.getEntryName());
    }
  }

  /** One call: the touches it carries (the largest mtime per directory) and its callers' wait. */
  private static final class Batch {
    final Map<Dir, PartitionRequest> touches = new LinkedHashMap<>();
    final CompletableFuture<Void> done = new CompletableFuture<>();
    /** Taken by one of its callers to send; nothing joins it after. */
    boolean taken;

    boolean hasRoomFor(Dir d) {
      return touches.containsKey(d) || touches.size() < MAX_PER_CALL;
    }

    void add(PartitionRequest t) {
      touches.merge(Dir.of(t), t, (a, b) -> b.getMtime() > a.getMtime() ? b : a);
    }

    PartitionRequest call() {
      List<PartitionRequest> all = new ArrayList<>(touches.values());
      return all.get(0).toBuilder().addAllMoreTouches(all.subList(1, all.size())).build();
    }
  }

  /** A slot's call on its way and the ones gathering behind it, in order (one, unless full). */
  private static final class Lane {
    Batch inFlight;
    final List<Batch> gathering = new ArrayList<>(1);

    /** The batch {@code d} joins: the one holding it already, else the last one with room. */
    Batch gatherer(Dir d) {
      for (Batch b : gathering) {
        if (b.touches.containsKey(d)) {
          return b;
        }
      }
      Batch last = gathering.isEmpty() ? null : gathering.get(gathering.size() - 1);
      if (last == null || !last.hasRoomFor(d)) {
        last = new Batch();
        gathering.add(last);
      }
      return last;
    }
  }

  private final Sender sender;
  private final Map<Integer, Lane> lanes = new HashMap<>();
  private long calls;

  TouchCoalescer(Sender sender) {
    this.sender = sender;
  }

  static TouchCoalescer of(Peers peers) {
    synchronized (BY_PEERS) {
      return BY_PEERS.computeIfAbsent(peers,
          p -> new TouchCoalescer((slot, call) -> p.call(slot, Request.newBuilder().setPartition(call))));
    }
  }

  /** Raises the entry's mtime at {@code slot} to at least {@code touch}'s; returns once that is done. */
  void touch(int slot, PartitionRequest touch) throws IOException {
    Batch mine;
    boolean joined;
    synchronized (this) {
      Lane lane = lanes.computeIfAbsent(slot, s -> new Lane());
      mine = lane.gatherer(Dir.of(touch));
      mine.add(touch);
      joined = lane.inFlight != null;
    }
    if (joined) {
      FaultPoints.at("touch.joined");
    }
    if (takeWhenItsTurn(slot, mine)) {
      send(slot, mine);
    }
    await(mine);
  }

  /**
   * Waits until {@code b} is on its way: true when this caller is the one to send it (the slot has
   * no call in flight and {@code b} is first in line), false when another of its callers took it.
   * Never gives up its turn to an interrupt (the batch's other callers would wait for nobody): the
   * interrupt is kept for the caller, and the wait is bounded by the call ahead's RPC timeout.
   */
  private synchronized boolean takeWhenItsTurn(int slot, Batch b) {
    Lane lane = lanes.get(slot);
    boolean interrupted = false;
    try {
      while (!b.taken) {
        if (lane.inFlight == null && lane.gathering.get(0) == b) {
          lane.gathering.remove(0);
          lane.inFlight = b;
          b.taken = true;
          return true;
        }
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      return false;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void send(int slot, Batch b) {
    Throwable failure = null;
    try {
      FaultPoints.at("touch.send");
      synchronized (this) {
        calls++;
      }
      sender.send(slot, b.call()); // nothing joins a batch once it is taken
    } catch (IOException | RuntimeException e) {
      failure = e;
    }
    synchronized (this) {
      Lane lane = lanes.get(slot);
      lane.inFlight = null;
      if (lane.gathering.isEmpty()) {
        lanes.remove(slot);
      }
      notifyAll(); // the next batch's callers: one of them sends it
    }
    if (failure == null) {
      b.done.complete(null);
    } else {
      b.done.completeExceptionally(failure);
    }
  }

  private static void await(Batch b) throws IOException {
    try {
      b.done.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted raising a directory's mtime");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new IOException("Raising a directory's mtime failed", e.getCause());
    }
  }

  /** Calls sent so far (tests). */
  synchronized long calls() {
    return calls;
  }

  /** Slots with a call on its way or gathering (tests: nothing is left behind). */
  synchronized int lanes() {
    return lanes.size();
  }
}
