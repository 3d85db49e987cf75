package org.indexfs.server.snapshot;

import java.io.IOException;
import java.util.Map;
import org.indexfs.proto.Request;
import org.indexfs.proto.Request.OpCase;
import org.indexfs.proto.Response;
import org.indexfs.server.call.Call;
import org.indexfs.server.call.OperationTable;
import org.indexfs.server.call.When;
import org.indexfs.server.op.Operation;

/**
 * A client mutation that runs only through an open {@link SnapshotGate}: the calls whose
 * {@link OperationTable} row says {@code gated} (reads, and calls between servers that finish
 * admitted mutations, pass).
 */
public final class GatedOp implements Operation {
  private final Operation op;
  private final When gated;
  private final SnapshotGate gate;

  private GatedOp(Operation op, When gated, SnapshotGate gate) {
    this.op = op;
    this.gated = gated;
    this.gate = gate;
  }

  public static void install(Map<OpCase, Operation> ops, SnapshotGate gate) {
    ops.replaceAll((c, plain) -> {
      When gated = OperationTable.traits(c).gated();
      return gated.possible() ? new GatedOp(plain, gated, gate) : plain;
    });
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    return apply(Call.detached(request));
  }

  @Override
  public Response.Builder apply(Call call) throws IOException {
    Request request = call.request();
    if (!gated.test(request)) {
      return op.apply(call); // a read form (getStoragePolicy), or a publish's phase its home admitted
    }
    gate.enter();
    try {
      if (request.getOpCase() != OpCase.RENAME) {
        return op.apply(call);
      }
      // Inside the gate: a snapshot's HOLD, which teaches this slot its directory, orders with it.
      gate.pinned().checkRename(request.getRename().getSrc());
      Response.Builder answer = op.apply(call);
      // Still inside: no snapshot is taken before the slots have heard where a snapshottable directory went.
      gate.pinned().followRename(request.getRename(), answer);
      return answer;
    } finally {
      gate.exit();
    }
  }
}
