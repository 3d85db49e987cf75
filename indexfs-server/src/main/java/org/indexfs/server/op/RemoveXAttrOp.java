package org.indexfs.server.op;

import java.io.IOException;
import java.util.List;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.RemoveXAttrRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.XAttr;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.store.AttrTable.XAttrValue;
import org.indexfs.server.xattr.XAttrRules;

/** {@code removeXAttr} as HDFS: the same access rules as setting one; the entry loses its flag with its last attribute. */
public final class RemoveXAttrOp implements Operation {
  private final OpContext ctx;
  private final XAttrRules rules;

  public RemoveXAttrOp(OpContext ctx, XAttrRules rules) {
    this.ctx = ctx;
    this.rules = rules;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    RemoveXAttrRequest req = request.getRemoveXattr();
    Caller caller = request.getCaller();
    XAttr x = req.getXattr();
    rules.checkEnabled();
    rules.checkNamespace(ctx.access().isSuperuser(caller), x);
    String name = XAttrRules.prefixed(x);
    ctx.ns().mutateLocked(m -> {
      ResolvedPath p = XAttrChange.entryToChange(ctx, m, request, req.getPath(), x);
      Inode entry = p.last();
      if (name.equals(XAttrRules.UNREADABLE_BY_SUPERUSER)) {
        throw new IndexFsException(Code.ACCESS_DENIED, "The xattr '" + XAttrRules.UNREADABLE_BY_SUPERUSER
            + "' can not be deleted.");
      }
      List<XAttrValue> existing = XAttrChange.existing(ctx, entry);
      if (existing.stream().noneMatch(e -> e.name().equals(name))) {
        throw new IndexFsException(Code.REFUSED, "No matching attributes found for remove operation");
      }
      ctx.ns().attrs().deleteXAttr(m.batch(), entry.inodeId, name);
      if (existing.size() == 1) {
        Inode cleared = entry.copy();
        cleared.flags &= ~Inode.FLAG_XATTRS;
        Entries.put(ctx.ns(), m.batch(), p, p.depth(), cleared);
      }
      return null;
    });
    return Response.newBuilder();
  }
}
