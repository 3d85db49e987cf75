package org.indexfs.server.op;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.ObjectNames;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.Resolution;
import org.indexfs.proto.ConcatRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.filelease.FileLease;
import org.indexfs.server.filelease.LeaseTable;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.quota.QuotaRoot;
import org.indexfs.server.quota.Usage;
import org.rocksdb.WriteBatch;

/**
 * {@code concat} (HDFS FSDirConcatOp): appends the sources' bytes to the target, in order, and
 * removes the sources; all in the target's directory, closed, sources non-empty, as HDFS demands.
 *
 * <p>If everything fits inline, it is one batch. Otherwise the data tier's own concat moves the
 * blocks (no bytes are copied): the server holds every part open under
 * {@link LeaseTable#CONCAT_HOLDER}, turns inline parts into objects (named by their leases, so the
 * scrubber keeps them), concatenates the objects, then records the result. A failure rolls back
 * to the parts as they were. If the server dies midway, the lease monitor finishes the job from
 * the data tier's state: a source whose object is gone was consumed, so it goes; everything else
 * closes at its object's length.
 */
public final class ConcatOp implements Operation {
  private final OpContext ctx;

  public ConcatOp(OpContext ctx) {
    this.ctx = ctx;
  }

  /** One file taking part: where its entry is, what it held, the object it has or will get. */
  private record Part(long inodeId, String name, Inode inode, String object, boolean materialize) {}

  private record Plan(long parentId, List<Part> parts) {
    Part target() {
      return parts.get(0);
    }

    /** The target's length once every source is appended. */
    long totalLength() {
      return parts.stream().mapToLong(p -> p.inode().length).sum();
    }

    List<Part> sources() {
      return parts.subList(1, parts.size());
    }
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    ConcatRequest req = request.getConcat();
    if (req.getSourcesCount() == 0) {
      throw IndexFsException.invalidArgument("concat: no sources given for " + req.getTarget());
    }
    Plan plan = ctx.ns().mutate(batch -> validateAndStart(batch, request.getCaller(), request.getResolution(), req));
    if (plan == null) {
      return Response.newBuilder();
    }
    boolean concatenated = false;
    try {
      for (Part part : plan.parts()) {
        if (part.materialize()) {
          byte[] bytes = part.inode().inlineData == null ? new byte[0] : part.inode().inlineData;
          ctx.data().write(part.object(), bytes, (short) part.inode().replication, part.inode().blockSize);
          // Written by the server: the object is the file's (DESIGN §14); concat keeps the target's.
          ObjectAttributes.follow(ctx, part.object(), plan.target().inode());
        }
      }
      ctx.ns().mutate(batch -> attachObjects(batch, plan));
      List<String> sourceObjects = new ArrayList<>();
      plan.sources().forEach(s -> sourceObjects.add(s.object()));
      try {
        ctx.data().concat(plan.target().object(), sourceObjects);
      } catch (IOException e) {
        // The data tier's concat is atomic: if it happened after all (the reply was lost), the
        // target object holds every byte.
        if (ctx.data().length(plan.target().object()) != plan.totalLength()) {
          throw e;
        }
      }
      concatenated = true;
      long length = ctx.data().length(plan.target().object());
      ctx.ns().mutate(batch -> finish(batch, request.getResolution(), req.getTarget(), plan, length));
    } finally {
      if (!concatenated) {
        ctx.ns().mutate(batch -> rollBack(batch, plan));
        ctx.reclaimer().wake();
      }
      plan.parts().forEach(p -> ctx.leases().concatEnded(p.inodeId()));
    }
    return Response.newBuilder();
  }

