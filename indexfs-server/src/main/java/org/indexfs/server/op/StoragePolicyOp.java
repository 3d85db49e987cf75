package org.indexfs.server.op;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.BlockStoragePolicySpi;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.StoragePolicyRequest;
import org.indexfs.proto.StoragePolicyResult;
import org.indexfs.server.lease.EntryLeases;
import org.indexfs.server.ns.OwnStoragePolicy;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.store.AttrTable.XAttrValue;

/**
 * {@code setStoragePolicy}, {@code unsetStoragePolicy} and one step of {@code getStoragePolicy}, as
 * HDFS's FSDirAttrOp. The entry's own policy id is kept where HDFS keeps a directory's: the hidden
 * attribute {@code system.hsm.block.storage.policy.id} (nobody sees {@code system.} attributes, and
 * they do not count against the per-entry limit), so entries without one keep the fixed-width fast
 * path and splits and the journal carry it like any attribute row. The policies themselves are the
 * data tier's NameNode's: the client names them, and the server takes only one of the data tier's,
 * by id and name together, with the data tier's own copy-on-create flag (issue 31: a forged id
 * 0xFFFF named "../../x" was stored and broke getStoragePolicy below it for everyone). A file
 * with a data object has the policy applied to its object, so the data tier places its blocks
 * accordingly.
 */
public final class StoragePolicyOp implements Operation {
  public static final String XATTR = OwnStoragePolicy.XATTR;

  private final OpContext ctx;
  /** The data tier's policies, read once: an HDFS NameNode's suite does not change while it runs. */
  private volatile List<BlockStoragePolicySpi> policies;

