package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.policy.SubtreePolicy;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Code;
import org.indexfs.proto.DefinedPolicy;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.SetPolicyRequest;
import org.indexfs.server.lease.EntryLeases;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.policy.PolicyRecords;

/**
 * {@code admin -setPolicy} (issue 18, Cudele's subtree policies): the directory's owner or the
 * superuser sets or clears the consistency and durability of the subtree below it. The policy goes
 * into the directory's entry flags like a chmod — leases on the entry are revoked first and the
 * home's partition record follows ({@link HomeChanges}) — so every later walk through it, on any
 * slot or client, carries it. Policies whose mechanism is not built are refused, never stored.
 */
public final class SetPolicyOp implements Operation {
  private final OpContext ctx;

  public SetPolicyOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    SetPolicyRequest req = request.getSetPolicy();
    SubtreePolicy policy = req.getClear() ? null : parse(req);
    ctx.ns().read(none -> allowed(request, ctx.resolver().resolve(request.getResolution(), req.getPath())));
    long synced;
    try (EntryLeases.Revocation revoked = DirectoryLeases.revoke(ctx, request.getResolution(), req.getPath())) {
      synced = ctx.ns().mutate(batch -> {
        ResolvedPath p = ctx.resolver().resolve(request.getResolution(), req.getPath());
        Inode updated = allowed(request, p).copy();
        updated.flags = SubtreePolicy.withPolicy(updated.flags, policy);
        Entries.put(ctx.ns(), batch, p, p.depth(), updated);
        if (policy == null) {
          PolicyRecords.remove(ctx.ns().store(), batch, updated.inodeId);
        } else {
          PolicyRecords.put(ctx.ns().store(), batch, DefinedPolicy.newBuilder().setPath(p.path())
              .setDefinedAt(p.path()).setDirId(updated.inodeId)
              .setConsistency(SubtreePolicy.nameOf(policy.consistency()))
              .setDurability(SubtreePolicy.nameOf(policy.durability())).build());
        }
        return HomeChanges.record(ctx, batch, p, p.depth(), updated);
      });
    }
    HomeChanges.drive(ctx, synced);
    return Response.newBuilder();
  }

  private static SubtreePolicy parse(SetPolicyRequest req) throws IndexFsException {
    SubtreePolicy policy;
    try {
      policy = new SubtreePolicy(SubtreePolicy.consistency(req.getConsistency()),
          SubtreePolicy.durability(req.getDurability()));
    } catch (IllegalArgumentException e) {
      throw new IndexFsException(Code.REMOTE_JAVA_ILLEGAL_ARGUMENT, e.getMessage());
    }
    if (policy.durability() == SubtreePolicy.Durability.CLIENT_JOURNAL
        && policy.consistency() == SubtreePolicy.Consistency.STRONG) {
      // Only a client that works locally (localized, or a decoupled copy) has operations of its own
      // to journal; a strong subtree's calls are journaled by the server.
      throw new IndexFsException(Code.UNSUPPORTED, "Subtree policy durability=client-journal needs"
          + " consistency=localized or decoupled (the client journals what it does locally)");
    }
    return policy;
  }

  /** The directory, once the caller may set its policy: its owner or the superuser, as for chmod. */
  private Inode allowed(Request request, ResolvedPath p) throws IOException {
    String path = request.getSetPolicy().getPath();
    ctx.access().checkTraverse(request.getCaller(), p);
    if (p.last() == null) {
      throw IndexFsException.notFound(path);
    }
    if (!p.last().isDirectory()) {
      throw new IndexFsException(Code.NOT_DIRECTORY, "`" + path + "': Is not a directory");
    }
    ctx.access().checkOwner(request.getCaller(), p);
    return p.last();
  }
}
