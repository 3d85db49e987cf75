package org.indexfs.server.ns;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.server.acl.AclCheck;
import org.indexfs.server.acl.AclModel;

/**
 * Permission checks as HDFS's FSPermissionChecker makes them: owner, then group, then other bits;
 * the superuser and members of the supergroup pass every check; EXECUTE on every ancestor to
 * traverse; the sticky bit restricts delete and rename to the owner of the entry or directory. An
 * entry with an ACL is judged by it ({@link AclCheck}).
 */
public final class AccessChecker {
  private final Namespace ns;
  private final boolean enabled;
  private final String superuser;
  private final String supergroup;

  public AccessChecker(Namespace ns, boolean enabled, String superuser, String supergroup) {
    this.ns = ns;
    this.enabled = enabled;
    this.superuser = superuser;
    this.supergroup = supergroup;
  }

  public String superuser() {
    return superuser;
  }

  public String supergroup() {
    return supergroup;
  }

  /** False when permission checking is off ({@code indexfs.permissions.enabled=false}). */
  public boolean enabled() {
    return enabled;
  }

  public boolean isSuperuser(Caller caller) {
    return caller.getUser().equals(superuser) || caller.getGroupsList().contains(supergroup);
  }

  private boolean skip(Caller caller) {
    return !enabled || isSuperuser(caller);
  }

  /**
   * EXECUTE on every existing directory above the final component. A file on the way ends the
   * traverse as HDFS's resolvePath ends it, for every caller: refused, naming the file
   * "(is not a directory)" — not "not found".
   */
  public void checkTraverse(Caller caller, ResolvedPath p) throws IOException {
    checkTraverse(caller, p, true);
  }

  /**
   * As {@link #checkTraverse}, for a path about to be created (mkdirs, create, a rename's
   * destination): a file on the way is refused first, as HDFS does for every caller, with its
   * ParentNotDirectoryException (before any WRITE check on that file).
   */
  public void checkTraverseToCreate(Caller caller, ResolvedPath p) throws IOException {
    if (p.ancestorIsFile()) {
      // Permissions first up to the file: a directory the caller cannot traverse hides it.
      checkTraverse(caller, p, false);
      throw IndexFsException.parentNotDirectory(p.pathAt(p.existingCount() - 1));
    }
    checkTraverse(caller, p, false);
  }

  private void checkTraverse(Caller caller, ResolvedPath p, boolean fileRefuses) throws IOException {
    boolean skip = skip(caller);
    int limit = Math.min(p.existingCount(), p.depth());
    for (int i = 0; i < limit; i++) {
      Inode dir = p.inodeAt(i);
      if (!dir.isDirectory()) {
        if (fileRefuses) {
          // The superuser too (HDFS's resolvePath); only its getFileInfo turns this into "not found".
          throw new IndexFsException(Code.ACCESS_DENIED, p.pathAt(i) + " (is not a directory)");
        }
      } else if (!skip) {
        check(caller, p.pathAt(i), dir, Permission.EXECUTE);
      }
    }
  }

  /** {@code action} on the deepest existing ancestor of the final component (mkdirs, create). */
  public void checkAncestor(Caller caller, ResolvedPath p, int action) throws IOException {
    if (skip(caller)) {
      return;
    }
    int i = Math.min(p.existingCount(), p.depth()) - 1;
    check(caller, p.pathAt(i), p.inodeAt(i), action);
  }

  /** {@code action} on the parent of the final component. */
  public void checkParent(Caller caller, ResolvedPath p, int action) throws IOException {
    if (skip(caller) || p.isRoot()) {
      return;
    }
    check(caller, p.pathAt(p.depth() - 1), p.inodeAt(p.depth() - 1), action);
  }

  /** {@code action} on the final entry. */
  public void checkSelf(Caller caller, ResolvedPath p, int action) throws IOException {
    if (skip(caller)) {
      return;
    }
    check(caller, p.path(), p.last(), action);
  }