  /** Checks HDFS's rules; concatenates inline files at once, or holds every part and returns the plan. */
  private Plan validateAndStart(WriteBatch batch, Caller caller, Resolution known, ConcatRequest req) throws IOException {
    String targetPath = req.getTarget();
    ResolvedPath t = ctx.resolver().resolve(known, targetPath);
    ctx.access().checkTraverse(caller, t);
    Inode target = requireFile(t, targetPath);
    ctx.access().checkSelf(caller, t, Permission.WRITE);
    if (target.isUnderConstruction()) {
      throw IndexFsException.invalidArgument("concat: target file " + targetPath + " is under construction");
    }
    List<ResolvedPath> sources = new ArrayList<>();
    Set<Long> seen = new HashSet<>();
    long total = target.length;
    boolean allInline = target.dataObject == null;
    for (String src : req.getSourcesList()) {
      ResolvedPath s;
      try {
        s = ctx.resolver().resolve(known, src);
      } catch (org.indexfs.common.ResolveElsewhereException e) {
        throw new IndexFsException(Code.UNSUPPORTED, "concat: source " + src
            + " is in another partition of a split directory than the target; not supported yet");
      }
      ctx.access().checkTraverse(caller, s);
      Inode file = requireFile(s, src);
      ctx.access().checkSelf(caller, s, Permission.READ);
      ctx.access().checkParent(caller, s, Permission.WRITE);
      if (s.parent().inodeId != t.parent().inodeId) {
        throw IndexFsException.invalidArgument("Source file " + src + " is not in the same directory with the target "
            + targetPath);
      }
      if (file.inodeId == target.inodeId) {
        throw IndexFsException.invalidArgument("concat: the src file " + src + " is the same with the target file "
            + targetPath);
      }
      if (file.isUnderConstruction() || file.length == 0) {
        throw IndexFsException.invalidArgument("concat: source file " + src
            + " is invalid or empty or underConstruction");
      }
      if (file.blockSize > target.blockSize) {
        throw IndexFsException.invalidArgument("concat: source file " + src + " has preferred block size "
            + file.blockSize + " which is greater than the target file's preferred block size " + target.blockSize);
      }
      if (!seen.add(file.inodeId)) {
        throw IndexFsException.invalidArgument("concat: at least two of the source files are the same");
      }
      sources.add(s);
      total += file.length;
      allInline &= file.dataObject == null;
    }
    long now = System.currentTimeMillis();
    if (allInline && total <= ctx.inlineMaxBytes()) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream((int) total);
      bytes.writeBytes(target.inlineData == null ? new byte[0] : target.inlineData);
      for (ResolvedPath s : sources) {
        bytes.writeBytes(s.last().inlineData);
        ctx.ns().deleteEntry(batch, s.parent().inodeId, s.lastName());
        ctx.ns().attrs().deleteFor(batch, s.last());
      }
      Inode updated = target.copy();
      updated.inlineData = bytes.toByteArray();
      updated.length = total;
      creditQuotas(batch, t, target, sources.stream().map(ResolvedPath::last).toList(), total);
      updated.mtime = now;
      Entries.put(ctx.ns(), batch, t, t.depth(), updated);
      Entries.touchDirectory(ctx.ns(), batch, t, t.depth() - 1, now);
      return null;
    }
    if (!ctx.data().configured()) {
      throw new IndexFsException(Code.UNSUPPORTED, "concat of files larger than indexfs.inline.max-bytes needs "
          + "a data tier (indexfs.data.uri)");
    }
    List<Part> parts = new ArrayList<>();
    parts.add(hold(batch, t));
    for (ResolvedPath s : sources) {
      parts.add(hold(batch, s));
    }
    return new Plan(t.parent().inodeId, parts);
  }

  private static Inode requireFile(ResolvedPath p, String path) throws IndexFsException {
    if (p.last() == null) {
      throw IndexFsException.notFound(path);
    }
    if (p.last().isDirectory()) {
      throw new IndexFsException(Code.IS_DIRECTORY, "Path is not a file: " + path);
    }
    return p.last();
  }

  /** Opens one part under the concat's lease; an inline part reserves the object it will become. */
  private Part hold(WriteBatch batch, ResolvedPath p) throws IOException {
    Inode file = p.last();
    boolean materialize = file.dataObject == null;
    String object = materialize ? ObjectNames.fresh(ctx.ns().slot()) : file.dataObject;
    Inode open = file.copy();
    open.flags |= Inode.FLAG_UNDER_CONSTRUCTION;
    Entries.put(ctx.ns(), batch, p, p.depth(), open);
    ctx.leases().put(batch, new FileLease(file.inodeId, LeaseTable.CONCAT_HOLDER, p.parent().inodeId, p.lastName(),
        materialize ? object : ""));
    ctx.leases().concatStarted(file.inodeId);
    return new Part(file.inodeId, p.lastName(), file, object, materialize);
  }

  /**
   * The part's entry while the concat still holds it, found through its lease (which follows a
   * rename); null once it was deleted or replaced (that released the lease).
   */
  private Held held(Part part) throws IOException {
    FileLease lease = ctx.leases().get(part.inodeId());
    if (lease == null || !LeaseTable.CONCAT_HOLDER.equals(lease.holder())) {
      return null;
    }
    Inode entry = ctx.ns().lookup(lease.parentId(), lease.name());
    return entry != null && entry.inodeId == part.inodeId() ? new Held(lease, entry) : null;
  }

  private record Held(FileLease lease, Inode entry) {
    void put(OpContext ctx, WriteBatch batch, Inode updated) throws IOException {
      ctx.ns().putEntry(batch, lease.parentId(), lease.name(), updated);
    }
  }

  /** The inline parts now live in their new objects. */
  private Void attachObjects(WriteBatch batch, Plan plan) throws IOException {
    for (Part part : plan.parts()) {
      Held h = held(part);
      if (h == null) {
        throw new IndexFsException(Code.STALE_HANDLE, "concat: " + part.name()
            + " was deleted or replaced during the concat");
      }
      if (part.materialize()) {
        Inode entry = h.entry();
        entry.inlineData = null;
        entry.dataObject = part.object();
        h.put(ctx, batch, entry);
      }
    }
    return null;
  }

  /** The target holds everything; the sources go. */
  /** The sources go and their bytes join the target: the quotas above (all in one directory) see the difference. */
  private void creditQuotas(WriteBatch batch, ResolvedPath t, Inode target, List<Inode> sources, long length)
      throws IOException {
    long space = length * target.replication - Usage.space(target);
    for (Inode s : sources) {
      space -= Usage.space(s);
    }
    ctx.quotas().credit(batch, QuotaRoot.above(t, t.depth()), -sources.size(), space);
  }

  private Void finish(WriteBatch batch, Resolution known, String targetPath, Plan plan, long length) throws IOException {
    long now = System.currentTimeMillis();
    ResolvedPath before = ctx.resolver().resolve(known, targetPath);
    List<Inode> gone = new ArrayList<>();
    Inode targetBefore = null;
    for (Part part : plan.parts()) {
      Held h = held(part);
      if (h != null && part == plan.target()) {
        targetBefore = h.entry().copy();
      } else if (h != null) {
        gone.add(h.entry());
      }
    }
    if (targetBefore != null && before.last() != null && before.last().inodeId == targetBefore.inodeId) {
      creditQuotas(batch, before, targetBefore, gone, length);
    }
    for (Part part : plan.parts()) {
      Held h = held(part);
      if (h == null) {
        continue;
      }
      ctx.leases().release(batch, part.inodeId());
      if (part == plan.target()) {
        Inode entry = h.entry();
        entry.flags &= ~Inode.FLAG_UNDER_CONSTRUCTION;
        entry.length = length;
        entry.mtime = now;
        h.put(ctx, batch, entry);
      } else {
        ctx.ns().deleteEntry(batch, h.lease().parentId(), h.lease().name());
        ctx.ns().attrs().deleteFor(batch, h.entry());
      }
    }
    ResolvedPath t = ctx.resolver().resolve(known, targetPath);
    if (t.parent() != null && t.parent().inodeId == plan.parentId()) {
      Entries.touchDirectory(ctx.ns(), batch, t, t.depth() - 1, now);
    }
    return null;
  }

  /**
   * Back to the parts as they were: closed, and objects made for them dropped unless an entry
   * records them. (A part no longer held was deleted or replaced; that reclaimed a recorded object.)
   */
  private Void rollBack(WriteBatch batch, Plan plan) throws IOException {
    for (Part part : plan.parts()) {
      Held h = held(part);
      boolean recorded = h != null && part.object().equals(h.entry().dataObject);
      if (part.materialize() && !recorded) {
        ctx.reclaimer().reclaimObject(batch, part.object());
      }
      if (h == null) {
        continue;
      }
      ctx.leases().release(batch, part.inodeId());
      Inode entry = h.entry();
      entry.flags &= ~Inode.FLAG_UNDER_CONSTRUCTION;
      h.put(ctx, batch, entry);
    }
    return null;
  }
}
