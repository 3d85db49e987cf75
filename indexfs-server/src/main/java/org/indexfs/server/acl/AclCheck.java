package org.indexfs.server.acl;

import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.indexfs.common.Permission;
import org.indexfs.proto.Caller;

/**
 * A permission check against an ACL, as HDFS's FSPermissionChecker.hasAclPermission: the owner
 * gets the owner bits; otherwise a matching named user entry, or any matching group entry (the
 * unnamed one names the entry's group), each limited by the mask (the group bits) — a match that
 * does not grant denies; nobody matched gets the other bits.
 */
public final class AclCheck {
  private AclCheck() {}

  public static boolean allows(Caller caller, String owner, String group, int mode, byte[] stored, int action) {
    String user = caller.getUser();
    int mask = Permission.groupBits(mode);
    if (user.equals(owner)) {
      return (Permission.ownerBits(mode) & action) == action;
    }
    boolean matched = false;
    for (AclEntry e : AclCodec.decode(stored)) {
      if (e.getScope() == AclEntryScope.DEFAULT) {
        break;
      }
      int perm = e.getPermission().ordinal() & mask;
      if (e.getType() == AclEntryType.USER) {
        if (user.equals(e.getName())) {
          return (perm & action) == action;
        }
      } else if (e.getType() == AclEntryType.GROUP) {
        String g = e.getName() == null ? group : e.getName();
        if (caller.getGroupsList().contains(g)) {
          if ((perm & action) == action) {
            return true;
          }
          matched = true;
        }
      }
    }
    return !matched && (Permission.otherBits(mode) & action) == action;
  }
}