  public StoragePolicyOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    StoragePolicyRequest req = request.getStoragePolicy();
    int id = req.getAction() == StoragePolicyRequest.Action.GET ? get(request, req) : set(request, req);
    return Response.newBuilder().setStoragePolicy(StoragePolicyResult.newBuilder().setPolicyId(id));
  }

  private int get(Request request, StoragePolicyRequest req) throws IOException {
    Caller caller = request.getCaller();
    return ctx.ns().read(none -> {
      ResolvedPath p = ctx.resolver().resolve(request.getResolution(), req.getPath());
      ctx.access().checkTraverse(caller, p);
      Inode entry = p.last();
      if (entry == null) {
        throw notFound(req.getPath());
      }
      if (!req.getInherited()) {
        ctx.access().checkSelf(caller, p, Permission.READ);
      }
      return OwnStoragePolicy.id(ctx.ns().attrs(), entry);
    });
  }

  private int set(Request request, StoragePolicyRequest req) throws IOException {
    Caller caller = request.getCaller();
    boolean unset = req.getAction() == StoragePolicyRequest.Action.UNSET;
    if (!unset && req.getAction() != StoragePolicyRequest.Action.SET) {
      throw IndexFsException.invalidArgument("Unknown storage policy action " + req.getActionValue());
    }
    BlockStoragePolicySpi policy = unset ? null : known(req);
    String[] object = new String[1];
    // Clients cache a directory's policy with its entry (Ancestor.storage_policy, for the objects of
    // files made below it): like chmod, wait out the leases on it first.
    try (EntryLeases.Revocation revoked = DirectoryLeases.revoke(ctx, request.getResolution(), req.getPath())) {
      apply(request, req, caller, policy, object);
    }
    if (object[0] != null) {
      // After the entry: the object follows, as setReplication's does. Unset leaves the object's
      // policy as it was (HDFS does not move blocks on unset either; the mover would).
      ctx.data().setStoragePolicy(object[0], policy.getName());
    }
    return 0;
  }

  /**
   * The data tier's policy {@code req} names: its id and its exact name must be one policy's (a
   * Hadoop client sends both as the data tier's NameNode told it).
   */
  private BlockStoragePolicySpi known(StoragePolicyRequest req) throws IOException {
    List<BlockStoragePolicySpi> all = policies;
    if (all == null) {
      all = List.copyOf(ctx.data().storagePolicies());
      if (all.isEmpty()) {
        throw new IndexFsException(Code.UNSUPPORTED, "setStoragePolicy: storage policies are the data tier's, and "
            + (ctx.data().configured() ? ctx.data().dataUri() + " has none" : "this cluster has no indexfs.data.uri"));
      }
      policies = all;
    }
    for (BlockStoragePolicySpi p : all) {
      if (p.getName().equals(req.getPolicyName())) {
        if (policyId(p) != req.getPolicyId()) {
          throw new IndexFsException(Code.REMOTE_ILLEGAL_ARGUMENT, "Storage policy " + p.getName() + " has id "
              + policyId(p) + " on the data tier, not " + Integer.toUnsignedString(req.getPolicyId()));
        }
        return p;
      }
    }
    // The NameNode's words for a name it does not know (FSDirAttrOp.setStoragePolicy).
    throw new IndexFsException(Code.REMOTE_ILLEGAL_ARGUMENT, "Cannot find a block policy with the name "
        + req.getPolicyName());
  }

  private static int policyId(BlockStoragePolicySpi p) {
    return p instanceof BlockStoragePolicy b ? b.getId() : -1;
  }

  /**
   * HDFS refuses a copy-on-create policy on an existing file. A policy that reached us over RPC has
   * lost the flag (PBHelperClient does not carry it); HDFS's only such policy is LAZY_PERSIST.
   */
  private static boolean copyOnCreate(BlockStoragePolicySpi p) {
    return p.isCopyOnCreateFile() || policyId(p) == HdfsConstants.MEMORY_STORAGE_POLICY_ID;
  }

  private void apply(Request request, StoragePolicyRequest req, Caller caller, BlockStoragePolicySpi policy,
      String[] object) throws IOException {
    boolean unset = policy == null;
    ctx.ns().mutateLocked(m -> {
      object[0] = null;
      ResolvedPath p = ctx.resolver().resolveForUpdate(m, request.getResolution(), req.getPath());
      ctx.access().checkTraverse(caller, p);
      Inode entry = p.last();
      if (entry != null && entry.isDirectory()) {
        // A directory's entry is also written under its own lock (mtime): run alone, as SetXAttrOp.
        m.exclusive();
      }
      if (entry == null) {
        throw notFound(req.getPath());
      }
      ctx.access().checkSelf(caller, p, Permission.WRITE);
      if (!unset && !entry.isDirectory() && copyOnCreate(policy)) {
        throw new IndexFsException(Code.REMOTE_ILLEGAL_ARGUMENT,
            "Policy " + policy + " cannot be set after file creation.");
      }
      List<XAttrValue> existing = XAttrChange.existing(ctx, entry);
      boolean had = existing.stream().anyMatch(x -> x.name().equals(XATTR));
      Inode updated = entry.copy();
      if (unset) {
        if (had) {
          ctx.ns().attrs().deleteXAttr(m.batch(), entry.inodeId, XATTR);
          if (existing.size() == 1) {
            updated.flags &= ~Inode.FLAG_XATTRS;
          }
        }
      } else {
        long order = existing.stream().mapToLong(XAttrValue::order).max().orElse(0) + 1;
        ctx.ns().attrs().putXAttr(m.batch(), entry.inodeId, XATTR, OwnStoragePolicy.encode(policyId(policy), policy.getName()), order);
        updated.flags |= Inode.FLAG_XATTRS;
      }
      if (updated.flags != entry.flags) {
        Entries.put(ctx.ns(), m.batch(), p, p.depth(), updated);
      }
      if (!entry.isDirectory() && !unset) {
        object[0] = entry.dataObject;
      }
      return null;
    });
  }

  private static IndexFsException notFound(String path) {
    return new IndexFsException(Code.FILE_NOT_FOUND, "File/Directory does not exist: " + path);
  }
}
