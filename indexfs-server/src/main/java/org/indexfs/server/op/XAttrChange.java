package org.indexfs.server.op;

import java.io.IOException;
import java.util.List;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.XAttr;
import org.indexfs.server.ns.Mutation;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.store.AttrTable.XAttrValue;

/** What setting and removing an extended attribute share (FSDirXAttrOp.checkXAttrChangeAccess). */
final class XAttrChange {
  private XAttrChange() {}

  /**
   * The entry an attribute change applies to, in HDFS's order of checks: traverse, the change's
   * access ({@link #checkAccess}), then existence. A directory's entry is also written under its own
   * lock (mtime), so the mutation runs alone there.
   */
  static ResolvedPath entryToChange(OpContext ctx, Mutation m, Request request, String path, XAttr x)
      throws IOException {
    ResolvedPath p = ctx.resolver().resolveForUpdate(m, request.getResolution(), path);
    ctx.access().checkTraverse(request.getCaller(), p);
    Inode entry = p.last();
    if (entry != null && entry.isDirectory()) {
      m.exclusive();
    }
    checkAccess(ctx, request.getCaller(), p, x);
    if (entry == null) {
      throw cannotFind(path);
    }
    return p;
  }

  /** The entry's attributes, read only when its flag says it has any. */
  static List<XAttrValue> existing(OpContext ctx, Inode entry) throws IOException {
    return entry.has(Inode.FLAG_XATTRS) ? ctx.ns().attrs().xattrs(entry.inodeId) : List.of();
  }

  /**
   * A {@code user.} attribute needs WRITE on the entry; on a directory with the sticky bit, being
   * its owner. Other namespaces were settled by {@code XAttrRules.checkNamespace}. A missing entry
   * passes here and is reported next, as HDFS does.
   */
  static void checkAccess(OpContext ctx, Caller caller, ResolvedPath p, XAttr x) throws IOException {
    Inode entry = p.last();
    if (entry == null || x.getNamespace() != XAttr.NameSpace.USER) {
      return;
    }
    if (entry.isDirectory() && Permission.isSticky(entry.permission)) {
      ctx.access().checkOwner(caller, p);
    } else {
      ctx.access().checkSelf(caller, p, Permission.WRITE);
    }
  }

  /** HDFS's words for an xattr call on a path that does not exist (FSDirectory.resolveLastINode). */
  static IndexFsException cannotFind(String path) {
    return new IndexFsException(Code.FILE_NOT_FOUND, "cannot find " + path);
  }
}
