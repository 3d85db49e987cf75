package org.indexfs.server.call;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.indexfs.proto.Request.OpCase;
import org.indexfs.proto.Response;
import org.indexfs.server.op.Operation;

/** An operation for every op of the protocol that only notes it ran: what a guard wraps in its tests. */
public final class RecordingOps {
  public final Set<OpCase> ran = EnumSet.noneOf(OpCase.class);
  public final Map<OpCase, Operation> ops = new EnumMap<>(OpCase.class);

  public RecordingOps() {
    for (OpCase op : OpCase.values()) {
      if (op != OpCase.OP_NOT_SET) {
        ops.put(op, request -> {
          ran.add(request.getOpCase());
          return Response.newBuilder();
        });
      }
    }
  }
}
