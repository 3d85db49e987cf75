package org.indexfs.server.data;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LeaseRecoverable;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.ObjectNames;
import org.indexfs.proto.Code;

/**
 * The server's handle on the underlying Hadoop FS that holds data objects (DESIGN §6): one
 * {@link FileSystem}, opened on first use and closed with the server. Everything the metadata tier
 * asks of the data tier goes through here, never under the namespace lock: deletes (reclamation),
 * lease recovery of a dead writer's object, truncate, concat, replication, and listing for the
 * scrubber. Objects are addressed by their names relative to {@code indexfs.data.uri}.
 *
 * <p>With no {@code indexfs.data.uri} every file must stay inline and object operations fail.
 */
public final class DataTier implements AutoCloseable {
  private final String dataUri;
  private final int slot;
  private FileSystem fs;
  private String user;

  /** Runs code as the server's own Kerberos login (the data tier sees the server as itself). */
  @FunctionalInterface
  public interface Login {
    FileSystem open(java.security.PrivilegedExceptionAction<FileSystem> open) throws IOException;
  }

  private final Configuration base;
  private volatile Login login;

  public DataTier(String dataUri, int slot) {
    this(dataUri, slot, new Configuration());
  }

  /** {@code base}: the server's Hadoop settings (the data tier's security and client keys among them). */
  public DataTier(String dataUri, int slot, Configuration base) {
    this.dataUri = dataUri;
    this.slot = slot;
    this.base = base;
  }

  /** With Kerberos: the data tier is opened as the server's principal (its superuser, README: Security). */
  public void useLogin(Login login) {
    this.login = login;
  }

  public boolean configured() {
    return !dataUri.isEmpty();
  }

  public String dataUri() {
    return dataUri;
  }

  public Path pathOf(String name) {
    return new Path(dataUri + "/" + name);
  }

  private synchronized FileSystem fs() throws IOException {
    org.indexfs.server.Blocking.check("a call to the data tier");
    if (!configured()) {
      throw new IOException("No indexfs.data.uri is configured: this server keeps no data objects");
    }
    if (fs == null) {
      Configuration conf = new Configuration(base);
      // What the servers write is theirs alone from its creation (issue 31): files 0600, directories
      // 0700. Objects get their file's mode once recorded (follow()); the layout's directories get
      // theirs when made (DataTierLayout).
      conf.set("fs.permissions.umask-mode", SERVER_UMASK);
      Login as = login;
      String[] who = new String[1];
      fs = as == null ? open(conf, who) : as.open(() -> open(conf, who));
      user = who[0];
    }
    return fs;
  }

  /** The umask of every FileSystem a server writes the data tier with (here and the journal's). */
  public static final String SERVER_UMASK = "077";

  private FileSystem open(Configuration conf, String[] who) throws IOException {
    who[0] = org.apache.hadoop.security.UserGroupInformation.getCurrentUser().getShortUserName();
    return FileSystem.newInstance(URI.create(dataUri), conf);
  }

  /** The servers' user as the data tier knows it (the owner of everything they make there). */
  public String user() throws IOException {
    fs();
    return user;
  }

  /**
   * Lays the data tier out for this slot (DataTierLayout): the root and every directory the servers
   * use, theirs and with their modes. Fails, and the server with it, on a data root others could
   * rearrange.
   */
  public void prepare() throws IOException {
    if (!configured()) {
      return;
    }
    DataTierLayout.prepare(fs(), dataUri, slot, user());
  }

