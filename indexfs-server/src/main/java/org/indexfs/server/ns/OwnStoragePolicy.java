package org.indexfs.server.ns;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Ancestor;
import org.indexfs.server.store.AttrTable;
import org.indexfs.server.store.AttrTable.XAttrValue;

/**
 * An entry's own storage policy, kept where HDFS keeps a directory's: the hidden attribute
 * {@link #XATTR}. Its value is the policy id (what HDFS stores) and then the data tier's name for
 * it, so a data object can be created with the policy without asking the data tier what the id
 * means. Entries without attributes are never read.
 */
public final class OwnStoragePolicy {
  /** HDFS's own name for a directory's policy (BlockStoragePolicySuite.getStoragePolicyXAttrPrefixedName). */
  public static final String XATTR = "system.hsm.block.storage.policy.id";

  private OwnStoragePolicy() {}

  public static byte[] encode(int id, String name) {
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    byte[] v = new byte[1 + n.length];
    v[0] = (byte) id;
    System.arraycopy(n, 0, v, 1, n.length);
    return v;
  }

  /** The entry's row value, or null when it has none. */
  public static byte[] row(AttrTable attrs, Inode entry) {
    if (!entry.has(Inode.FLAG_XATTRS)) {
      return null;
    }
    for (XAttrValue x : attrs.xattrs(entry.inodeId)) {
      if (x.name().equals(XATTR) && x.value() != null && x.value().length >= 1) {
        return x.value();
      }
    }
    return null;
  }

  /** The entry's own policy id; 0 (HDFS's BLOCK_STORAGE_POLICY_ID_UNSPECIFIED) when it has none. */
  public static int id(AttrTable attrs, Inode entry) {
    byte[] row = row(attrs, entry);
    return row == null ? 0 : row[0] & 0xff;
  }

  /** The data tier's name of the entry's own policy, or null when it has none. */
  public static String name(AttrTable attrs, Inode entry) {
    byte[] row = row(attrs, entry);
    return row == null || row.length < 2 ? null : new String(row, 1, row.length - 1, StandardCharsets.UTF_8);
  }

  /**
   * The policy a new data object under {@code p}'s last component is created with: the nearest
   * ancestor's own (HDFS's getStoragePolicyID walks up the same way), "" when none has one (the
   * data tier's default). Entries this slot read are authoritative; the others are the client's
   * sealed ancestors, which carry their slot's answer. It decides only where the caller's own
   * bytes are placed, which the caller could choose on the data tier anyway, so it needs no seal.
   */
  public static String inherited(AttrTable attrs, ResolvedPath p, List<Ancestor> given) {
    return nearest(attrs, p, given, p.depth() - 1);
  }

  /** As {@link #inherited}, counting {@code p}'s last entry too: the policy of files made in that directory. */
  public static String effective(AttrTable attrs, ResolvedPath p, List<Ancestor> given) {
    return nearest(attrs, p, given, p.depth());
  }

  private static String nearest(AttrTable attrs, ResolvedPath p, List<Ancestor> given, int from) {
    for (int i = Math.min(from, p.existingCount() - 1); i >= 0; i--) {
      Inode dir = p.inodeAt(i);
      if (p.entryIsLocal(i)) {
        String own = dir == null ? null : name(attrs, dir);
        if (own != null) {
          return own;
        }
      } else if (i < given.size() && !given.get(i).getStoragePolicy().isEmpty()) {
        return given.get(i).getStoragePolicy();
      }
    }
    return "";
  }
}
