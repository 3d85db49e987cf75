package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.schema.Inode;
import org.indexfs.common.Permission;
import org.indexfs.server.acl.AclModel;

/**
 * A data object takes its file's owner, group, mode, ACL and own storage policy once the server
 * records it as the
 * file's (DESIGN §14), so the data tier refuses whoever IndexFS refuses and admits whoever an ACL
 * entry admits. Outside any mutation: it calls the data tier.
 */
final class ObjectAttributes {
  private ObjectAttributes() {}

  static void follow(OpContext ctx, String object, Inode file) throws IOException {
    short mode = (short) (file.permission & Permission.MASK & ~Permission.STICKY);
    ctx.data().follow(object, ctx.ns().principals().nameOf(file.ownerId), ctx.ns().principals().nameOf(file.groupId),
        mode);
    if (file.has(Inode.FLAG_ACL)) {
      Inode withAcl = ctx.ns().withAcl(file.copy());
      ctx.data().followAcl(object, mode, AclModel.logical(file.permission, withAcl.acl));
    }
    // A policy set while the file was inline (or before its object was made) reaches the object now.
    String policy = org.indexfs.server.ns.OwnStoragePolicy.name(ctx.ns().attrs(), file);
    if (policy != null) {
      ctx.data().setStoragePolicy(object, policy);
    }
  }
}
