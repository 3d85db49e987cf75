package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.XAttr;
import org.indexfs.server.ns.ResolvedPath;

/** What setting and removing an extended attribute share (FSDirXAttrOp.checkXAttrChangeAccess). */
final class XAttrChange {
  private XAttrChange() {}

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
