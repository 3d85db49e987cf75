package org.indexfs.hadoop;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LeaseRecoverable;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Options.ChecksumOpt;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageStatistics;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.SafeMode;
import org.apache.hadoop.fs.SafeModeAction;
import org.apache.hadoop.fs.permission.FsCreateModes;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.hadoop.decoupled.Checkouts;
import org.indexfs.hadoop.decoupled.MergeReport;
import org.indexfs.hadoop.decoupled.Origin;
import org.apache.hadoop.util.Progressable;
import org.indexfs.client.ClusterConnection;
import org.indexfs.client.IndexFsClient;
import org.indexfs.client.LeaseRenewer;
import org.indexfs.client.admin.AdminClient;
import org.indexfs.common.ConfigKey;
import org.indexfs.proto.SafeModeRequest;
import org.indexfs.proto.ServerInfo;

/**
 * The {@code indexfs://<cluster>/} Hadoop FileSystem. The URI authority names the cluster; its
 * ZooKeeper quorum comes from {@code indexfs.cluster.<name>.zookeeper} (or
 * {@code indexfs.zookeeper.quorum}). Metadata goes to the IndexFS servers; bytes of small files
 * ride inline with their entry and larger files live in data objects on the underlying FS, read
 * and written with its stock client. Block locations, append, hflush/hsync, truncate, concat,
 * replication and checksums follow HDFS: object files delegate to the data tier, inline files are
 * served by the metadata tier. Writers hold single-writer leases, recoverable like HDFS's
 * ({@link LeaseRecoverable}).
 */
public class IndexFileSystem extends ClusterDefaults implements LeaseRecoverable, SafeMode, Origin {
  public static final String SCHEME = "indexfs";
  /** Delegation tokens of cluster {@code c} have the service {@code indexfs:c}. */
  public static final String TOKEN_SERVICE_PREFIX = "indexfs:";

