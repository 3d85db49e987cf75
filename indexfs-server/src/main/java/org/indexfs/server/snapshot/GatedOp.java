package org.indexfs.server.snapshot;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.indexfs.proto.Request;
import org.indexfs.proto.Request.OpCase;
import org.indexfs.proto.Response;
import org.indexfs.server.op.Operation;

/** A client mutation that runs only through an open {@link SnapshotGate}. */
public final class GatedOp implements Operation {
  /**
   * Client calls that change entries (reads, and calls between servers that finish admitted
   * mutations, pass). Lease renewal and flush change no name; complete may change a length only.
   */
  static final Set<OpCase> GATED = EnumSet.of(OpCase.MKDIRS, OpCase.CREATE, OpCase.DELETE, OpCase.RENAME,
      OpCase.SET_PERMISSION, OpCase.SET_OWNER, OpCase.SET_TIMES, OpCase.SET_REPLICATION, OpCase.APPEND,
      OpCase.TRUNCATE, OpCase.CONCAT, OpCase.COMPLETE, OpCase.SET_XATTR, OpCase.REMOVE_XATTR, OpCase.ACL_EDIT,
      OpCase.SET_POLICY, OpCase.STORAGE_POLICY, OpCase.PUBLISH);

  private final Operation op;
  private final SnapshotGate gate;

  private GatedOp(Operation op, SnapshotGate gate) {
    this.op = op;
    this.gate = gate;
  }

  public static void install(Map<OpCase, Operation> ops, SnapshotGate gate) {
    for (OpCase c : GATED) {
      Operation plain = ops.get(c);
      if (plain != null) {
        ops.put(c, new GatedOp(plain, gate));
      }
    }
  }

  @Override
  public boolean mayRunOnIoThread(Request request) {
    return op.mayRunOnIoThread(request);
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    if (request.getOpCase() == OpCase.PUBLISH
        && request.getPublish().getPhase() != org.indexfs.proto.PublishRequest.Phase.CLIENT) {
      // A split publish's phase on a partition's slot: part of a publish its home admitted.
      return op.apply(request);
    }
    gate.enter();
    try {
      if (request.getOpCase() != OpCase.RENAME) {
        return op.apply(request);
      }
      // Inside the gate: a snapshot's HOLD, which teaches this slot its directory, orders with it.
      gate.pinned().checkRename(request.getRename().getSrc());
      Response.Builder answer = op.apply(request);
      // Still inside: no snapshot is taken before the slots have heard where a snapshottable directory went.
      gate.pinned().followRename(request.getRename(), answer);
      return answer;
    } finally {
      gate.exit();
    }
  }
}
