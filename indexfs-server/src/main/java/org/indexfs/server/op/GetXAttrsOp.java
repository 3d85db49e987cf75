package org.indexfs.server.op;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.GetXAttrsRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.XAttr;
import org.indexfs.proto.XAttrs;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.store.AttrTable.XAttrValue;
import org.indexfs.server.xattr.XAttrRules;

/**
 * {@code getXAttrs} and {@code listXAttrs} as HDFS: READ on the entry; the caller sees only the
 * namespaces it may; asking for named attributes fails unless every one is there.
 */
public final class GetXAttrsOp implements Operation {
  private final OpContext ctx;
  private final XAttrRules rules;

  public GetXAttrsOp(OpContext ctx, XAttrRules rules) {
    this.ctx = ctx;
    this.rules = rules;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    GetXAttrsRequest req = request.getGetXattrs();
    Caller caller = request.getCaller();
    boolean superuser = ctx.access().isSuperuser(caller);
    rules.checkEnabled();
    for (XAttr wanted : req.getNamesList()) {
      rules.checkNamespace(superuser, wanted);
    }
    List<XAttrValue> visible = ctx.ns().read(none -> {
      ResolvedPath p = ctx.resolver().resolve(request.getResolution(), req.getPath());
      ctx.access().checkTraverse(caller, p);
      Inode entry = p.last();
      if (entry == null) {
        throw XAttrChange.cannotFind(req.getPath());
      }
      ctx.access().checkSelf(caller, p, Permission.READ);
      return XAttrRules.visible(superuser,
          XAttrChange.existing(ctx, entry));
    });
    XAttrs.Builder out = XAttrs.newBuilder();
    if (req.getNamesCount() == 0) {
      for (XAttrValue x : visible) {
        out.addXattrs(XAttrRules.toProto(x, !req.getNamesOnly()));
      }
      return Response.newBuilder().setXattrs(out);
    }
    List<XAttr> found = new ArrayList<>();
    for (XAttr wanted : req.getNamesList()) {
      String name = XAttrRules.prefixed(wanted);
      XAttrValue match = visible.stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
      if (match == null) {
        throw new IndexFsException(Code.XATTR_NOT_FOUND, "At least one of the attributes provided was not found.");
      }
      found.add(XAttrRules.toProto(match, true));
    }
    return Response.newBuilder().setXattrs(out.addAllXattrs(found));
  }
}
