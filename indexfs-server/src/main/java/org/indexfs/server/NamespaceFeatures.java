package org.indexfs.server;

import java.util.Map;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.Request.OpCase;
import org.indexfs.server.acl.AclSwitch;
import org.indexfs.server.op.AclEditOp;
import org.indexfs.server.op.GetAclStatusOp;
import org.indexfs.server.op.GetPolicyOp;
import org.indexfs.server.op.GetXAttrsOp;
import org.indexfs.server.op.OpContext;
import org.indexfs.server.op.Operation;
import org.indexfs.server.op.RemoveXAttrOp;
import org.indexfs.server.op.SetPolicyOp;
import org.indexfs.server.op.SetQuotaOp;
import org.indexfs.server.op.SetXAttrOp;
import org.indexfs.server.op.StoragePolicyOp;
import org.indexfs.server.quota.QuotaHome;
import org.indexfs.server.quota.QuotaPeerOp;
import org.indexfs.server.xattr.XAttrRules;

/**
 * The rest of HDFS's namespace (issue 17): extended attributes, ACLs, and what comes with them,
 * each operation with the settings it needs, kept apart from the core operations' table.
 */
final class NamespaceFeatures {
  private NamespaceFeatures() {}

  static void install(Map<OpCase, Operation> ops, OpContext ctx, Map<String, String> conf) {
    XAttrRules xattrs = new XAttrRules(IndexFsConfig.XATTRS_ENABLED.get(conf),
        IndexFsConfig.MAX_XATTRS_PER_INODE.get(conf), IndexFsConfig.MAX_XATTR_SIZE.get(conf));
    ops.put(OpCase.SET_XATTR, new SetXAttrOp(ctx, xattrs));
    ops.put(OpCase.GET_XATTRS, new GetXAttrsOp(ctx, xattrs));
    ops.put(OpCase.REMOVE_XATTR, new RemoveXAttrOp(ctx, xattrs));
    ops.put(OpCase.STORAGE_POLICY, new StoragePolicyOp(ctx));
    AclSwitch acls = new AclSwitch(IndexFsConfig.ACLS_ENABLED.get(conf));
    ops.put(OpCase.ACL_EDIT, new AclEditOp(ctx, acls));
    ops.put(OpCase.GET_ACL_STATUS, new GetAclStatusOp(ctx, acls));
    QuotaHome home = new QuotaHome(ctx.ns(), ctx.peers(), ctx.quotas());
    ops.put(OpCase.SET_QUOTA, new SetQuotaOp(ctx, home));
    ops.put(OpCase.QUOTA, new QuotaPeerOp(home, ctx.quotas(), ctx.access()));
    // Subtree policies (issue 18).
    ops.put(OpCase.SET_POLICY, new SetPolicyOp(ctx));
    ops.put(OpCase.GET_POLICY, new GetPolicyOp(ctx));
  }
}
