package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.policy.SubtreePolicy;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.DefinedPolicy;
import org.indexfs.proto.GetPolicyRequest;
import org.indexfs.proto.Policies;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.policy.PolicyRecords;
import org.indexfs.server.policy.SubtreePolicies;

/**
 * {@code admin -getPolicy PATH}: the policy in force at a path and the directory that sets it (anyone
 * who may traverse to it may ask); with {@code list}, the policies recorded on this slot
 * ({@code admin -listPolicies} asks every slot).
 */
public final class GetPolicyOp implements Operation {
  private final OpContext ctx;

  public GetPolicyOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    GetPolicyRequest req = request.getGetPolicy();
    if (req.getList()) {
      return Response.newBuilder().setPolicies(Policies.newBuilder().addAllPolicies(PolicyRecords.all(ctx.ns().store())));
    }
    ResolvedPath p = ctx.ns().read(none -> ctx.resolver().resolve(request.getResolution(), req.getPath()));
    ctx.access().checkTraverse(request.getCaller(), p);
    if (p.last() == null) {
      throw IndexFsException.notFound(req.getPath());
    }
    SubtreePolicies.InForce in = SubtreePolicies.at(p);
    DefinedPolicy.Builder answer = DefinedPolicy.newBuilder().setPath(p.path())
        .setConsistency(SubtreePolicy.nameOf(in.policy().consistency()))
        .setDurability(SubtreePolicy.nameOf(in.policy().durability()));
    if (in.depth() >= 0) {
      Inode at = p.inodeAt(in.depth());
      answer.setDefinedAt(p.pathAt(in.depth())).setDirId(at.inodeId);
    }
    return Response.newBuilder().setPolicies(Policies.newBuilder().addPolicies(answer));
  }
}