  /**
   * Copies {@code name} (a name {@link ShippedFiles} let through) to a local file, if it is a plain
   * file that {@code owner} owns, in a directory {@code owner} owns: on HDFS nobody else can have
   * written or swapped it. A refusal names neither the file's owner nor anything of its bytes.
   */
  public void fetchOwned(String name, String owner, java.nio.file.Path local) throws IOException {
    FileSystem f = fs();
    Path path = pathOf(name);
    if (DataTierLayout.checksOwners(f)) {
      FileStatus dir = f.getFileLinkStatus(path.getParent());
      FileStatus file = f.getFileLinkStatus(path);
      if (!dir.isDirectory() || !file.isFile() || !owner.equals(dir.getOwner()) || !owner.equals(file.getOwner())) {
        throw new IndexFsException(Code.ACCESS_DENIED, "The file named is not one " + owner + " wrote where only "
            + owner + " may write: nothing was read");
      }
    } else if (!f.getFileStatus(path).isFile()) {
      throw new IndexFsException(Code.ACCESS_DENIED, "The file named is not a plain file: nothing was read");
    }
    f.copyToLocalFile(false, path, new Path(local.toUri()), true);
  }

  /**
   * Gives an object its file's owner, group and mode (null: unchanged), so the data tier refuses
   * whoever IndexFS refuses. Changing the owner needs the server to be the data tier's superuser
   * (README: Security).
   */
  public void follow(String name, String owner, String group, Short mode) throws IOException {
    Path path = pathOf(name);
    FileSystem f = fs();
    if (mode != null) {
      f.setPermission(path, new FsPermission(mode));
    }
    // A local directory (development) has one OS user for everyone and no principals to give.
    if ((owner != null || group != null) && !(f instanceof org.apache.hadoop.fs.LocalFileSystem)) {
      f.setOwner(path, owner, group);
    }
  }

  /**
   * Gives an object its file's ACL ({@code acl}: the full logical ACL, a minimal one removes the
   * object's), so a user IndexFS lets read or write the file through a named entry gets its bytes
   * from the data tier too; {@code mode}: the file's permission bits with that ACL. A local
   * directory (development) keeps no ACLs: it only gets the mode.
   */
  public void followAcl(String name, short mode, java.util.List<org.apache.hadoop.fs.permission.AclEntry> acl)
      throws IOException {
    FileSystem f = fs();
    Path path = pathOf(name);
    boolean minimal = org.apache.hadoop.fs.permission.AclUtil.isMinimalAcl(acl);
    if (!(f instanceof org.apache.hadoop.fs.LocalFileSystem)) {
      if (minimal) {
        f.removeAcl(path);
      } else {
        f.setAcl(path, acl); // its mask entry sets the group bits
        return;
      }
    }
    f.setPermission(path, new FsPermission(mode));
  }

  /** Copies a local file to {@code name} on the data FS (split migration ships SST files this way). */
  public void upload(java.nio.file.Path local, String name) throws IOException {
    fs().copyFromLocalFile(false, true, new Path(local.toUri()), pathOf(name));
  }

  /** Copies {@code name} from the data FS to a local file. */
  public void download(String name, java.nio.file.Path local) throws IOException {
    fs().copyToLocalFile(false, pathOf(name), new Path(local.toUri()), true);
  }

  /**
   * A snapshot of the whole data tier (issue 17): an IndexFS snapshot reads its object files' bytes
   * from it, so appends, truncates and deletes of the live files never change them. Needs HDFS; the
   * data root is made snapshottable on first use (the server's user must be an HDFS superuser, or
   * an operator runs {@code hdfs dfsadmin -allowSnapshot} on it once).
   */
  public void snapshot(String name) throws IOException {
    FileSystem f = fs();
    Path root = new Path(dataUri);
    if (!(f instanceof org.apache.hadoop.hdfs.DistributedFileSystem dfs)) {
      throw new org.indexfs.common.IndexFsException(org.indexfs.proto.Code.UNSUPPORTED, "Snapshots need a data"
          + " tier that takes snapshots (HDFS); indexfs.data.uri is " + dataUri);
    }
    if (!dataSnapshottable) {
      try {
        dfs.allowSnapshot(root);
      } catch (org.apache.hadoop.security.AccessControlException e) {
        throw new IOException("Cannot make the data tier " + dataUri + " snapshottable (" + e.getMessage()
            + "); run `hdfs dfsadmin -allowSnapshot " + root.toUri().getPath() + "` once", e);
      }
      dataSnapshottable = true;
    }
    dfs.createSnapshot(root, name);
  }

