package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.BoolResult;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.SetReplicationRequest;
import org.indexfs.server.ns.ResolvedPath;

/**
 * {@code setReplication}: WRITE on the file; a directory answers false, as in HDFS. The entry keeps
 * the target; a file with a data object has it applied to the object too, so the data tier
 * re-replicates its blocks (asynchronously, as HDFS always does).
 */
public final class SetReplicationOp implements Operation {
  private final OpContext ctx;

  public SetReplicationOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    SetReplicationRequest req = request.getSetReplication();
    if (req.getReplication() == 0 || Integer.compareUnsigned(req.getReplication(), Short.MAX_VALUE) > 0) {
      throw IndexFsException.invalidArgument("Invalid replication " + Integer.toUnsignedString(req.getReplication()));
    }
    Replication.check(req.getPath(), req.getReplication());
    String[] object = new String[1];
    boolean applied = ctx.ns().mutateLocked(m -> {
      m.exclusive();
      org.rocksdb.WriteBatch batch = m.batch();
      ResolvedPath p = ctx.resolver().resolve(request.getResolution(), req.getPath());
      ctx.access().checkTraverse(request.getCaller(), p);
      if (p.last() == null) {
        throw IndexFsException.notFound(req.getPath());
      }
      ctx.access().checkSelf(request.getCaller(), p, Permission.WRITE);
      if (p.last().isDirectory()) {
        return false;
      }
      Inode updated = p.last().copy();
      updated.replication = req.getReplication();
      ctx.quotas().charge(m, org.indexfs.server.quota.QuotaRoot.above(p, p.depth()), 0,
          org.indexfs.server.quota.Usage.space(updated) - org.indexfs.server.quota.Usage.space(p.last()));
      Entries.put(ctx.ns(), batch, p, p.depth(), updated);
      object[0] = updated.dataObject;
      return true;
    });
    if (object[0] != null) {
      ctx.data().setReplication(object[0], (short) req.getReplication());
    }
    return Response.newBuilder().setBool(BoolResult.newBuilder().setValue(applied));
  }
}
