package org.indexfs.server.op;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.permission.AclEntry;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Code;
import org.indexfs.proto.AclEditRequest;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.acl.AclCodec;
import org.indexfs.server.acl.AclModel;
import org.indexfs.server.acl.AclSwitch;
import org.indexfs.server.acl.AclTransform;
import org.indexfs.server.lease.EntryLeases;
import org.indexfs.server.ns.ResolvedPath;

/**
 * HDFS's five ACL changes (FSDirAclOp: modifyAclEntries, removeAclEntries, removeDefaultAcl,
 * removeAcl, setAcl): only the owner or a superuser; the change is computed on the full logical
 * ACL and stored back as permission bits plus the extended entries. Like chmod it changes a
 * directory's access attributes, so it runs alone after clients' leases on the entry have
 * expired, and a directory homed elsewhere has its home's copy brought in step.
 */
public final class AclEditOp implements Operation {
  private final OpContext ctx;
  private final AclSwitch acls;

  public AclEditOp(OpContext ctx, AclSwitch acls) {
    this.ctx = ctx;
    this.acls = acls;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    AclEditRequest req = request.getAclEdit();
    Caller caller = request.getCaller();
    acls.check();
    if (req.getAction() == AclEditRequest.Action.UNRECOGNIZED) {
      throw IndexFsException.invalidArgument("Unknown ACL change " + req.getActionValue());
    }
    List<AclEntry> spec = new ArrayList<>();
    for (org.indexfs.proto.AclEntry e : req.getSpecList()) {
      // Enums and an FsAction from the wire: a value no Hadoop client can send is refused, not masked.
      if (e.getScope() == org.indexfs.proto.AclEntry.Scope.UNRECOGNIZED
          || e.getType() == org.indexfs.proto.AclEntry.Type.UNRECOGNIZED
          || Integer.compareUnsigned(e.getPermission(), 7) > 0) {
        throw IndexFsException.invalidArgument("Invalid ACL entry: scope " + e.getScopeValue() + ", type "
            + e.getTypeValue() + ", permission " + Integer.toUnsignedString(e.getPermission()));
      }
      spec.add(AclCodec.fromProto(e));
    }
    long synced;
    try (EntryLeases.Revocation revoked = DirectoryLeases.revoke(ctx, request.getResolution(), req.getPath())) {
      // A file's data object takes the new ACL first, as chmod changes an object first (DESIGN §14).
      Object[] object = ctx.ns().read(none -> {
        ResolvedPath p = checked(request, caller);
        Inode entry = p.last();
        if (entry.isDirectory() || entry.dataObject == null) {
          return null;
        }
        AclModel.Applied applied = applied(entry, req, spec);
        return new Object[] {entry.dataObject, applied};
      });
      if (object != null) {
        AclModel.Applied applied = (AclModel.Applied) object[1];
        ctx.data().followAcl((String) object[0], (short) (applied.permission() & 0777),
            AclModel.logical(applied.permission(), applied.acl()));
      }
      synced = ctx.ns().mutate(batch -> {
        ResolvedPath p = checked(request, caller);
        Inode entry = p.last();
        AclModel.Applied applied = applied(entry, req, spec);
        Inode updated = entry.copy();
        updated.permission = applied.permission();
        updated.acl = applied.acl();
        if (applied.acl() != null) {
          updated.flags |= Inode.FLAG_ACL;
          ctx.ns().attrs().putAcl(batch, entry.inodeId, applied.acl());
        } else {
          updated.flags &= ~Inode.FLAG_ACL;
          ctx.ns().attrs().deleteAcl(batch, entry.inodeId);
        }
        Entries.put(ctx.ns(), batch, p, p.depth(), updated);
        return HomeChanges.record(ctx, batch, p, p.depth(), updated);
      });
    }
    HomeChanges.drive(ctx, synced);
    return Response.newBuilder();
  }

  /** The entry the call names, after HDFS's checks: traverse, existence, ownership. */
  private ResolvedPath checked(Request request, Caller caller) throws IOException {
    AclEditRequest req = request.getAclEdit();
    ResolvedPath p = ctx.resolver().resolve(request.getResolution(), req.getPath());
    ctx.access().checkTraverse(caller, p);
    if (p.last() == null) {
      // FSDirectory.checkOwner's words, for every caller.
      throw new IndexFsException(Code.FILE_NOT_FOUND, "Directory/File does not exist " + req.getPath());
    }
    ctx.access().checkOwner(caller, p);
    return p;
  }

  /** The entry's permission bits and stored ACL after the change. */
  private AclModel.Applied applied(Inode entry, AclEditRequest req, List<AclEntry> spec) throws IOException {
    byte[] stored = entry.has(Inode.FLAG_ACL) ? ctx.ns().withAcl(entry.copy()).acl : null;
    AclModel.Applied applied;
    if (req.getAction() == AclEditRequest.Action.REMOVE) {
      applied = AclModel.remove(entry.permission, stored);
    } else try {
      List<AclEntry> existing = AclModel.logical(entry.permission, stored);
      List<AclEntry> changed = switch (req.getAction()) {
        case MODIFY -> AclTransform.merge(existing, spec);
        case REMOVE_ENTRIES -> AclTransform.filter(existing, spec);
        case REMOVE_DEFAULT -> AclTransform.filterDefault(existing);
        case SET -> AclTransform.replace(existing, spec);
        default -> throw new IllegalArgumentException("Unknown ACL change " + req.getAction());
      };
      applied = AclModel.store(entry.permission, entry.isDirectory(), changed, req.getPath());
    } catch (IndexFsException invalid) {
      // FSDirAclOp names the path after any refusal of the ACL itself.
      throw new IndexFsException(invalid.code(), invalid.getMessage() + " Path: " + req.getPath());
    }
    return applied;
  }
}
