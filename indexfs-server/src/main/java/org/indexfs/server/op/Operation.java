package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;

/**
 * One metadata operation. Implementations validate the request against the namespace and apply
 * it; errors are thrown as {@link org.indexfs.common.IndexFsException} with a code.
 */
public interface Operation {
  Response.Builder apply(Request request) throws IOException;

  /**
   * True when this call may run on the network I/O thread that read it (DESIGN §10): it changes
   * at most one batch, with {@link org.indexfs.server.ns.Namespace#mutateLocked}, and every step
   * that may wait comes before that change and asks {@link org.indexfs.server.Blocking#check}.
   */
  default boolean mayRunOnIoThread(Request request) {
    return false;
  }
}
