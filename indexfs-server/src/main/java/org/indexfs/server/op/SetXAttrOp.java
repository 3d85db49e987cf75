package org.indexfs.server.op;

import java.io.IOException;
import java.util.List;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.SetXAttrRequest;
import org.indexfs.proto.XAttr;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.store.AttrTable.XAttrValue;
import org.indexfs.server.xattr.XAttrRules;

/**
 * {@code setXAttr} as HDFS's FSDirXAttrOp: the namespace and size rules before the path is
 * looked at, then the caller's right to change the entry, then the CREATE/REPLACE flags and the
 * per-entry limit. The attribute is a row of its own beside the entry, which only gains a flag.
 */
public final class SetXAttrOp implements Operation {
  private final OpContext ctx;
  private final XAttrRules rules;

  public SetXAttrOp(OpContext ctx, XAttrRules rules) {
    this.ctx = ctx;
    this.rules = rules;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    SetXAttrRequest req = request.getSetXattr();
    Caller caller = request.getCaller();
    XAttr x = req.getXattr();
    rules.checkEnabled();
    rules.checkSize(x);
    rules.checkNamespace(ctx.access().isSuperuser(caller), x);
    String name = XAttrRules.prefixed(x);
    ctx.ns().mutateLocked(m -> {
      ResolvedPath p = XAttrChange.entryToChange(ctx, m, request, req.getPath(), x);
      Inode entry = p.last();
      List<XAttrValue> existing = XAttrChange.existing(ctx, entry);
      boolean exists = existing.stream().anyMatch(e -> e.name().equals(name));
      if (!req.getCreate() && !req.getReplace()) {
        throw new IndexFsException(Code.REMOTE_ILLEGAL_ARGUMENT, "A flag must be specified.");
      }
      if (exists && !req.getReplace()) {
        throw new IndexFsException(Code.REFUSED,
            "XAttr: " + x.getName() + " already exists. The REPLACE flag must be specified.");
      }
      if (!exists && !req.getCreate()) {
        throw new IndexFsException(Code.REFUSED,
            "XAttr: " + x.getName() + " does not exist. The CREATE flag must be specified.");
      }
      long visible = existing.stream().filter(e -> !e.name().equals(name) && XAttrRules.userVisible(e.name())).count()
          + (XAttrRules.userVisible(name) ? 1 : 0);
      if (visible > rules.maxPerInode()) {
        throw new IndexFsException(Code.REFUSED,
            "Cannot add additional XAttr to inode, would exceed limit of " + rules.maxPerInode());
      }
      if (name.equals(XAttrRules.UNREADABLE_BY_SUPERUSER) && entry.isDirectory()) {
        throw new IndexFsException(Code.REFUSED,
            "Can only set '" + XAttrRules.UNREADABLE_BY_SUPERUSER + "' on a file.");
      }
      long order = existing.stream().mapToLong(XAttrValue::order).max().orElse(0) + 1;
      ctx.ns().attrs().putXAttr(m.batch(), entry.inodeId, name, x.hasValue() ? x.getValue().toByteArray() : null, order);
      if (!entry.has(Inode.FLAG_XATTRS)) {
        Inode flagged = entry.copy();
        flagged.flags |= Inode.FLAG_XATTRS;
        Entries.put(ctx.ns(), m.batch(), p, p.depth(), flagged);
      }
      return null;
    });
    return Response.newBuilder();
  }
}