  public void deleteSnapshot(String name) throws IOException {
    FileSystem f = fs();
    if (f instanceof org.apache.hadoop.hdfs.DistributedFileSystem) {
      try {
        f.deleteSnapshot(new Path(dataUri), name);
      } catch (java.io.FileNotFoundException | org.apache.hadoop.ipc.RemoteException e) {
        // already gone (a snapshot that failed before its data-tier snapshot was taken)
      }
    }
  }

  private volatile boolean dataSnapshottable;

  /** Deletes an object; true if it existed. */
  public boolean delete(String name) throws IOException {
    Path path = pathOf(name);
    FileSystem f = fs();
    if (f.delete(path, false)) {
      return true;
    }
    if (f.exists(path)) {
      throw new IOException("Could not delete data object " + path);
    }
    return false;
  }

  /**
   * Takes the object away from a writer that is gone (HDFS {@code recoverLease}); true once it is
   * closed. File systems without leases (the local FS) have nothing to recover. A missing object
   * is closed by definition.
   */
  public boolean recoverLease(String name) throws IOException {
    FileSystem f = fs();
    if (!(f instanceof LeaseRecoverable recoverable)) {
      return true;
    }
    try {
      return recoverable.recoverLease(pathOf(name));
    } catch (FileNotFoundException e) {
      return true;
    }
  }

  /** The object's length, or -1 if it does not exist. */
  public long length(String name) throws IOException {
    try {
      return fs().getFileStatus(pathOf(name)).getLen();
    } catch (FileNotFoundException e) {
      return -1;
    }
  }

  /**
   * The object's length if it is a plain file its writer {@code owner} made (on HDFS; a local data
   * tier has no owners to check), -1 if it does not exist, -2 if it is someone else's.
   */
  public long lengthWrittenBy(String name, String owner) throws IOException {
    FileSystem f = fs();
    FileStatus st;
    try {
      st = DataTierLayout.checksOwners(f) ? f.getFileLinkStatus(pathOf(name)) : f.getFileStatus(pathOf(name));
    } catch (FileNotFoundException e) {
      return -1;
    }
    return st.isFile() && (!DataTierLayout.checksOwners(f) || owner.equals(st.getOwner())) ? st.getLen() : -2;
  }

  /** HDFS truncate: true if done at once, false if the last block is being recovered. */
  public boolean truncate(String name, long newLength) throws IOException {
    try {
      return fs().truncate(pathOf(name), newLength);
    } catch (UnsupportedOperationException e) {
      throw unsupported("truncate", e);
    }
  }

  /** HDFS concat: appends the sources' blocks to the target and removes the sources. */
  public void concat(String target, List<String> sources) throws IOException {
    Path[] srcs = new Path[sources.size()];
    for (int i = 0; i < srcs.length; i++) {
      srcs[i] = pathOf(sources.get(i));
    }
    try {
      fs().concat(pathOf(target), srcs);
    } catch (UnsupportedOperationException e) {
      throw unsupported("concat", e);
    }
  }

  /** A data tier without the operation (the local file system has no truncate or concat). */
  private IndexFsException unsupported(String op, UnsupportedOperationException e) {
    IndexFsException unsupported = new IndexFsException(Code.UNSUPPORTED, op + " of data objects is not supported by "
        + dataUri + ": " + e.getMessage());
    unsupported.initCause(e);
    return unsupported;
  }

  public void setReplication(String name, short replication) throws IOException {
    fs().setReplication(pathOf(name), replication);
  }

