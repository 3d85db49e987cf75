package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;

/**
 * One metadata operation. Implementations validate the request against the namespace and apply
 * it; errors are thrown as {@link org.indexfs.common.IndexFsException} with a code. Its traits (which
 * guards it meets, whether it may run on the I/O thread) are its row in
 * {@link org.indexfs.server.call.OperationTable}.
 */
@FunctionalInterface
public interface Operation {
  Response.Builder apply(Request request) throws IOException;
}