  /** Only the owner (or a superuser) may change mode or group. */
  public void checkOwner(Caller caller, ResolvedPath p) throws IOException {
    if (skip(caller)) {
      return;
    }
    Inode inode = p.last();
    String owner = ns.principals().nameOf(inode.ownerId);
    if (!owner.equals(caller.getUser())) {
      throw new IndexFsException(Code.ACCESS_DENIED,
          "Permission denied. user=" + caller.getUser() + " is not the owner of inode=" + p.path());
    }
  }

  /** The sticky bit on the parent: only the owner of the entry or of the directory may remove it. */
  public void checkStickyBit(Caller caller, ResolvedPath p) throws IOException {
    if (skip(caller) || p.isRoot()) {
      return;
    }
    Inode parent = p.inodeAt(p.depth() - 1);
    if (!Permission.isSticky(parent.permission)) {
      return;
    }
    String user = caller.getUser();
    if (ns.principals().nameOf(parent.ownerId).equals(user)
        || ns.principals().nameOf(p.last().ownerId).equals(user)) {
      return;
    }
    throw new IndexFsException(Code.ACCESS_DENIED, "Permission denied by sticky bit: user=" + user
        + ", path=\"" + p.path() + "\", parent=\"" + p.pathAt(p.depth() - 1) + "\"");
  }

  /** {@code action} on one directory met while walking a subtree (recursive delete, summaries). */
  public void checkSubtreeDirectory(Caller caller, String path, Inode dir, int action) throws IOException {
    if (skip(caller)) {
      return;
    }
    check(caller, path, dir, action);
  }

  /**
   * {@code action} on an entry known only by its status and stored ACL ({@code acl}, null: none) —
   * a snapshot's copy (issue 17) — as HDFS checks an entry: its ACL when it has access entries, else
   * its mode bits.
   */
  public void checkStatus(Caller caller, String path, org.indexfs.proto.FileStatus status, byte[] acl, int action)
      throws IOException {
    if (skip(caller)) {
      return;
    }
    int p = status.getPermission();
    boolean allowed;
    if (acl != null && AclModel.hasAccessEntries(acl)) {
      allowed = AclCheck.allows(caller, status.getOwner(), status.getGroup(), p, acl, action);
    } else {
      int bits = status.getOwner().equals(caller.getUser()) ? Permission.ownerBits(p)
          : caller.getGroupsList().contains(status.getGroup()) ? Permission.groupBits(p) : Permission.otherBits(p);
      allowed = (bits & action) == action;
    }
    if (!allowed) {
      throw new IndexFsException(Code.ACCESS_DENIED, "Permission denied: user=" + caller.getUser()
          + ", access=" + Permission.actionName(action) + ", inode=\"" + path + "\":" + status.getOwner() + ":"
          + status.getGroup() + ":" + Permission.symbolic(status.getType() == org.indexfs.proto.FileType.DIRECTORY, p));
    }
  }

  public boolean requiresSubtreeChecks(Caller caller) {
    return !skip(caller);
  }

  private void check(Caller caller, String path, Inode inode, int action) throws IOException {
    String owner = ns.principals().nameOf(inode.ownerId);
    String group = ns.principals().nameOf(inode.groupId);
    if (inode.has(Inode.FLAG_ACL)) {
      byte[] acl = inode.acl != null ? inode.acl : ns.attrs().acl(inode.inodeId);
      if (AclModel.hasAccessEntries(acl)) {
        if (AclCheck.allows(caller, owner, group, inode.permission, acl, action)) {
          return;
        }
        throw denied(caller, path, inode, action, owner, group);
      }
    }
    int bits;
    if (owner.equals(caller.getUser())) {
      bits = Permission.ownerBits(inode.permission);
    } else if (caller.getGroupsList().contains(group)) {
      bits = Permission.groupBits(inode.permission);
    } else {
      bits = Permission.otherBits(inode.permission);
    }
    if ((bits & action) == action) {
      return;
    }
    throw denied(caller, path, inode, action, owner, group);
  }

  private static IndexFsException denied(Caller caller, String path, Inode inode, int action, String owner,
      String group) {
    return new IndexFsException(Code.ACCESS_DENIED, "Permission denied: user=" + caller.getUser()
        + ", access=" + Permission.actionName(action) + ", inode=\"" + path + "\":" + owner + ":" + group
        + ":" + Permission.symbolic(inode.isDirectory(), inode.permission));
  }

}
