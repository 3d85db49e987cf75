package org.indexfs.client.admin;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.io.InterruptedIOException;
import org.indexfs.client.IndexFsClient;
import org.indexfs.proto.BalanceRequest;
import org.indexfs.proto.FsckPage;
import org.indexfs.proto.FsckRequest;
import org.indexfs.proto.HandoverRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.SafeModeRequest;
import org.indexfs.proto.SafeModeStatus;
import org.indexfs.proto.SlotBalance;
import org.indexfs.proto.SlotReportRequest;
import org.indexfs.proto.SlotReport;

/**
 * An operator's calls (what {@code bin/indexfs admin} sends), made with the caller's identity:
 * each goes to one slot, and the tool asks every slot. Errors come back as the server's codes
 * (a non-superuser gets ACCESS_DENIED with HDFS's message).
 */
public final class AdminClient {
  /** How long a safe-mode switch may take to reach every slot's watch. */
  private static final long SWITCH_WAIT_MS = 15_000;

  private final IndexFsClient client;

  public AdminClient(IndexFsClient client) {
    this.client = client;
  }

  public int slotCount() throws IOException {
    return client.connection().slotCount();
  }

  public String cluster() {
    return client.connection().cluster();
  }

  /** The {@code host:port} registered for {@code slot}, or null when nobody serves it. */
  public String owner(int slot) throws IOException {
    return client.connection().owner(slot);
  }

  public SlotReport report(int slot) throws IOException {
    return client.callSlot(slot, Request.newBuilder().setSlotReport(SlotReportRequest.getDefaultInstance()))
        .getSlotReport();
  }

  public SlotBalance balance(int slot, int top) throws IOException {
    return client.callSlot(slot, Request.newBuilder().setBalance(BalanceRequest.newBuilder().setTop(top)))
        .getBalance();
  }

  public FsckPage fsckMeta(int slot) throws IOException {
    return client.callSlot(slot, Request.newBuilder().setFsck(FsckRequest.newBuilder()
        .setPart(FsckRequest.Part.META))).getFsck();
  }

  public FsckPage fsckEntries(int slot, ByteString cursor, boolean directoriesOnly) throws IOException {
    return client.callSlot(slot, Request.newBuilder().setFsck(FsckRequest.newBuilder()
        .setPart(FsckRequest.Part.ENTRIES).setCursor(cursor).setDirectoriesOnly(directoriesOnly))).getFsck();
  }

  /** A page of slot {@code slot}'s listing-order records that name no entry, after {@code cursor}. */
  public FsckPage fsckNames(int slot, ByteString cursor) throws IOException {
    return client.callSlot(slot, Request.newBuilder().setFsck(FsckRequest.newBuilder()
        .setPart(FsckRequest.Part.NAMES).setCursor(cursor))).getFsck();
  }

  /** How long a handover may take before the tool gives up waiting for the new owner. */
  private static final long HANDOVER_WAIT_MS = 120_000;

  /**
   * Hands {@code slot} over (as {@code hdfs haadmin -failover}): its owner steps down naming
   * {@code to} (a server's name, or "" for any standby), and this returns the new owner's
   * {@code host:port} once it serves the slot.
   */
  public String handover(int slot, String to) throws IOException {
    String before = owner(slot);
    if (before == null) {
      throw new IOException("Nobody serves slot " + slot + ": there is nothing to hand over");
    }
    client.callSlot(slot, Request.newBuilder().setHandover(HandoverRequest.newBuilder().setTo(to).setFrom(before)));
    long deadline = System.currentTimeMillis() + HANDOVER_WAIT_MS;
    while (true) {
      String now = owner(slot);
      if (now != null && !now.equals(before)) {
        report(slot); // answered by the new owner (retried until it serves)
        return now;
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IOException("Slot " + slot + " has no new owner " + HANDOVER_WAIT_MS + " ms after its handover"
            + (to.isEmpty() ? "" : " to " + to));
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("Interrupted waiting for slot " + slot + "'s new owner");
      }
    }
  }

  /** What {@code slot} enforces now. */
  public SafeModeStatus safeMode(int slot) throws IOException {
    return client.callSlot(slot, Request.newBuilder().setSafeMode(SafeModeRequest.newBuilder()
        .setAction(SafeModeRequest.Action.GET))).getSafeMode();
  }

  /**
   * Safe mode for the whole cluster: {@code GET} asks slot 0; {@code ENTER} and {@code LEAVE} switch
   * it (at slot 0's server, in ZooKeeper) and return once every served slot enforces the new state,
   * so no mutation is admitted anywhere after {@code ENTER} returns.
   */
  public SafeModeStatus safeMode(SafeModeRequest.Action action) throws IOException {
    SafeModeStatus status = client.callSlot(0, Request.newBuilder().setSafeMode(SafeModeRequest.newBuilder()
        .setAction(action))).getSafeMode();
    if (action == SafeModeRequest.Action.GET) {
      return status;
    }
    boolean wanted = action == SafeModeRequest.Action.ENTER;
    long deadline = System.currentTimeMillis() + SWITCH_WAIT_MS;
    for (int slot = 1; slot < slotCount(); slot++) {
      while (owner(slot) != null && safeMode(slot).getOn() != wanted) {
        if (System.currentTimeMillis() > deadline) {
          throw new IOException("Slot " + slot + " does not enforce safe mode " + (wanted ? "ON" : "OFF")
              + " after " + SWITCH_WAIT_MS + " ms");
        }
        try {
          Thread.sleep(20);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("Interrupted waiting for slot " + slot);
        }
      }
    }
    return status;
  }
}
