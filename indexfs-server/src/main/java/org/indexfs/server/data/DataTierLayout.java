package org.indexfs.server.data;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.indexfs.common.ObjectNames;

/**
 * Who owns what on the data tier, and with which mode (issue 31, docs/security-data-tier.md). Every
 * directory here belongs to the servers' user; what users may make goes only where the sticky bit
 * keeps each to their own, under names they were told or made from a secret they were told:
 * <pre>
 *   &lt;root&gt;/                     0711  traverse only: nobody else lists, creates, renames or deletes here
 *   &lt;root&gt;/&lt;slot&gt;/             1733  data objects, created by their writers, unlistable, sticky
 *   &lt;root&gt;/.publish/            0711
 *   &lt;root&gt;/.publish/&lt;slot&gt;/     1733  holders' publish directories (each its holder's, 0700)
 *   &lt;root&gt;/.client-journals/    1733  users' client-journal directories (each its user's, 0700)
 *   &lt;root&gt;/.journal/            0700  segments, checkpoints, journaled SSTs
 *   &lt;root&gt;/.splits/             0700  SSTs a GIGA+ split ships between slots
 *   &lt;root&gt;/.bulk/               0700  shares of split publishes and their staged copies
 * </pre>
 * Files the servers write are created 0600 (their FileSystem's umask is 077), never loosened later.
 * Directories are made once, empty, and then given their mode; a directory found with another mode
 * (an older version's, or an operator's) is set back, one with another owner is taken over when the
 * servers may (the data tier's superuser) or refused: a server does not start on a data root others
 * can rearrange.
 */
public final class DataTierLayout {
  public static final String JOURNAL = ".journal";
  public static final String SPLITS = ".splits";
  public static final String BULK = ".bulk";

  private static final FsPermission TRAVERSE_ONLY = new FsPermission((short) 0711);
  private static final FsPermission DROP_BOX = new FsPermission((short) 01733);
  private static final FsPermission SERVERS_ONLY = new FsPermission((short) 0700);

  private DataTierLayout() {}

  /** The directories of slot {@code slot} (and the shared ones), parents first, with their modes. */
  static List<Object[]> directories(int slot) {
    List<Object[]> out = new ArrayList<>();
    out.add(new Object[] {"", TRAVERSE_ONLY});
    out.add(new Object[] {ObjectNames.slotDirectory(slot), DROP_BOX});
    out.add(new Object[] {ObjectNames.PUBLISH_ROOT, TRAVERSE_ONLY});
    out.add(new Object[] {ObjectNames.PUBLISH_ROOT + "/" + slot, DROP_BOX});
    out.add(new Object[] {ObjectNames.CLIENT_JOURNALS_ROOT, DROP_BOX});
    out.add(new Object[] {JOURNAL, SERVERS_ONLY});
    out.add(new Object[] {SPLITS, SERVERS_ONLY});
    out.add(new Object[] {BULK, SERVERS_ONLY});
    return out;
  }

  /** True where the data tier has owners to check: HDFS (a local directory has one OS user for everyone). */
  static boolean checksOwners(FileSystem fs) {
    return fs instanceof DistributedFileSystem;
  }

  /**
   * Makes (or puts right) every directory of slot {@code slot} under {@code root}, owned by {@code me}
   * (the servers' user as the data tier knows it). Idempotent; every server and standby runs it.
   */
  public static void prepare(FileSystem fs, String root, int slot, String me) throws IOException {
    Path rootPath = new Path(root);
    boolean owners = checksOwners(fs);
    if (owners) {
      checkAncestors(fs, rootPath);
    }
    makeAncestors(fs, rootPath.getParent());
    for (Object[] d : directories(slot)) {
      String name = (String) d[0];
      ensure(fs, name.isEmpty() ? rootPath : new Path(root + "/" + name), (FsPermission) d[1], owners ? me : null);
    }
  }

  private static void ensure(FileSystem fs, Path dir, FsPermission mode, String me) throws IOException {
    if (!fs.exists(dir)) {
      fs.mkdirs(dir); // 0700 under the servers' umask; nothing is inside before its mode is set below
    }
    // HDFS: the path itself, never where a link would lead (a local directory is the developer's own).
    FileStatus st = me != null ? fs.getFileLinkStatus(dir) : fs.getFileStatus(dir);
    if (!st.isDirectory()) {
      throw new IOException("Data tier path " + dir + " is not a directory: the servers' layout needs one there");
    }
    if (me != null && !me.equals(st.getOwner())) {
      try {
        fs.setOwner(dir, me, null);
      } catch (IOException e) {
        throw new IOException("Data tier directory " + dir + " belongs to " + st.getOwner() + ", not to the servers' user "
            + me + ", who cannot take it over (" + e.getMessage() + "): make it theirs (hdfs dfs -chown " + me + " "
            + dir.toUri().getPath() + ") or give the servers a fresh indexfs.data.uri", e);
      }
    }
    if (me != null && st.hasAcl()) {
      fs.removeAcl(dir); // an ACL (one inherited from a default ACL above, say) could let others in
    }
    if (!st.getPermission().equals(mode)) {
      fs.setPermission(dir, mode);
    }
  }

  /**
   * Refuses a data root that someone else could move away: an ancestor writable by others without
   * the sticky bit lets them rename the root itself, whatever its own mode.
   */
  private static void checkAncestors(FileSystem fs, Path root) throws IOException {
    for (Path p = root.getParent(); p != null; p = p.getParent()) {
      FileStatus st;
      try {
        st = fs.getFileStatus(p);
      } catch (FileNotFoundException missing) {
        continue; // made below, by the servers
      }
      FsPermission perm = st.getPermission();
      boolean othersWrite = perm.getGroupAction().implies(FsAction.WRITE) || perm.getOtherAction().implies(FsAction.WRITE);
      if (othersWrite && !perm.getStickyBit()) {
        throw new IOException("The data root " + root.toUri().getPath() + " lies in " + p.toUri().getPath() + " (" + perm
            + "), where users other than its owner may rename it away: put it where only the servers or the data "
            + "tier's superuser may write");
      }
    }
  }

  /** Missing ancestors of the root, made traversable (0755) so users reach their objects below. */
  private static void makeAncestors(FileSystem fs, Path dir) throws IOException {
    if (dir == null || fs.exists(dir)) {
      return;
    }
    makeAncestors(fs, dir.getParent());
    fs.mkdirs(dir);
    fs.setPermission(dir, new FsPermission((short) 0755));
  }
}
