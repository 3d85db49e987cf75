package org.indexfs.server.snapshot;

import java.io.IOException;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.List;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.FileType;
import org.indexfs.proto.OpenResult;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.SnapshotPage;
import org.indexfs.proto.SnapshotRequest;
import org.indexfs.server.op.DirectoryFlags;
import org.indexfs.server.op.DirectoryMtime;
import org.indexfs.server.op.OpContext;
import org.indexfs.server.op.Operation;
import org.indexfs.server.acl.AclSwitch;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.xattr.XAttrRules;

/**
 * Snapshots (issue 17) as HDFS's FSDirSnapshotOp: allow/disallow at the slot holding the
 * directory's entry (superuser), create/rename/delete and every read below {@code .snapshot} at
 * the directory's home, where its snapshots are kept ({@link SnapshotTable}, {@link SnapshotTaker}).
 * The barrier and scan requests between servers are answered here too.
 */
public final class SnapshotOp implements Operation {
  private final OpContext ctx;
  private final SnapshotGate gate;
  private final SnapshotTable table;
  private final SnapshotTaker taker;
  private final SnapshotAttrs attrs;
  private final MovedDirectories moves;

  public SnapshotOp(OpContext ctx, SnapshotGate gate, XAttrRules xattrRules, AclSwitch acls) {
    this.ctx = ctx;
    this.gate = gate;
    this.table = new SnapshotTable(ctx.ns());
    this.taker = new SnapshotTaker(ctx, gate, table);
    this.attrs = new SnapshotAttrs(table, xattrRules, acls);
    this.moves = new MovedDirectories(ctx, gate, table);
    gate.pinned().useHomes(new PinnedPaths.Homes() {
      @Override
      public List<PinnedPaths.Pinned> all() throws IOException {
        return withSnapshots();
      }

      @Override
      public boolean hasSnapshots(PinnedPaths.Pinned p) throws IOException {
        return p.home() == ctx.ns().slot() ? !table.snapshots(p.dirId()).isEmpty()
            : ctx.peers().call(p.home(), Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder()
                .setAction(SnapshotRequest.Action.COUNT).setDirId(p.dirId()))).getSnapshotPage().getCount() > 0;
      }

      @Override
      public List<PinnedPaths.Pinned> snapshottable() throws IOException {
        return moves.all();
      }

      @Override
      public void moved(String src, String dst) {
        moves.moved(src, dst);
      }
    });
  }

  /** Every slot's snapshottable directories that have snapshots (a slot learning them at its start). */
  private List<PinnedPaths.Pinned> withSnapshots() throws IOException {
    List<PinnedPaths.Pinned> out = new java.util.ArrayList<>();
    for (int s = 0; s < ctx.peers().slotCount(); s++) {
      SnapshotPage.Builder page = SnapshotPage.newBuilder();
      if (s == ctx.ns().slot()) {
        listDirs(Caller.getDefaultInstance(), true, page);
      } else {
        page.mergeFrom(ctx.peers().call(s, Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder()
            .setAction(SnapshotRequest.Action.LIST_DIRS).setOn(true))).getSnapshotPage());
      }
      for (int i = 0; i < page.getPathsCount(); i++) {
        out.add(new PinnedPaths.Pinned(page.getPaths(i), page.getDirIds(i), s));
      }
    }
    return out;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    SnapshotRequest r = request.getSnapshot();
    Caller caller = request.getCaller();
    SnapshotPage.Builder page = SnapshotPage.newBuilder();
    switch (r.getAction()) {
      case ALLOW, DISALLOW -> allow(request, r, r.getAction() == SnapshotRequest.Action.ALLOW);
      case CREATE -> page.addPaths(create(request, r));
      case RENAME -> rename(request, r);
      case DELETE -> delete(request, r);
      case STAT -> page.addEntries(read(request, r, false));
      case LIST -> list(request, r, page);
      case OPEN -> page.addEntries(read(request, r, true));
      case ACL, XATTRS -> attrs(request, r, page);
      case LIST_DIRS -> listDirs(caller, r.getOn(), page);
      case REGISTERED -> moves.registered(page);
      case COUNT -> page.setCount(table.snapshots(r.getDirId()).size());
      case REGISTER -> register(r.getDirId(), r.getPath(), r.getOn());
      case HOLD, TAKE, OPEN_GATE, RELEASE -> SnapshotTaker.peerAction(gate, r);
      case FORGET -> gate.pinned().remove(r.getDirId());
      case TRACK -> gate.pinned().track(new PinnedPaths.Pinned(r.getPath(), r.getDirId(), r.getHomeSlot()), r.getOn(), false);
      case MOVED -> moves.movedHere(r.getPath(), r.getNewName());
      case SCAN -> {
        return Response.newBuilder().setSnapshotPage(SnapshotTaker.scanHere(ctx, gate, r));
      }
      case ROWS -> {
        return Response.newBuilder().setSnapshotPage(SnapshotTaker.rowsHere(ctx, gate, r));
      }
      default -> throw new IndexFsException(Code.INVALID_ARGUMENT, "Unknown snapshot action " + r.getAction());
    }
    return Response.newBuilder().setSnapshotPage(page);
  }

  private void superuser(Caller caller, String command) throws IndexFsException {
    if (ctx.access().enabled() && !ctx.access().isSuperuser(caller)) {
      throw new IndexFsException(Code.ACCESS_DENIED, "Access denied for user " + caller.getUser()
          + ". Superuser privilege is required for operation " + command);
    }
  }

  /** The directory at the slot the request reached (its entry's slot, or its home for {@code into} calls). */
  private ResolvedPath directory(Request request, String path, boolean into) throws IOException {
    ResolvedPath p = ctx.ns().read(none -> into ? ctx.resolver().resolveInto(request.getResolution(), path)
        : ctx.resolver().resolve(request.getResolution(), path));
    ctx.access().checkTraverse(request.getCaller(), p);
    if (p.last() == null) {
      throw IndexFsException.notFound(path);
    }
    if (!p.last().isDirectory()) {
      throw new IndexFsException(Code.REMOTE_NOT_DIRECTORY, path + " is not a directory");
    }
    return p;
  }

  private void allow(Request request, SnapshotRequest r, boolean on) throws IOException {
    superuser(request.getCaller(), on ? "allowSnapshot" : "disallowSnapshot");
    ResolvedPath p = ctx.ns().read(none -> ctx.resolver().resolve(request.getResolution(), r.getPath()));
    ctx.access().checkTraverse(request.getCaller(), p);
    if (p.last() == null) {
      throw new IndexFsException(Code.FILE_NOT_FOUND, "Directory does not exist: " + r.getPath());
    }
    if (!p.last().isDirectory()) {
      throw new IndexFsException(Code.REMOTE_NOT_DIRECTORY, r.getPath() + " is not a directory");
    }
    Inode dir = p.last();
    if (on && !dir.has(Inode.FLAG_SNAPSHOTTABLE)) {
      refuseNested(p, r.getPath());
    }
    if (!on && dir.has(Inode.FLAG_SNAPSHOTTABLE) && count(dir) > 0) {
      throw new IndexFsException(Code.SNAPSHOT, "The directory " + r.getPath() + " has snapshot(s). "
          + "Please redo the operation after removing all the snapshots.");
    }
    SnapshotRequest.Builder reg = SnapshotRequest.newBuilder().setAction(SnapshotRequest.Action.REGISTER)
        .setDirId(dir.inodeId).setPath(r.getPath()).setOn(on);
    if (dir.zerothSlot == ctx.ns().slot()) {
      register(dir.inodeId, r.getPath(), on);
    } else {
      ctx.peers().call(dir.zerothSlot, Request.newBuilder().setSnapshot(reg));
    }
    if (on != dir.has(Inode.FLAG_SNAPSHOTTABLE)) {
      DirectoryFlags.set(ctx, request.getResolution(), r.getPath(), Inode.FLAG_SNAPSHOTTABLE, on);
    }
    // Every slot follows it through renames from now on (or stops).
    moves.track(dir.inodeId, r.getPath(), dir.zerothSlot, on);
  }

  /**
   * The snapshottable directories homed here: all of them for the superuser (and servers), else the
   * caller's own, as HDFS's getSnapshottableDirListing (the owner as this home's copy of the
   * directory's attributes says). {@code withSnapshots}: only those that have snapshots.
   */
  private void listDirs(Caller caller, boolean withSnapshots, SnapshotPage.Builder page) throws IOException {
    boolean all = withSnapshots || !ctx.access().enabled() || ctx.access().isSuperuser(caller);
    for (String[] d : moves.live()) {
      long id = Long.parseLong(d[0]);
      int n = table.snapshots(id).size();
      if (withSnapshots && n == 0) {
        continue;
      }
      if (!all) {
        Inode record = ctx.ns().partition(id);
        if (record == null || !ctx.ns().principals().nameOf(record.ownerId).equals(caller.getUser())) {
          continue;
        }
      }
      page.addPaths(d[1]).addDirIds(id).addSnapshotCounts(n);
    }
  }

  /**
   * HDFS does not nest snapshottable directories (SnapshotManager.checkNestedSnapshottable, in its
   * words): none above (the walk's directories carry the flag), none below (every slot's records,
   * by their current paths: renames rewrite them, {@link MovedDirectories}).
   */
  private void refuseNested(ResolvedPath p, String path) throws IOException {
    String below = path.equals("/") ? "/" : path + "/";
    for (int s = 0; s < ctx.peers().slotCount(); s++) {
      List<String> paths = new java.util.ArrayList<>();
      if (s == ctx.ns().slot()) {
        moves.live().forEach(d -> paths.add(d[1]));
      } else {
        paths.addAll(ctx.peers().call(s, Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder()
            .setAction(SnapshotRequest.Action.REGISTERED))).getSnapshotPage().getPathsList());
      }
      for (String sub : paths) {
        if (sub.startsWith(below)) {
          throw new IndexFsException(Code.SNAPSHOT, "Nested snapshottable directories not allowed: path=" + path
              + ", the subdirectory " + sub + " is already a snapshottable directory.");
        }
      }
    }
    for (int i = 0; i < p.depth(); i++) {
      if (p.inodeAt(i) != null && p.inodeAt(i).has(Inode.FLAG_SNAPSHOTTABLE)) {
        throw new IndexFsException(Code.SNAPSHOT, "Nested snapshottable directories not allowed: path=" + path
            + ", the ancestor " + p.pathAt(i) + " is already a snapshottable directory.");
      }
    }
  }

  /** How many snapshots {@code dir} has, asked of its home. */
  public static long count(OpContext ctx, Inode dir) throws IOException {
    if (dir.zerothSlot == ctx.ns().slot()) {
      return new SnapshotTable(ctx.ns()).snapshots(dir.inodeId).size();
    }
    return ctx.peers().call(dir.zerothSlot, Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder()
        .setAction(SnapshotRequest.Action.COUNT).setDirId(dir.inodeId))).getSnapshotPage().getCount();
  }

  /**
   * HDFS refuses to delete a directory above a snapshottable one that has snapshots. Every slot is
   * asked for its snapshottable directories with snapshots (by the paths recorded; renames follow
   * them, {@link MovedDirectories}, and none with snapshots can move).
   */
  public static void refuseDeleteAbove(OpContext ctx, String path) throws IOException {
    String prefix = path.equals("/") ? "/" : path + "/";
    SnapshotRequest.Builder ask = SnapshotRequest.newBuilder().setAction(SnapshotRequest.Action.LIST_DIRS).setOn(true);
    for (int s = 0; s < ctx.peers().slotCount(); s++) {
      List<String> paths;
      if (s == ctx.ns().slot()) {
        SnapshotTable here = new SnapshotTable(ctx.ns());
        paths = new java.util.ArrayList<>();
        for (String[] d : here.registered()) {
          if (!here.snapshots(Long.parseLong(d[0])).isEmpty()) {
            paths.add(d[1]);
          }
        }
      } else {
        paths = ctx.peers().call(s, Request.newBuilder().setSnapshot(ask)).getSnapshotPage().getPathsList();
      }
      for (String p : paths) {
        if (p.startsWith(prefix)) {
          // HDFS names the snapshottable directory twice (FSDirSnapshotOp.checkSnapshot).
          throw new IndexFsException(Code.SNAPSHOT, "The directory " + p + " cannot be deleted since " + p
              + " is snapshottable and already has snapshots");
        }
      }
    }
  }

  /**
   * HDFS refuses a rename with overwrite onto a snapshottable directory that has snapshots
   * (FSDirRenameOp.unprotectedRenameTo → FSDirSnapshotOp.checkSnapshot, after the destination's own
   * checks). Only a replaced directory flagged snapshottable is asked about (its home: local when
   * the whole directory is here).
   */
  public static void refuseReplacing(OpContext ctx, String path, Inode replaced) throws IOException {
    if (replaced != null && replaced.isDirectory() && replaced.has(Inode.FLAG_SNAPSHOTTABLE) && count(ctx, replaced) > 0) {
      throw new IndexFsException(Code.SNAPSHOT, "The directory " + path + " cannot be deleted since " + path
          + " is snapshottable and already has snapshots");
    }
  }

  private long count(Inode dir) throws IOException {
    return count(ctx, dir);
  }

  private void register(long dirId, String path, boolean on) throws IOException {
    ctx.ns().mutateLocked(m -> {
      if (on) {
        table.register(m.batch(), dirId, path);
      } else {
        table.unregister(m.batch(), dirId);
      }
      return null;
    });
  }

  /** The snapshottable directory, at its home, for its owner (or the superuser). */
  private ResolvedPath snapshottable(Request request, String path) throws IOException {
    ResolvedPath p = directory(request, path, true);
    if (!p.last().has(Inode.FLAG_SNAPSHOTTABLE)) {
      throw new IndexFsException(Code.SNAPSHOT, "Directory is not a snapshottable directory: " + path);
    }
    ctx.access().checkOwner(request.getCaller(), p);
    return p;
  }

  private String create(Request request, SnapshotRequest r) throws IOException {
    org.indexfs.common.PathNames.checkPathLength("createSnapshot", r.getPath());
    ResolvedPath p = snapshottable(request, r.getPath());
    String name = r.getName().isEmpty()
        ? new SimpleDateFormat("'s'yyyyMMdd-HHmmss.SSS").format(new Date()) : r.getName();
    checkName(name);
    Inode dir = p.last();
    synchronized (this) {
      if (table.snapshot(dir.inodeId, name) != null) {
        throw new IndexFsException(Code.SNAPSHOT, "Failed to add snapshot: there is already a snapshot with the"
            + " same name \"" + name + "\".");
      }
      long now = System.currentTimeMillis();
      FileStatus root = ctx.ns().toStatus(name, dir).toBuilder().setMtime(now).build();
      // The path the directory has now (it may have moved while it had no snapshot): listings and the
      // delete and rename checks find it there, and it cannot move while it has snapshots.
      if (!r.getPath().equals(table.registeredPath(dir.inodeId))) {
        register(dir.inodeId, r.getPath(), true);
        moves.track(dir.inodeId, r.getPath(), ctx.ns().slot(), true);
      }
      taker.take(dir, r.getPath(), DirectoryMtime.entrySlot(ctx, p), name,
          OpenResult.newBuilder().setStatus(root).build(), now);
      // As HDFS (DirectorySnapshottableFeature.addSnapshot): the directory's mtime is its snapshot's.
      DirectoryMtime.raise(ctx, p, now);
    }
    return name;
  }

  /** HDFS's snapshot names: a path component, not "." / ".." / ".snapshot", without "/". */
  private static void checkName(String name) throws IndexFsException {
    if (name.contains("/")) {
      throw new IndexFsException(Code.SNAPSHOT, "Snapshot name cannot contain \"/\"");
    }
    if (name.equals(".") || name.equals("..") || name.equals(".snapshot")) {
      throw new IndexFsException(Code.SNAPSHOT, "Invalid path name Invalid snapshot name: " + name);
    }
  }

  private void rename(Request request, SnapshotRequest r) throws IOException {
    ResolvedPath p = snapshottable(request, r.getPath());
    long dir = p.last().inodeId;
    if (r.getNewName().equals(r.getName())) {
      return;
    }
    checkName(r.getNewName());
    synchronized (this) {
      SnapshotTable.Snap old = table.snapshot(dir, r.getName());
      if (old == null) {
        throw new IndexFsException(Code.SNAPSHOT, "The snapshot " + r.getName() + " does not exist for directory "
            + r.getPath());
      }
      if (table.snapshot(dir, r.getNewName()) != null) {
        throw new IndexFsException(Code.SNAPSHOT, "The snapshot " + r.getNewName() + " already exists for directory "
            + r.getPath());
      }
      // As HDFS (renameSnapshot): the snapshot's root takes the rename's time, the directory keeps its own.
      FileStatus root = old.root().getStatus().toBuilder().setName(r.getNewName())
          .setMtime(System.currentTimeMillis()).build();
      ctx.ns().mutateLocked(m -> {
        table.deleteSnapshot(m.batch(), dir, r.getName());
        table.putSnapshot(m.batch(), dir, new SnapshotTable.Snap(r.getNewName(), old.id(), old.createdMs(),
            old.root().toBuilder().setStatus(root).build()));
        return null;
      });
    }
  }

  private void delete(Request request, SnapshotRequest r) throws IOException {
    ResolvedPath p = snapshottable(request, r.getPath());
    long dir = p.last().inodeId;
    SnapshotTable.Snap s;
    synchronized (this) {
      s = table.snapshot(dir, r.getName());
      if (s == null) {
        throw new IndexFsException(Code.SNAPSHOT, "Cannot delete snapshot " + r.getName() + " from path "
            + r.getPath() + ": the snapshot does not exist.");
      }
      ctx.ns().mutateLocked(m -> {
        table.deleteSnapshot(m.batch(), dir, r.getName());
        return null;
      });
      if (table.snapshots(dir).isEmpty()) {
        forget(dir);
      }
    }
    // As HDFS (DirectorySnapshottableFeature.removeSnapshot): a deletion changes the directory's mtime.
    DirectoryMtime.raise(ctx, p, System.currentTimeMillis());
    taker.discard(s.id(), SnapshotTaker.dataSnapshotName(s.id()));
  }

  /** Every slot unpins a directory whose last snapshot was deleted; one not told confirms with us before refusing. */
  private void forget(long dir) {
    for (int s = 0; s < ctx.peers().slotCount(); s++) {
      try {
        if (s == ctx.ns().slot()) {
          gate.pinned().remove(dir);
        } else {
          ctx.peers().call(s, Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder()
              .setAction(SnapshotRequest.Action.FORGET).setDirId(dir)));
        }
      } catch (IOException e) {
        org.slf4j.LoggerFactory.getLogger(SnapshotOp.class).warn("Slot {} not told that directory {} has no"
            + " snapshot left (it asks before refusing a rename): {}", s, dir, e.toString());
      }
    }
  }

  /** {@code <path>/.snapshot} itself: HDFS answers an empty directory status. */
  private static OpenResult dotSnapshot() {
    return OpenResult.newBuilder().setStatus(FileStatus.newBuilder().setName(".snapshot").setType(FileType.DIRECTORY)
        .setPermission(0777)).build();
  }

  /** The entry at {@code rel_path} in snapshot {@code name}; traverse checked on the way, as HDFS does. */
  private OpenResult walk(Request request, SnapshotRequest r, long dirId, SnapshotTable.Snap s) throws IOException {
    String shown = r.getPath() + "/.snapshot/" + r.getName();
    OpenResult at = s.root();
    long parent = dirId;
    if (r.getRelPath().isEmpty()) {
      return at;
    }
    for (String name : r.getRelPath().split("/")) {
      if (name.isEmpty()) {
        continue;
      }
      if (at.getStatus().getType() != FileType.DIRECTORY) {
        throw IndexFsException.notFound(r.getPath() + "/.snapshot/" + r.getName() + "/" + r.getRelPath());
      }
      ctx.access().checkStatus(request.getCaller(), shown, at.getStatus(), attrs.acl(s.id(), at.getStatus()),
          Permission.EXECUTE);
      OpenResult child = table.entry(s.id(), parent, name);
      if (child == null) {
        throw IndexFsException.notFound(r.getPath() + "/.snapshot/" + r.getName() + "/" + r.getRelPath());
      }
      shown = shown + "/" + name;
      at = child;
      parent = child.getStatus().getInodeId();
    }
    return at;
  }

  private SnapshotTable.Snap named(long dirId, SnapshotRequest r) throws IOException {
    SnapshotTable.Snap s = table.snapshot(dirId, r.getName());
    if (s == null) {
      throw IndexFsException.notFound(r.getPath() + "/.snapshot/" + r.getName()
          + (r.getRelPath().isEmpty() ? "" : "/" + r.getRelPath()));
    }
    return s;
  }

  /**
   * getAclStatus and getXAttrs/listXAttrs below {@code .snapshot/<name>}: the entry's ACL and xattrs
   * as the snapshot kept them, after the checks the live calls make in the same order (READ on the
   * entry for xattrs); a missing entry or snapshot is HDFS's "cannot find".
   */
  private void attrs(Request request, SnapshotRequest r, SnapshotPage.Builder page) throws IOException {
    boolean acl = r.getAction() == SnapshotRequest.Action.ACL;
    boolean superuser = ctx.access().isSuperuser(request.getCaller());
    if (acl) {
      attrs.checkAcls();
    } else {
      attrs.checkXAttrs(superuser, r.getXattrNamesList());
    }
    String shown = r.getPath() + "/.snapshot" + (r.getName().isEmpty() ? "" : "/" + r.getName())
        + (r.getRelPath().isEmpty() ? "" : "/" + r.getRelPath());
    SnapshotTable.Snap s;
    OpenResult e;
    try {
      ResolvedPath p = directory(request, r.getPath(), true);
      if (r.getName().isEmpty()) {
        throw IndexFsException.notFound(shown);
      }
      s = named(p.last().inodeId, r);
      e = walk(request, r, p.last().inodeId, s);
    } catch (IndexFsException x) {
      if (x.code() != Code.FILE_NOT_FOUND) {
        throw x;
      }
      throw new IndexFsException(Code.FILE_NOT_FOUND, "cannot find " + shown);
    }
    if (acl) {
      page.setAclStatus(attrs.aclStatus(s.id(), e.getStatus()));
      return;
    }
    ctx.access().checkStatus(request.getCaller(), shown, e.getStatus(), attrs.acl(s.id(), e.getStatus()),
        Permission.READ);
    page.addAllXattrs(attrs.xattrs(superuser, s.id(), e.getStatus(), r.getXattrNamesList(), r.getNamesOnly()));
  }

  private OpenResult read(Request request, SnapshotRequest r, boolean open) throws IOException {
    ResolvedPath p = directory(request, r.getPath(), true);
    if (r.getName().isEmpty()) {
      if (open) {
        throw new IndexFsException(Code.IS_DIRECTORY, "Path is not a file: " + r.getPath() + "/.snapshot");
      }
      if (!p.last().has(Inode.FLAG_SNAPSHOTTABLE)) {
        throw IndexFsException.notFound(r.getPath() + "/.snapshot");
      }
      return dotSnapshot();
    }
    SnapshotTable.Snap s = named(p.last().inodeId, r);
    OpenResult e = walk(request, r, p.last().inodeId, s);
    if (!open) {
      return e.toBuilder().clearInlineData().build();
    }
    String shown = r.getPath() + "/.snapshot/" + r.getName() + (r.getRelPath().isEmpty() ? "" : "/" + r.getRelPath());
    if (e.getStatus().getType() == FileType.DIRECTORY) {
      throw new IndexFsException(Code.IS_DIRECTORY, "Path is not a file: " + shown);
    }
    ctx.access().checkStatus(request.getCaller(), shown, e.getStatus(), attrs.acl(s.id(), e.getStatus()),
        Permission.READ);
    return e;
  }

  private void list(Request request, SnapshotRequest r, SnapshotPage.Builder page) throws IOException {
    ResolvedPath p = directory(request, r.getPath(), true);
    long dirId = p.last().inodeId;
    int limit = Math.max(1, Math.min(r.getLimit() == 0 ? ctx.listPageSize() : r.getLimit(), ctx.listPageSize()));
    if (r.getName().isEmpty()) {
      if (!p.last().has(Inode.FLAG_SNAPSHOTTABLE)) {
        throw new IndexFsException(Code.SNAPSHOT, "Directory is not a snapshottable directory: " + r.getPath());
      }
      String after = r.getStartAfter().toStringUtf8();
      for (SnapshotTable.Snap s : table.snapshots(dirId)) {
        if (s.name().compareTo(after) > 0 || after.isEmpty()) {
          page.addEntries(s.root());
        }
      }
      return;
    }
    SnapshotTable.Snap s = named(dirId, r);
    OpenResult e = walk(request, r, dirId, s);
    if (e.getStatus().getType() != FileType.DIRECTORY) {
      page.addEntries(e.toBuilder().clearInlineData());
      return;
    }
    String shown = r.getPath() + "/.snapshot/" + r.getName() + (r.getRelPath().isEmpty() ? "" : "/" + r.getRelPath());
    ctx.access().checkStatus(request.getCaller(), shown, e.getStatus(), attrs.acl(s.id(), e.getStatus()),
        Permission.READ_EXECUTE);
    long parent = r.getRelPath().isEmpty() ? dirId : e.getStatus().getInodeId();
    List<OpenResult> entries = table.entries(s.id(), parent, r.getStartAfter().toByteArray(), limit + 1);
    for (int i = 0; i < Math.min(limit, entries.size()); i++) {
      page.addEntries(entries.get(i).toBuilder().clearInlineData());
    }
    page.setHasMore(entries.size() > limit);
  }
}
