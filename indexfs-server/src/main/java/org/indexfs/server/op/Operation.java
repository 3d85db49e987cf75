package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.call.Call;

/**
 * One metadata operation. Implementations validate the request against the namespace and apply
 * it; errors are thrown as {@link org.indexfs.common.IndexFsException} with a code. Its traits (which
 * guards it meets, whether it may run on the I/O thread) are its row in
 * {@link org.indexfs.server.call.OperationTable}.
 */
@FunctionalInterface
public interface Operation {
  Response.Builder apply(Request request) throws IOException;

  /**
   * Runs {@code call}'s (admitted) request: what the dispatcher calls. An operation that reads the
   * call itself — where it comes from, what it notes for the audit record — overrides this and
   * takes the call from here, not from the thread; a guard passes the call on to what it wraps.
   */
  default Response.Builder apply(Call call) throws IOException {
    return apply(call.request());
  }
}
