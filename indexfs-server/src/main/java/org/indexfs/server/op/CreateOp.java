package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.ReservedNames;
import org.indexfs.common.ObjectNames;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Code;
import org.indexfs.proto.CreateRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.acl.CreateModes;
import org.indexfs.server.call.Call;
import org.indexfs.server.filelease.FileLease;
import org.indexfs.server.quota.QuotaRoot;
import org.indexfs.server.quota.Usage;
import org.indexfs.server.ns.OwnStoragePolicy;
import org.indexfs.server.ns.ResolvedPath;
import org.rocksdb.WriteBatch;

/**
 * {@code create}: makes a new, empty file visible at once (its length arrives with
 * {@link CompleteOp}) and gives the caller its write lease. Overwrite replaces an existing file
 * (even one being written, as HDFS does) and reclaims its data object. Without overwrite, a file
 * being written by a live client answers ALREADY_BEING_CREATED, as in HDFS.
 */
public final class CreateOp implements Operation {
  private final OpContext ctx;
  private final long minBlockSize;

  public CreateOp(OpContext ctx, long minBlockSize) {
    this.ctx = ctx;
    this.minBlockSize = minBlockSize;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    return apply(Call.detached(request));
  }

  @Override
  public Response.Builder apply(Call call) throws IOException {
    Request request = call.request();
    CreateRequest req = request.getCreate();
    org.indexfs.common.PathNames.checkPathLength("create", req.getPath());
    java.util.List<String> names = ctx.resolver().parse(req.getPath());
    ReservedNames.refuseReservedPath(names, req.getPath());
    SnapshotPaths.checkCreatable(ctx, request.getResolution(), names);
    if (req.getReplication() == 0 || Integer.compareUnsigned(req.getReplication(), Short.MAX_VALUE) > 0) {
      throw IndexFsException.invalidArgument("Invalid replication " + Integer.toUnsignedString(req.getReplication()));
    }
    Replication.check(req.getPath(), req.getReplication());
    if (req.getBlockSize() == 0) {
      throw IndexFsException.invalidArgument("Invalid block size 0");
    }
    if (req.getBlockSize() < minBlockSize) {
      // HDFS checks this before anything else (FSNamesystem.startFileInt), with these words.
      throw new IndexFsException(Code.REFUSED, "Specified block size " + req.getBlockSize()
          + " is less than configured minimum value dfs.namenode.fs-limits.min-block-size=" + minBlockSize);
    }
    String holder = Writers.holder(request.getCaller());
    DirectoryTouches touches = new DirectoryTouches();
    Writers.Outcome<Created> outcome = ctx.ns().mutateLocked(m -> {
      WriteBatch batch = m.batch();
      ResolvedPath p = ctx.resolver().resolveForUpdate(m, request.getResolution(), req.getPath());
      if (p.isRoot()) {
        throw new IndexFsException(Code.FILE_ALREADY_EXISTS, "/ already exists as a directory");
      }
      ctx.access().checkTraverseToCreate(request.getCaller(), p);
      if (!req.getCreateParent()) {
        verifyParent(p);
      }
      if (p.ancestorIsFile()) {
        throw IndexFsException.parentNotDirectory(p.pathAt(p.existingCount() - 1));
      }
      long now = System.currentTimeMillis();
      Inode old = p.last();
      if (old != null) {
        if (old.isDirectory()) {
          throw new IndexFsException(Code.FILE_ALREADY_EXISTS, p.path() + " already exists as a directory");
        }
        if (!req.getOverwrite()) {
          IndexFsException exists = new IndexFsException(Code.FILE_ALREADY_EXISTS,
              p.path() + " for client " + call.callerIp() + " already exists");
          if (old.isUnderConstruction()) {
            m.exclusive();
            // HDFS recovers an abandoned file before refusing: the refusal must not undo that.
            boolean recovering = ctx.recovery().preempt(batch, p.parent().inodeId, p.lastName(), old, holder,
                p.path(), "CREATE_FILE").recovering();
            return Writers.Outcome.failed(recovering ? new IndexFsException(Code.RECOVERY_IN_PROGRESS,
                "Failed to CREATE_FILE " + p.path() + " for " + holder
                    + " because lease recovery is in progress. Try again later.") : exists);
          }
          throw exists;
        }
        ctx.access().checkSelf(request.getCaller(), p, Permission.WRITE);
        if (old.isUnderConstruction()) {
          m.exclusive();
          ctx.leases().release(batch, old.inodeId);
        }
      }
      Inode parent;
      if (p.existingCount() < p.depth()) {
        if (!req.getCreateParent()) {
          throw new IndexFsException(Code.FILE_NOT_FOUND, "Parent directory doesn't exist: " + p.pathAt(p.depth() - 1));
        }
        ctx.access().checkAncestor(request.getCaller(), p, Permission.WRITE);
        // As HDFS's createAncestorDirectories: missing parents copy the nearest existing
        // directory's mode (plus u+wx), not the new file's.
        parent = Entries.createDirectories(ctx, batch, request.getCaller(), p, p.depth() - 1,
            CreateModes.of(Permission.withImplicitUserWriteExecute(p.deepestExisting().permission)), false, now, touches);
      } else {
        ctx.access().checkParent(request.getCaller(), p, Permission.WRITE);
        parent = p.parent();
        Entries.touchDirectory(ctx, batch, p, p.depth() - 1, now, touches);
      }
      if (old != null && old.dataObject != null) {
        ctx.reclaimer().reclaimObject(batch, old.dataObject);
      }
      if (old != null) {
        ctx.ns().attrs().deleteFor(batch, old);
      }
      // Quotas above: the new file and any parents it makes, less the file it replaces.
      long made = 1 + Math.max(0, p.depth() - p.existingCount()) - (old != null ? 1 : 0);
      if (made > 1) {
        ctx.quotas().chargeOneByOne(m, QuotaRoot.above(p, p.depth()), made);
      } else {
        ctx.quotas().charge(m, QuotaRoot.above(p, p.depth()), made, -Usage.space(old));
      }
      Inode file = new Inode();
      file.type = Inode.TYPE_FILE;
      file.flags = Inode.FLAG_UNDER_CONSTRUCTION;
      file.inodeId = ctx.ns().newInodeId();
      Entries.inherit(ctx.ns(), file, parent,
          new CreateModes(req.getPermission(), req.hasUnmasked() ? req.getUnmasked() : null));
      file.permission &= ~Permission.STICKY;
      file.ownerId = ctx.ns().principals().idOf(request.getCaller().getUser());
      file.groupId = parent.groupId;
      file.replication = req.getReplication();
      file.blockSize = req.getBlockSize();
      file.mtime = file.atime = now;
      file.zerothSlot = ctx.ns().slot();
      Entries.putNew(ctx.ns(), batch, parent.inodeId, p.lastName(), file);
      // The object this writer creates if the file outgrows the inline limit (ObjectNames)...
      String spillObject = ObjectNames.fresh(ctx.ns().slot());
      // ...with the policy HDFS would place the new file's blocks by (flag tests unless some has one).
      String spillPolicy = OwnStoragePolicy.inherited(ctx.ns().attrs(), p, request.getResolution().getAncestorsList());
      ctx.leases().grant(batch, new FileLease(file.inodeId, holder, parent.inodeId, p.lastName(), spillObject,
          QuotaRoot.above(p, p.depth())));
      return Writers.Outcome.of(new Created(file, parent.inodeId, spillObject, spillPolicy));
    });
    if (outcome.error() != null) {
      ctx.reclaimer().wake();
    }
    Created created = outcome.get();
    touches.send(ctx);
    ctx.splits().noteInsert(created.parentId());
    return Response.newBuilder().setStatus(ctx.ns().toStatus(lastName(req.getPath()), created.file()).toBuilder()
        .setSpillObject(created.spillObject()).setSpillPolicy(created.spillPolicy()));
  }

  /** What the create's batch made: the file, its parent, and where and how its data goes if it spills. */
  private record Created(Inode file, long parentId, String spillObject, String spillPolicy) {}

  /** A create that may not make parents needs its parent, a directory (HDFS FSDirectory.verifyParentDir). */
  private static void verifyParent(ResolvedPath p) throws IndexFsException {
    if (p.existingCount() < p.depth()) {
      throw new IndexFsException(Code.FILE_NOT_FOUND, "Parent directory doesn't exist: " + p.pathAt(p.depth() - 1));
    }
    if (p.parent() == null) {
      throw new IndexFsException(Code.PARENT_NOT_DIRECTORY, "Parent path is not a directory: " + p.pathAt(p.depth() - 1));
    }
  }

  static String lastName(String path) {
    int i = path.lastIndexOf('/');
    String name = path.substring(i + 1);
    if (name.isEmpty() && path.length() > 1) {
      return lastName(path.substring(0, path.length() - 1));
    }
    return name;
  }
}
