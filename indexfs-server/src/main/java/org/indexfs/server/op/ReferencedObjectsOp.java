package org.indexfs.server.op;

import java.io.IOException;
import java.util.TreeSet;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.Names;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.data.Scrubber;
import org.indexfs.server.ns.AccessChecker;

/**
 * Between servers: which of the named data objects this slot still refers to, so another slot's
 * scrubber never removes an object whose entry moved here ({@link Scrubber}).
 */
public final class ReferencedObjectsOp implements Operation {
  private final Scrubber scrubber;
  private final AccessChecker access;

  public ReferencedObjectsOp(Scrubber scrubber, AccessChecker access) {
    this.scrubber = scrubber;
    this.access = access;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    if (!access.isSuperuser(request.getCaller())) {
      throw new IndexFsException(Code.ACCESS_DENIED, "Object queries are for servers only, not "
          + request.getCaller().getUser());
    }
    return Response.newBuilder().setNames(Names.newBuilder().addAllNames(
        scrubber.referenced(new TreeSet<>(request.getReferenced().getObjectsList()))));
  }
}
