package org.indexfs.server.acl;

import org.indexfs.common.schema.Inode;

/**
 * The mode a new entry asks for: with the umask applied ({@code masked}) and, from clients that
 * send it (HDFS-6962, as DFSClient does), without ({@code unmasked}, or null).
 */
public record CreateModes(int masked, Integer unmasked) {
  public static CreateModes of(int masked) {
    return new CreateModes(masked, null);
  }

  /**
   * The new entry's permission and ACL under {@code parent}, as FSDirectory.copyINodeDefaultAcl:
   * a parent with a default ACL hands it down, filtered by the unmasked mode when the client sent
   * one (the umask does not apply then), else by the masked one; otherwise the masked mode alone.
   */
  public AclModel.Applied under(Inode parent, boolean directory, byte[] parentAcl) {
    if (parent.has(Inode.FLAG_ACL)) {
      AclModel.Applied inherited = AclModel.inherit(parentAcl, unmasked != null ? unmasked : masked, directory);
      if (inherited != null) {
        return inherited;
      }
    }
    return new AclModel.Applied(masked, null);
  }
}