  /** The file's storage policy, by the data tier's name for it (an HDFS data tier places the object's blocks by it). */
  public void setStoragePolicy(String name, String policyName) throws IOException {
    try {
      fs().setStoragePolicy(pathOf(name), policyName);
    } catch (UnsupportedOperationException e) {
      throw unsupported("setStoragePolicy", e);
    }
  }

  /**
   * The data tier's storage policies (an HDFS NameNode's BlockStoragePolicySuite): what a
   * setStoragePolicy may name. None when there is no data tier or it has no policies.
   */
  public java.util.Collection<? extends org.apache.hadoop.fs.BlockStoragePolicySpi> storagePolicies() throws IOException {
    if (!configured()) {
      return List.of();
    }
    try {
      return fs().getAllStoragePolicies();
    } catch (UnsupportedOperationException e) {
      return List.of();
    }
  }

  /**
   * Writes an object from the server itself (concat turns inline parts into objects). The name
   * must already be recorded as a lease's spill object, so the scrubber leaves it alone.
   */
  public void write(String name, byte[] bytes, short replication, long blockSize) throws IOException {
    FileSystem f = fs();
    try (OutputStream out = f.create(pathOf(name), new FsPermission((short) 0666), false,
        f.getConf().getInt("io.file.buffer.size", 4096), replication, blockSize, null)) {
      out.write(bytes);
    }
  }

  /** The data tier's own defaults for new files when it is HDFS (its NameNode's); null for any other file system. */
  public org.apache.hadoop.fs.FsServerDefaults hdfsServerDefaults() throws IOException {
    if (!configured() || !"hdfs".equals(URI.create(dataUri).getScheme())) {
      return null;
    }
    return fs().getServerDefaults(new Path(dataUri));
  }

  /** An object found on the data tier: its name, last modification time (data tier clock) and length. */
  public record StoredObject(String name, long modificationTime, long length) {}

  /** Every object of this server's slot. */
  public List<StoredObject> listObjects() throws IOException {
    List<StoredObject> out = new ArrayList<>();
    String dir = ObjectNames.slotDirectory(slot);
    RemoteIterator<FileStatus> it;
    try {
      it = fs().listStatusIterator(pathOf(dir));
    } catch (FileNotFoundException e) {
      return out;
    }
    while (it.hasNext()) {
      FileStatus s = it.next();
      if (s.isFile()) {
        out.add(new StoredObject(dir + "/" + s.getPath().getName(), s.getModificationTime(), s.getLen()));
      }
    }
    return out;
  }

  /** The holders' publish directories of this slot (.publish/<slot>/*), as stored objects. */
  public List<StoredObject> listPublishDirectories() throws IOException {
    List<StoredObject> out = new ArrayList<>();
    String dir = ObjectNames.PUBLISH_ROOT + "/" + slot;
    try {
      for (FileStatus s : fs().listStatus(pathOf(dir))) {
        out.add(new StoredObject(dir + "/" + s.getPath().getName(), s.getModificationTime(), s.getLen()));
      }
    } catch (FileNotFoundException e) {
      // not laid out yet
    }
    return out;
  }

  /** Deletes {@code name} and everything below it; true if it existed. */
  public boolean deleteTree(String name) throws IOException {
    return fs().delete(pathOf(name), true);
  }

  /** What this slot's objects take: {objects, bytes}, from one content summary of its directory. */
  public long[] slotUsage() throws IOException {
    if (!configured()) {
      return new long[] {0, 0};
    }
    try {
      ContentSummary summary = fs().getContentSummary(pathOf(ObjectNames.slotDirectory(slot)));
      return new long[] {summary.getFileCount(), summary.getLength()};
    } catch (FileNotFoundException e) {
      return new long[] {0, 0};
    }
  }

  /** Capacity, used and remaining bytes of the whole data tier; null without one. */
  public FsStatus status() throws IOException {
    return configured() ? fs().getStatus() : null;
  }

  @Override
  public synchronized void close() throws IOException {
    if (fs != null) {
      fs.close();
      fs = null;
    }
  }
}
