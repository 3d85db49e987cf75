package org.indexfs.server.snapshot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.permission.AclEntry;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.AclStatus;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.XAttr;
import org.indexfs.server.acl.AclCodec;
import org.indexfs.server.acl.AclModel;
import org.indexfs.server.acl.AclSwitch;
import org.indexfs.server.store.AttrTable;
import org.indexfs.server.store.AttrTable.XAttrValue;
import org.indexfs.server.xattr.XAttrRules;

/**
 * An entry's extended ACL and xattrs in a snapshot (issue 17): the attrs rows it had at the
 * snapshot's instant, copied beside its status ({@link SnapshotTable}), answered as
 * GetAclStatusOp and GetXAttrsOp answer for live entries. Only entries whose status says they had
 * an ACL are looked up for one.
 */
final class SnapshotAttrs {
  private final SnapshotTable table;
  private final XAttrRules rules;
  private final AclSwitch acls;

  SnapshotAttrs(SnapshotTable table, XAttrRules rules, AclSwitch acls) {
    this.table = table;
    this.rules = rules;
    this.acls = acls;
  }

  /** The stored ACL of an entry of snapshot {@code id} (null: none), for permission checks and getAclStatus. */
  byte[] acl(long id, FileStatus s) {
    return s.getHasAcl() ? AttrTable.aclOf(table.attrRows(id, s.getInodeId())) : null;
  }

  void checkAcls() throws IndexFsException {
    acls.check();
  }

  /** The checks GetXAttrsOp makes before resolving: xattrs enabled, each asked namespace readable. */
  void checkXAttrs(boolean superuser, List<XAttr> wanted) throws IndexFsException {
    rules.checkEnabled();
    for (XAttr x : wanted) {
      rules.checkNamespace(superuser, x);
    }
  }

  AclStatus aclStatus(long id, FileStatus s) {
    AclStatus.Builder b = AclStatus.newBuilder().setOwner(s.getOwner()).setGroup(s.getGroup())
        .setSticky((s.getPermission() & 01000) != 0).setPermission(s.getPermission());
    byte[] stored = acl(id, s);
    if (stored != null) {
      for (AclEntry e : AclModel.reported(stored)) {
        b.addEntries(AclCodec.toProto(e));
      }
    }
    return b.build();
  }

  /** As GetXAttrsOp: what the caller may see; named ones must all be there. READ was checked by the caller. */
  List<XAttr> xattrs(boolean superuser, long id, FileStatus s, List<XAttr> wanted, boolean namesOnly)
      throws IOException {
    List<XAttrValue> visible = XAttrRules.visible(superuser, AttrTable.xattrsOf(table.attrRows(id, s.getInodeId())));
    List<XAttr> out = new ArrayList<>();
    if (wanted.isEmpty()) {
      for (XAttrValue x : visible) {
        out.add(XAttrRules.toProto(x, !namesOnly));
      }
      return out;
    }
    for (XAttr w : wanted) {
      String name = XAttrRules.prefixed(w);
      XAttrValue match = visible.stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
      if (match == null) {
        throw new IndexFsException(Code.XATTR_NOT_FOUND, "At least one of the attributes provided was not found.");
      }
      out.add(XAttrRules.toProto(match, true));
    }
    return out;
  }
}
