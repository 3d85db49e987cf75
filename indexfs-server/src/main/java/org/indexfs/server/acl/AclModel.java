package org.indexfs.server.acl;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.AclUtil;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.permission.ScopedAclEntries;
import org.indexfs.common.IndexFsException;

/**
 * How an ACL is kept with an entry, as HDFS's AclStorage keeps it: the access ACL's owner and other
 * entries are the permission's user and other bits, its mask is the group bits, and the rest (named
 * entries, the unnamed group entry, the default ACL) is stored beside the entry. A minimal ACL
 * (owner, group, other only) is no ACL at all: just the permission bits.
 */
public final class AclModel {
  private AclModel() {}

  /** A permission with the stored ACL that goes with it (null: none, a minimal ACL). */
  public record Applied(int permission, byte[] acl) {}

  /** The full ACL of an entry: from its permission bits, and its stored entries if it has some. */
  public static List<AclEntry> logical(int permission, byte[] stored) {
    FsPermission perm = new FsPermission((short) permission);
    if (stored == null) {
      return new ArrayList<>(AclUtil.getMinimalAcl(perm));
    }
    ScopedAclEntries scoped = new ScopedAclEntries(AclCodec.decode(stored));
    List<AclEntry> out = new ArrayList<>();
    if (!scoped.getAccessEntries().isEmpty()) {
      out.add(entry(AclEntryScope.ACCESS, AclEntryType.USER, perm.getUserAction()));
      out.addAll(scoped.getAccessEntries());
      out.add(entry(AclEntryScope.ACCESS, AclEntryType.MASK, perm.getGroupAction()));
      out.add(entry(AclEntryScope.ACCESS, AclEntryType.OTHER, perm.getOtherAction()));
    } else {
      out.addAll(AclUtil.getMinimalAcl(perm));
    }
    out.addAll(scoped.getDefaultEntries());
    return out;
  }

  /** Stores {@code acl} (sorted and valid): the new permission bits and stored entries. */
  public static Applied store(int permission, boolean directory, List<AclEntry> acl, String path)
      throws IndexFsException {
    int sticky = permission & 01000;
    if (AclUtil.isMinimalAcl(acl)) {
      return new Applied(sticky | bits(acl.get(0), acl.get(1), acl.get(2)), null);
    }
    ScopedAclEntries scoped = new ScopedAclEntries(acl);
    List<AclEntry> access = scoped.getAccessEntries();
    List<AclEntry> defaults = scoped.getDefaultEntries();
    if (!defaults.isEmpty() && !directory) {
      throw AclTransform.invalid("Invalid ACL: only directories may have a default ACL. Path: " + path);
    }
    return new Applied(sticky | extendedBits(access), AclCodec.encode(stored(access, defaults)));
  }

  /** removeAcl: the group bits get the unnamed group entry's permission back (the mask is no more). */
  public static Applied remove(int permission, byte[] stored) {
    if (stored == null) {
      return new Applied(permission, null);
    }
    List<AclEntry> entries = AclCodec.decode(stored);
    if (!entries.isEmpty() && entries.get(0).getScope() == AclEntryScope.ACCESS) {
      for (AclEntry e : entries) {
        if (e.getScope() == AclEntryScope.ACCESS && e.getType() == AclEntryType.GROUP && e.getName() == null) {
          return new Applied((permission & ~070) | (e.getPermission().ordinal() << 3), null);
        }
      }
    }
    return new Applied(permission, null);
  }

  /**
   * A new entry under a directory with a default ACL (AclStorage.copyINodeDefaultAcl): the
   * default entries become its access ACL, filtered by its mode ({@code childMode}); a new
   * directory also inherits the default ACL itself. Null when the parent has no default ACL.
   */
  public static Applied inherit(byte[] parentStored, int childMode, boolean directory) {
    if (parentStored == null) {
      return null;
    }
    List<AclEntry> parentDefaults = new ScopedAclEntries(AclCodec.decode(parentStored)).getDefaultEntries();
    if (parentDefaults.isEmpty()) {
      return null;
    }
    FsPermission mode = new FsPermission((short) childMode);
    boolean minimalDefault = AclUtil.isMinimalAcl(parentDefaults);
    List<AclEntry> access = new ArrayList<>(parentDefaults.size());
    for (AclEntry e : parentDefaults) {
      FsAction perm = e.getPermission();
      if (e.getType() == AclEntryType.USER && e.getName() == null) {
        perm = perm.and(mode.getUserAction());
      } else if (e.getType() == AclEntryType.GROUP && minimalDefault) {
        perm = perm.and(mode.getGroupAction());
      } else if (e.getType() == AclEntryType.MASK) {
        perm = perm.and(mode.getGroupAction());
      } else if (e.getType() == AclEntryType.OTHER) {
        perm = perm.and(mode.getOtherAction());
      }
      AclEntry.Builder b = new AclEntry.Builder().setScope(AclEntryScope.ACCESS).setType(e.getType()).setPermission(perm);
      if (e.getName() != null) {
        b.setName(e.getName());
      }
      access.add(b.build());
    }
    List<AclEntry> defaults = directory ? parentDefaults : List.of();
    int sticky = childMode & 01000;
    if (!AclUtil.isMinimalAcl(access) || !defaults.isEmpty()) {
      return new Applied(sticky | extendedBits(access), AclCodec.encode(stored(access, defaults)));
    }
    return new Applied(sticky | bits(access.get(0), access.get(1), access.get(2)), null);
  }

  /** The entries kept beside the permission: the access ACL minus owner, mask and other, then the defaults. */
  private static List<AclEntry> stored(List<AclEntry> access, List<AclEntry> defaults) {
    List<AclEntry> out = new ArrayList<>();
    if (!AclUtil.isMinimalAcl(access)) {
      out.addAll(access.subList(1, access.size() - 2));
    }
    out.addAll(defaults);
    return out;
  }

  /** Owner from the first access entry, the mask (second to last) as group bits, other from the last. */
  private static int extendedBits(List<AclEntry> access) {
    return bits(access.get(0), access.get(access.size() - 2), access.get(access.size() - 1));
  }

  private static int bits(AclEntry user, AclEntry group, AclEntry other) {
    return (user.getPermission().ordinal() << 6) | (group.getPermission().ordinal() << 3) | other.getPermission().ordinal();
  }

  private static AclEntry entry(AclEntryScope scope, AclEntryType type, FsAction perm) {
    return new AclEntry.Builder().setScope(scope).setType(type).setPermission(perm).build();
  }

  /** The extended entries getAclStatus reports (AclStorage.readINodeAcl): exactly what is stored. */
  public static List<AclEntry> reported(byte[] stored) {
    return AclCodec.decode(stored);
  }

  /** True when a stored ACL has access entries (a default-only ACL leaves the permission bits as they are). */
  public static boolean hasAccessEntries(byte[] stored) {
    return stored != null && stored.length > 0 && (stored[0] & 0x80) == 0;
  }
}
