package org.indexfs.server.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.CompleteRequest;
import org.indexfs.proto.FlushRequest;
import org.indexfs.proto.PublishRequest;
import org.indexfs.proto.RecoverLeaseRequest;
import org.indexfs.proto.RenewLeaseRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.StoragePolicyRequest;
import org.indexfs.server.call.RecordingOps;
import org.junit.jupiter.api.Test;

/**
 * While a snapshot's barrier holds a slot's gate, a flush and a lease recovery wait (are told to
 * retry) as a complete does — each changes a length a snapshot copies — while getStoragePolicy, a
 * read, and a lease renewal, which changes no entry, go on.
 */
class GatedOpTraitsTest {
  /** A real gate closed by barrier 1; nothing is running here, so the hold returns at once. */
  private static RecordingOps behindClosedGate() throws Exception {
    SnapshotGate gate = new SnapshotGate(null, SnapshotGate.Limits.DEFAULT);
    RecordingOps ops = new RecordingOps();
    GatedOp.install(ops.ops, gate);
    gate.hold(1);
    return ops;
  }

  private static void waits(RecordingOps ops, Request r) {
    IndexFsException e = assertThrows(IndexFsException.class, () -> ops.ops.get(r.getOpCase()).apply(r), r.toString());
    assertEquals(Code.STALE_RESOLUTION, e.code());
    assertEquals("A snapshot is being taken; retry", e.getMessage());
    assertFalse(ops.ran.contains(r.getOpCase()), r.getOpCase() + " ran through a closed gate");
  }

  private static void goesOn(RecordingOps ops, Request r) throws Exception {
    ops.ops.get(r.getOpCase()).apply(r);
    assertTrue(ops.ran.contains(r.getOpCase()), r.getOpCase() + " was held back");
  }

  @Test
  void flushAndLeaseRecoveryWaitForASnapshotAsCompleteDoes() throws Exception {
    RecordingOps ops = behindClosedGate();
    waits(ops, Request.newBuilder().setFlush(FlushRequest.newBuilder().setPath("/f")).build());
    waits(ops, Request.newBuilder().setRecoverLease(RecoverLeaseRequest.newBuilder().setPath("/f")).build());
    waits(ops, Request.newBuilder().setComplete(CompleteRequest.newBuilder().setPath("/f")).build());
    waits(ops, Request.newBuilder().setStoragePolicy(StoragePolicyRequest.newBuilder().setPath("/f")
        .setAction(StoragePolicyRequest.Action.SET)).build());
    waits(ops, Request.newBuilder().setPublish(PublishRequest.newBuilder().setPath("/bulk")).build());
  }

  @Test
  void readsRenewalsAndAPublishsPhasesPassAClosedGate() throws Exception {
    RecordingOps ops = behindClosedGate();
    goesOn(ops, Request.newBuilder().setStoragePolicy(StoragePolicyRequest.newBuilder().setPath("/f")
        .setAction(StoragePolicyRequest.Action.GET)).build());
    goesOn(ops, Request.newBuilder().setRenewLease(RenewLeaseRequest.getDefaultInstance()).build());
    goesOn(ops, Request.newBuilder().setPublish(PublishRequest.newBuilder().setPath("/bulk")
        .setPhase(PublishRequest.Phase.PREPARE)).build());
  }
}