  private URI uri;
  private Path workingDir;
  private IndexFsClient client;
  private LeaseRenewer renewer;
  private DataObjects objects;
  private FileBytes bytes;
  private int inlineMax;
  private String user;
  private LocalizedPaths localized;
  private Checkouts checkouts;
  /** Who answers each path: a checked-out copy, a localized subtree, or the servers. */
  private NamespaceBackends backends;
  private ServerBackend server;
  private org.indexfs.proto.ServerDefaults serverDefaults;

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    setConf(conf);
    String cluster = name.getAuthority();
    if (cluster == null || cluster.isEmpty()) {
      throw new IllegalArgumentException("An indexfs URI names its cluster: indexfs://<cluster>/ (got " + name + ")");
    }
    uri = URI.create(SCHEME + "://" + cluster);
    UserGroupInformation ugi = UserGroupInformation.getCurrentUser();
    user = ugi.getShortUserName();
    client = IndexFsClients.open(cluster, conf, ugi, TOKEN_SERVICE_PREFIX + cluster);
    ClusterConnection connection = client.connection();
    try {
      ServerInfo info = connection.serverInfo(client::serverInfo);
      inlineMax = info.getInlineMaxBytes();
      serverDefaults = info.getServerDefaults();
      objects = new DataObjects(info.getDataUri(), conf, ugi);
      bytes = new FileBytes(objects);
      renewer = new LeaseRenewer(client, info.getLeaseSoftLimitMs());
      localized = new LocalizedPaths(client, objects, conf);
      checkouts = new Checkouts(this,
          java.nio.file.Path.of(conf.get("hadoop.tmp.dir", System.getProperty("java.io.tmpdir")), "indexfs-checkouts"));
      server = new ServerBackend(this, client, objects, bytes, renewer, localized, inlineMax);
      backends = new NamespaceBackends(this, client, checkouts, localized, objects, server, inlineMax);
    } catch (IOException e) {
      // Hadoop closes a FileSystem whose initialize failed: that close must not release the
      // connection a second time (a shared connection would go on counting one user too few).
      client.close();
      client = null;
      throw HadoopErrors.toHadoop(e);
    }
    workingDir = getHomeDirectory();
  }

  static <T> T get(Configuration conf, ConfigKey<T> key) {
    return IndexFsClients.get(conf, key);
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  /** RPCs per operation sent by this FileSystem's client ({@link RpcStorageStatistics}). */
  @Override
  public StorageStatistics getStorageStatistics() {
    return new RpcStorageStatistics(client.rpcCounters());
  }

  @Override
  public URI getUri() {
    return uri;
  }

  /** The Java client under this FileSystem (for tools and tests). */
  @Override
  public IndexFsClient client() {
    return client;
  }

  @Override
  DataObjects dataObjects() {
    return objects;
  }

  @Override
  org.indexfs.proto.ServerDefaults serverDefaults() {
    return serverDefaults;
  }

  /** Renews this FileSystem's write leases; tests stop it to play a writer that died. */
  LeaseRenewer leaseRenewer() {
    return renewer;
  }

  @Override
  public Path getHomeDirectory() {
    return makeQualified(new Path("/user/" + user));
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    workingDir = makeQualified(dir);
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDir;
  }

  /**
   * The mode with the umask applied, keeping the mode as asked for beside it (an FsCreateModes, as
   * DFSClient sends both: a directory with a default ACL uses the unmasked one). A mode that already
   * carries its unmasked form has had its umask applied.
   */
  private FsPermission masked(FsPermission permission, FsPermission fallback) {
    return FsCreateModes.applyUMask(permission == null ? fallback : permission, FsPermission.getUMask(getConf()));
  }

  /**
   * LOCALIZE ({@code shared}: SHARED_LOCALIZE) directory {@code f}, making it if needed (IndexFS
   * §II-D): until {@link #publish} (or this FileSystem closes, or another client asks for the
   * subtree) everything created below it stays in this process; other clients see it as of the
   * last publish, and their changes inside wait for the next.
   */
  public void localize(Path f, boolean shared) throws IOException {
    backends.localize(pathOf(f), masked(null, FsPermission.getDirDefault()).toShort(), shared);
  }

  /** This FileSystem's localized subtrees (tests stop their renewals to play a dead client). */
  LocalizedPaths localizedPaths() {
    return localized;
  }

  /**
   * Localizes new directory {@code f} for {@code bin/indexfs import} (docs/import.md): the importer
   * fills the returned holder with the NameNode's entries ({@code LocalSubtree#putImported}) and
   * {@link #publish}es them; the server takes them only from a superuser.
   */
  public org.indexfs.client.bulk.LocalSubtree localizeForImport(Path f, java.util.Map<Integer, String> principals)
      throws IOException {
    String path = pathOf(f);
    org.indexfs.client.bulk.LocalSubtree t = write(() -> localized.bulk().localize(path, 0700, false));
    t.importing(principals);
    return t;
  }

  /**
   * Drops an import's unpublished entries and gives its lease up, deleting no data object: they are
   * the NameNode's files (docs/import.md).
   */
  public void abandonImport(Path f) throws IOException {
    org.indexfs.client.bulk.LocalSubtree t = localized.bulk().at(pathOf(f));
    if (t != null) {
      localized.bulk().discard(t);
    }
  }

  /**
   * Replays the client journals (durability client-journal, issue 18) that clients which died before
   * publishing left in subtree {@code f}: their work appears as this client's. Returns the number of
   * operations applied. Call it once those clients' localization leases have expired.
   */
  public long replayClientJournals(Path f) throws IOException {
    String path = pathOf(f);
    return new JournalReplay(this, objects).replay(path, client.caller().getClientId());
  }

  /**
   * Publishes what was made below localized directory {@code f} and gives the lease up; returns
   * the refused entries as "path: reason" (empty when everything was ingested).
   */
  public List<String> publish(Path f) throws IOException {
    return backends.publish(pathOf(f));
  }

  /**
   * Checks out directory {@code f}, which lies in a subtree of consistency {@code decoupled}
   * (issue 18, Cudele): the subtree is read once, as of one moment, into this FileSystem; from then
   * on every call on a path inside is answered by that private copy with no RPC and no lease, and
   * other clients see none of it until {@link #merge}. Closing the FileSystem without merging drops
   * the copy.
   */
  public void checkout(Path f) throws IOException {
    backends.checkout(pathOf(f));
  }

  /**
   * Merges the copy of checked-out directory {@code f} back: its renames and deletes are replayed
   * on the server, what it made is published in one ingest; what the server side changed since
   * check-out wins, and every change of the copy not applied is in the report, by path and reason.
   */
  public MergeReport merge(Path f) throws IOException {
    return backends.merge(pathOf(f));
  }

  /** Drops the copy of checked-out directory {@code f} without merging; returns how many changes it held. */
  public long discardCheckout(Path f) throws IOException {
    return backends.discard(pathOf(f));
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    String path = pathOf(f);
    Snapshots.At snapshot = Snapshots.parse(path);
    if (snapshot != null) {
      return bytes.open(path, read(() -> snapshots().open(snapshot)), statistics);
    }
    return backends.at(path).open(path);
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
      short replication, long blockSize, Progressable progress) throws IOException {
    return create(f, masked(permission, FsPermission.getFileDefault()), overwrite, replication, blockSize, true);
  }

  @Override
  public FSDataOutputStream createNonRecursive(Path f, FsPermission permission, EnumSet<CreateFlag> flags,
      int bufferSize, short replication, long blockSize, Progressable progress) throws IOException {
    return createWithFlags(f, permission, flags, replication, blockSize, false);
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, EnumSet<CreateFlag> flags, int bufferSize,
      short replication, long blockSize, Progressable progress, ChecksumOpt checksumOpt) throws IOException {
    return createWithFlags(f, permission, flags, replication, blockSize, true);
  }

  /** HDFS's CreateFlag rules: APPEND appends to an existing file (creating it with CREATE). */
  private FSDataOutputStream createWithFlags(Path f, FsPermission permission, EnumSet<CreateFlag> flags,
      short replication, long blockSize, boolean createParent) throws IOException {
    if (flags.contains(CreateFlag.APPEND)) {
      try {
        return append(f, 0, null);
      } catch (FileNotFoundException e) {
        if (!flags.contains(CreateFlag.CREATE)) {
          throw e;
        }
      }
    }
    return create(f, masked(permission, FsPermission.getFileDefault()), flags.contains(CreateFlag.OVERWRITE),
        replication, blockSize, createParent);
  }

  /**
   * FileContext's create ({@link IndexFs}): FileContext has already applied its own umask, so
   * the permission is used as given, as HDFS's {@code primitiveCreate} does.
   */
  @Override
  protected FSDataOutputStream primitiveCreate(Path f, FsPermission absolutePermission, EnumSet<CreateFlag> flags,
      int bufferSize, short replication, long blockSize, Progressable progress, ChecksumOpt checksumOpt)
      throws IOException {
    CreateFlag.validate(flags);
    if (flags.contains(CreateFlag.APPEND) || !flags.contains(CreateFlag.CREATE)) {
      // Appending, or overwriting only what exists: the file's presence decides (CreateFlag's rules).
      boolean exists = exists(f);
      CreateFlag.validate(f, exists, flags);
      if (exists && flags.contains(CreateFlag.APPEND)) {
        return append(f, bufferSize, progress);
      }
    }
    // As HDFS's NameNode: an existing file without OVERWRITE is refused by the create itself.
    return create(f, absolutePermission, flags.contains(CreateFlag.OVERWRITE), replication, blockSize, true);
  }

  /** {@code permission} is final here: every caller has applied the umask it answers for. */
  private FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, short replication,
      long blockSize, boolean createParent) throws IOException {
    String path = pathOf(f);
    return backends.forCreate(path).create(path, permission, overwrite, replication, blockSize, createParent);
  }

  /**
   * HDFS append: the caller becomes the file's single writer. An inline file continues in memory
   * (spilling if it outgrows the limit); an object file is appended through the data tier.
   */
  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) throws IOException {
    String path = pathOf(f);
    backends.at(path).beforeServerCall(path, "append");
    return server.append(path);
  }

  /** HDFS concat: the sources' bytes move to the end of {@code trg}; the sources disappear. */
  @Override
  public void concat(Path trg, Path[] psrcs) throws IOException {
    List<String> sources = new java.util.ArrayList<>();
    for (Path p : psrcs) {
      sources.add(pathOf(p));
    }
    try {
      writeVoid(() -> client.concat(pathOf(trg), sources));
    } catch (org.apache.hadoop.HadoopIllegalArgumentException e) {
      // Not among them: DFSClient.concat's callers get the NameNode's refusal as it came.
      if (!(e.getCause() instanceof org.indexfs.common.IndexFsException)) {
        throw e;
      }
      throw new org.apache.hadoop.ipc.RemoteException(e.getClass().getName(), e.getMessage());
    } catch (IOException e) {
      // DFSClient.concat unwraps only these; the NameNode's other refusals reach callers remote.
      throw HadoopErrors.asDfsClient(e, org.apache.hadoop.security.AccessControlException.class,
          org.apache.hadoop.fs.UnresolvedLinkException.class,
          org.apache.hadoop.hdfs.protocol.SnapshotAccessControlException.class);
    }
  }

  /** HDFS truncate: true if done at once, false while the last block is recovered (file stays open). */
  @Override
  public boolean truncate(Path f, long newLength) throws IOException {
    backends.refuseInCopy(pathOf(f), "truncate"); // a copy refuses it; localized entries are not published for it
    return write(() -> client.truncate(pathOf(f), newLength));
  }

  /** Closes a file whose writer is gone, keeping its data up to the last hflush; true once closed. */
  @Override
  public boolean recoverLease(Path f) throws IOException {
    return write(() -> client.recoverLease(pathOf(f)));
  }

  /**
   * The cluster's safe mode, as {@code DistributedFileSystem.setSafeMode}: true when it is on after
   * the action. Entering and leaving need the superuser and take effect on every slot before this
   * returns.
   */
  @Override
  public boolean setSafeMode(SafeModeAction action, boolean isChecked) throws IOException {
    SafeModeRequest.Action a = switch (action) {
      case ENTER -> SafeModeRequest.Action.ENTER;
      case LEAVE, FORCE_EXIT -> SafeModeRequest.Action.LEAVE;
      case GET -> SafeModeRequest.Action.GET;
    };
    return write(() -> new AdminClient(client).safeMode(a).getOn());
  }

  @Override
  public boolean isFileClosed(Path f) throws IOException {
    FileStatus status = getFileStatus(f);
    if (status.isDirectory()) {
      throw new FileNotFoundException("Path is not a file: " + pathOf(f));
    }
    return !((IndexFileStatus) status).underConstruction();
  }

  @Override
  public FileChecksum getFileChecksum(Path f) throws IOException {
    return getFileChecksum(f, Long.MAX_VALUE);
  }

  /** HDFS's checksum of the first {@code length} bytes, inline or object file alike ({@link FileBytes}). */
  @Override
  public FileChecksum getFileChecksum(Path f, long length) throws IOException {
    if (length < 0) {
      throw new IllegalArgumentException("Invalid length " + length);
    }
    String path = pathOf(f);
    return bytes.checksum(path, read(() -> client.open(path)), length, getConf());
  }

  /** Where the bytes are ({@link FileBytes}); a directory has none: HDFS's FileNotFoundException. */
  @Override
  public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len) throws IOException {
    if (file == null) {
      return null;
    }
    if (start < 0 || len < 0) {
      throw new IllegalArgumentException("Invalid start or len parameter");
    }
    statistics.incrementReadOps(1);
    IndexFileStatus status = file instanceof IndexFileStatus s ? s : (IndexFileStatus) getFileStatus(file.getPath());
    if (status.isDirectory()) {
      throw new FileNotFoundException("Path is not a file: " + pathOf(status.getPath()));
    }
    java.net.InetSocketAddress server = status.dataObject() != null || status.getLen() <= start ? null
        : mapped(() -> client.serverOf(pathOf(status.getPath())));
    return bytes.locations(status, start, len, server);
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    String s = pathOf(src);
    String d = pathOf(dst);
    return backends.forRename(s, d).rename(s, d);
  }

  @Override
  @SuppressWarnings("deprecation")
  protected void rename(Path src, Path dst, Options.Rename... options) throws IOException {
    boolean overwrite = false;
    for (Options.Rename o : options) {
      overwrite |= o == Options.Rename.OVERWRITE;
    }
    renameExact(src, dst, overwrite);
  }

  /** FileContext-style rename: exact destination, every refusal an exception. */
  void renameExact(Path src, Path dst, boolean overwrite) throws IOException {
    String s = pathOf(src);
    String d = pathOf(dst);
    backends.refuseInCopy(s, "rename with options");
    backends.refuseInCopy(d, "rename with options");
    // No copy holds either side now: publish what is localized at, below and around them first.
    backends.forRename(s, d).beforeServerCall(s, "rename with options");
    backends.at(d).beforeServerCall(d, "rename with options");
    writeVoid(() -> client.renameExact(pathOf(src), pathOf(dst), overwrite));
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    String path = pathOf(f);
    return backends.forDelete(path).delete(path, recursive);
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    List<FileStatus> all = new java.util.ArrayList<>();
    RemoteIterator<FileStatus> it = listStatusIterator(f);
    while (it.hasNext()) {
      all.add(it.next());
    }
    return all.toArray(new FileStatus[0]);
  }

  /** The listing in HDFS order, page by page as it is consumed; each page counts as one read operation. */
  @Override
  public RemoteIterator<FileStatus> listStatusIterator(Path f) throws IOException {
    Path dir = makeQualified(f);
    String path = pathOf(dir);
    Snapshots.At snapshot = Snapshots.parse(path);
    if (snapshot != null) {
      return read(() -> snapshots().list(dir, snapshot));
    }
    return backends.forListing(path).list(f, dir, path);
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    return mkdirsAbsolute(f, masked(permission, FsPermission.getDirDefault()));
  }

  /** FileContext's mkdir ({@link IndexFs}): its umask is applied already, as in HDFS. */
  @Override
  protected boolean primitiveMkdir(Path f, FsPermission absolutePermission) throws IOException {
    return mkdirsAbsolute(f, absolutePermission);
  }

  @Override
  protected void primitiveMkdir(Path f, FsPermission absolutePermission, boolean createParent)
      throws IOException {
    if (!createParent && f.getParent() != null) {
      FileStatus parent = getFileStatus(f.getParent());
      if (!parent.isDirectory()) {
        throw new ParentNotDirectoryException("Parent path is not a directory: " + f.getParent());
      }
    }
    mkdirsAbsolute(f, absolutePermission);
  }

  private boolean mkdirsAbsolute(Path f, FsPermission permission) throws IOException {
    String path = pathOf(f);
    return backends.forCreate(path).mkdirs(path, permission);
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    Path qualified = makeQualified(f);
    String path = pathOf(qualified);
    Snapshots.At snapshot = Snapshots.parse(path);
    if (snapshot != null) {
      return read(() -> new IndexFileStatus(qualified, snapshots().status(snapshot)));
    }
    return backends.at(path).getFileStatus(qualified, path);
  }

  /** Answered by the server, as HDFS's NameNode answers it (Hadoop's default guesses on the client). */
  @Override
  public void access(Path p, FsAction mode) throws IOException {
    Path qualified = makeQualified(p);
    read(() -> {
      client.access(pathOf(qualified), mode.ordinal()); // FsAction is declared in rwx-bit order
      return null;
    });
  }

  @Override
  public void setPermission(Path p, FsPermission permission) throws IOException {
    backends.at(pathOf(p)).beforeServerCall(pathOf(p), "setPermission");
    writeVoid(() -> client.setPermission(pathOf(p), permission.toShort()));
  }

  @Override
  public void setOwner(Path p, String username, String groupname) throws IOException {
    backends.at(pathOf(p)).beforeServerCall(pathOf(p), "setOwner");
    if (username == null && groupname == null) {
      throw new IOException("username == null && groupname == null");
    }
    writeVoid(() -> client.setOwner(pathOf(p), username, groupname));
  }

  @Override
  public void setTimes(Path p, long mtime, long atime) throws IOException {
    backends.at(pathOf(p)).beforeServerCall(pathOf(p), "setTimes");
    writeVoid(() -> client.setTimes(pathOf(p), mtime, atime));
  }

  @Override
  public boolean setReplication(Path src, short replication) throws IOException {
    backends.at(pathOf(src)).beforeServerCall(pathOf(src), "setReplication");
    return write(() -> client.setReplication(pathOf(src), replication));
  }

  @Override
  public ContentSummary getContentSummary(Path f) throws IOException {
    backends.at(pathOf(f)).beforeServerCall(pathOf(f), "getContentSummary");
    org.indexfs.proto.ContentSummary s = read(() -> client.contentSummary(pathOf(f)));
    return new ContentSummary.Builder().length(s.getLength()).fileCount(s.getFileCount())
        .directoryCount(s.getDirectoryCount()).spaceConsumed(s.getSpaceConsumed())
        .quota(s.hasQuota() ? s.getQuota() : -1).spaceQuota(s.hasSpaceQuota() ? s.getSpaceQuota() : -1)
        // HDFS names a file's policy and, for a directory without one of its own, none.
        .erasureCodingPolicy(s.getDirectoryCount() == 0 ? "Replicated" : "").build();
  }

  /**
   * The service of this cluster's delegation tokens, {@code indexfs:<cluster>} (HDFS HA uses
   * {@code ha-hdfs:<nameservice>} the same way): the key under which credentials hold its token.
   * Set with or without security, as HDFS's: TokenCache and Spark key credentials by it.
   */
  @Override
  public String getCanonicalServiceName() {
    return TOKEN_SERVICE_PREFIX + getUri().getAuthority();
  }

  /**
   * As HDFS's builder: options it does not know, even mandatory ones, are ignored rather than
   * refused (FileSystem's own builder refuses them).
   */
  @Override
  public org.apache.hadoop.fs.FSDataOutputStreamBuilder createFile(Path path) {
    return new OutputStreamBuilder(this, path).create().overwrite(true);
  }

  @Override
  public org.apache.hadoop.fs.FSDataOutputStreamBuilder appendFile(Path path) {
    return new OutputStreamBuilder(this, path).append();
  }

  @Override
  public void close() throws IOException {
    try {
      super.close();
    } finally {
      if (checkouts != null) {
        checkouts.close(); // a copy not merged is dropped: the merge is explicit
      }
      if (localized != null) {
        localized.close(); // publishes what is pending, as closing a stream completes its file
      }
      if (renewer != null) {
        renewer.close();
      }
      if (objects != null) {
        objects.close();
      }
      if (client != null) {
        client.close();
        client = null;
      }
    }
  }

}
