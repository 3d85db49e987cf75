package org.indexfs.hadoop;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.LeaseRecoverable;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Options.ChecksumOpt;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageStatistics;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.SafeMode;
import org.apache.hadoop.fs.SafeModeAction;
import org.apache.hadoop.fs.impl.PathCapabilitiesSupport;
import org.apache.hadoop.fs.permission.FsCreateModes;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.indexfs.hadoop.token.IndexFsTokenIdentifier;
import org.apache.hadoop.util.Progressable;
import org.indexfs.client.ClusterConnection;
import org.indexfs.client.IndexFsClient;
import org.indexfs.client.LeaseRenewer;
import org.indexfs.client.admin.AdminClient;
import org.indexfs.common.ConfigKey;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Listing;
import org.indexfs.proto.OpenResult;
import org.indexfs.proto.SafeModeRequest;
import org.indexfs.proto.ServerInfo;
import org.indexfs.proto.WriteHandle;

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
public class IndexFileSystem extends ExtendedNamespace implements LeaseRecoverable, SafeMode {
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
  private org.indexfs.hadoop.decoupled.Checkouts checkouts;
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
    String zk = conf.get(String.format(IndexFsConfig.CLUSTER_ZOOKEEPER_PATTERN, cluster),
        get(conf, IndexFsConfig.ZOOKEEPER_QUORUM));
    UserGroupInformation ugi = UserGroupInformation.getCurrentUser();
    user = ugi.getShortUserName();
    var login = KerberosLogin.of(ugi, conf, TOKEN_SERVICE_PREFIX + cluster);
    // A slot map only the servers can have written is believed (issue 31).
    String servers = get(conf, IndexFsConfig.SECURITY_ZOOKEEPER_SERVER_ID);
    ClusterConnection connection = get(conf, IndexFsConfig.CLIENT_PRIVATE_CONNECTION)
        ? ClusterConnection.openUnshared(zk, cluster, get(conf, IndexFsConfig.RPC_MAX_FRAME_BYTES), 30_000,
            get(conf, IndexFsConfig.CLIENT_CACHE_ENTRIES), login, servers)
        : ClusterConnection.acquire(zk, cluster,
            get(conf, IndexFsConfig.RPC_MAX_FRAME_BYTES), 30_000, get(conf, IndexFsConfig.CLIENT_CACHE_ENTRIES), login,
            get(conf, IndexFsConfig.CLIENT_CONNECTION_LINGER_MS), servers);
    connection.listConnections(get(conf, IndexFsConfig.CLIENT_LIST_CONNECTIONS));
    client = new IndexFsClient(connection, caller(ugi), get(conf, IndexFsConfig.RPC_TIMEOUT_MS),
        get(conf, IndexFsConfig.CLIENT_FAILOVER_WAIT_MS));
    try {
      ServerInfo info = connection.serverInfo(client::serverInfo);
      inlineMax = info.getInlineMaxBytes();
      serverDefaults = info.getServerDefaults();
      objects = new DataObjects(info.getDataUri(), conf, ugi);
      bytes = new FileBytes(objects);
      renewer = new LeaseRenewer(client, info.getLeaseSoftLimitMs());
      localized = new LocalizedPaths(client, objects, conf);
      checkouts = new org.indexfs.hadoop.decoupled.Checkouts(this,
          java.nio.file.Path.of(conf.get("hadoop.tmp.dir", System.getProperty("java.io.tmpdir")), "indexfs-checkouts"));
    } catch (IOException e) {
      // Hadoop closes a FileSystem whose initialize failed: that close must not release the
      // connection a second time (a shared connection would go on counting one user too few).
      client.close();
      client = null;
      throw HadoopErrors.toHadoop(e);
    }
    workingDir = getHomeDirectory();
  }

  /** Who calls: user and groups for permission checks, the rest for the servers' audit log. */
  private static Caller caller(UserGroupInformation ugi) throws IOException {
    Caller.Builder b = IndexFsClient.caller(ugi.getShortUserName(), List.of(ugi.getGroupNames()),
        UUID.randomUUID().toString()).toBuilder().setAuthMethod(ugi.getAuthenticationMethod().name());
    UserGroupInformation real = ugi.getRealUser();
    if (real != null) {
      b.setRealUser(real.getUserName()).setRealAuthMethod(real.getAuthenticationMethod().name());
    }
    return b.build();
  }

  static <T> T get(Configuration conf, ConfigKey<T> key) {
    return key.get(Collections.singletonMap(key.name(), conf.get(key.name())));
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

  /** The unmasked mode a client sends with a create or mkdir, or null. */
  private static Integer unmasked(FsPermission permission) {
    return permission.getUnmasked() == null ? null : (int) permission.getUnmasked().toShort();
  }

  /**
   * LOCALIZE ({@code shared}: SHARED_LOCALIZE) directory {@code f}, making it if needed (IndexFS
   * §II-D): until {@link #publish} (or this FileSystem closes, or another client asks for the
   * subtree) everything created below it stays in this process; other clients see it as of the
   * last publish, and their changes inside wait for the next.
   */
  public void localize(Path f, boolean shared) throws IOException {
    String path = pathOf(f);
    write(() -> localized.bulk().localize(path, masked(null, FsPermission.getDirDefault()).toShort(), shared));
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
  /** This FileSystem's localized subtrees (tests stop their renewals to play a dead client). */
  LocalizedPaths localizedPaths() {
    return localized;
  }

  public long replayClientJournals(Path f) throws IOException {
    String path = pathOf(f);
    return new JournalReplay(this, objects).replay(path, client.caller().getClientId());
  }

  /**
   * Publishes what was made below localized directory {@code f} and gives the lease up; returns
   * the refused entries as "path: reason" (empty when everything was ingested).
   */
  public List<String> publish(Path f) throws IOException {
    String path = pathOf(f);
    org.indexfs.proto.PublishResult r = write(() -> localized.bulk().publish(path, true));
    if (r.getRejectedCount() == 0) {
      localized.published(path);
    }
    List<String> out = new java.util.ArrayList<>();
    r.getRejectedList().forEach(x -> out.add(x.getPath() + ": " + x.getReason()));
    return out;
  }

  /**
   * Checks out directory {@code f}, which lies in a subtree of consistency {@code decoupled}
   * (issue 18, Cudele): the subtree is read once, as of one moment, into this FileSystem; from then
   * on every call on a path inside is answered by that private copy with no RPC and no lease, and
   * other clients see none of it until {@link #merge}. Closing the FileSystem without merging drops
   * the copy.
   */
  public void checkout(Path f) throws IOException {
    String path = pathOf(f);
    read(() -> {
      checkouts.checkout(path);
      return null;
    });
    if (read(() -> client.getPolicy(path)).policy().durability()
        == org.indexfs.common.policy.SubtreePolicy.Durability.CLIENT_JOURNAL) {
      // The copy's operations go to a journal on the data tier as they happen: if this client dies
      // before merging, another replays them (replayClientJournals), as for a localized subtree.
      localized.journal(path, ClientJournal.open(objects, path, client.caller().getClientId()));
    }
  }

  /**
   * Merges the copy of checked-out directory {@code f} back: its renames and deletes are replayed
   * on the server, what it made is published in one ingest; what the server side changed since
   * check-out wins, and every change of the copy not applied is in the report, by path and reason.
   */
  public org.indexfs.hadoop.decoupled.MergeReport merge(Path f) throws IOException {
    String path = pathOf(f);
    org.indexfs.hadoop.decoupled.MergeReport report = write(() -> checkouts.merge(path));
    localized.published(path); // merged: its journal (client-journal) is no longer needed
    return report;
  }

  /** Drops the copy of checked-out directory {@code f} without merging; returns how many changes it held. */
  public long discardCheckout(Path f) throws IOException {
    long n = checkouts.discard(pathOf(f));
    localized.published(pathOf(f)); // dropped on purpose: nothing to replay
    return n;
  }

  /** Local reads of a file made in a localized subtree: its bytes inline here, or its object. */
  private FSDataInputStream openLocal(String path, org.indexfs.proto.FileStatus status) throws IOException {
    org.indexfs.client.bulk.LocalSubtree t = localized.find(path);
    org.indexfs.common.schema.Inode pending = t == null ? null : t.pendingFile(path);
    if (pending == null || pending.isDirectory()) {
      return null;
    }
    if (pending.dataObject == null) {
      byte[] bytes = pending.inlineData == null ? new byte[0] : pending.inlineData;
      return new FSDataInputStream(new IndexInputStream(path, bytes.length, IndexInputStream.inline(bytes), statistics));
    }
    return new FSDataInputStream(new IndexInputStream(path, pending.length,
        new DataObjectSource(objects.open(pending.dataObject, objects.user(), path)), statistics));
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    String path = pathOf(f);
    Snapshots.At snapshot = Snapshots.parse(path);
    if (snapshot != null) {
      return bytes.open(path, read(() -> snapshots().open(snapshot)), statistics);
    }
    org.indexfs.hadoop.decoupled.PrivateCopy copy = checkouts.find(path);
    if (copy != null) {
      byte[] written = copy.readWritten(path);
      if (written != null) {
        return new FSDataInputStream(new IndexInputStream(path, written.length, IndexInputStream.inline(written),
            statistics));
      }
      path = copy.origin(path); // checked out, not written in the copy: the server's bytes
    }
    String at = path;
    FSDataInputStream local = openLocal(path, null);
    if (local != null) {
      return local;
    }
    return bytes.open(at, read(() -> client.open(at)), statistics);
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
    org.indexfs.hadoop.decoupled.PrivateCopy copy = checkouts.find(path);
    if (copy != null) {
      java.io.OutputStream out = copy.create(path, permission.toShort(), overwrite, replication, blockSize,
          createParent);
      ClientJournal journal = localized.journalAt(copy.root());
      return new FSDataOutputStream(journal == null ? out
          : ClientJournal.journaledCopyFile(out, journal, copy, path, permission.toShort(), replication, blockSize),
          statistics);
    }
    mapped(() -> localized.beforeCreate(path)); // a task attempt directory's first file localizes it
    org.indexfs.client.bulk.LocalSubtree t = localized.find(path);
    if (t != null) {
      try {
        org.indexfs.client.bulk.LocalSubtree.Created c = write(() -> t.create(path, permission.toShort(), overwrite,
            replication, blockSize));
        if (c.replacedObject() != null) {
          objects.deleteQuietly(c.replacedObject());
        }
        return new FSDataOutputStream(new LocalOutputStream(t, objects, path, c.inodeId(), inlineMax,
            replication, blockSize).journaled(localized.journalOf(t), permission.toShort()), statistics);
      } catch (org.indexfs.client.bulk.LocalSubtree.NotLocal e) {
        t.publish(false);
      }
    }
    org.indexfs.proto.FileStatus created = write(() -> client.create(path, permission.toShort(), unmasked(permission), overwrite, replication, blockSize, createParent));
    IndexOutputStream out = new IndexOutputStream(client, objects, renewer, path, created.getInodeId(), inlineMax,
        replication, blockSize, created.getSpillObject(), created.getSpillPolicy(),
        IndexOutputStream.Start.empty());
    return new FSDataOutputStream(out, statistics);
  }

  /**
   * HDFS append: the caller becomes the file's single writer. An inline file continues in memory
   * (spilling if it outgrows the limit); an object file is appended through the data tier.
   */
  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) throws IOException {
    String path = pathOf(f);
    checkouts.refuse(path, "append");
    localized.flushFor(path);
    WriteHandle handle = write(() -> client.append(path));
    org.indexfs.proto.FileStatus status = handle.getStatus();
    IndexOutputStream.Start start;
    if (status.getDataObject().isEmpty()) {
      start = new IndexOutputStream.Start(handle.getInlineData().toByteArray(), null, null, status.getLength());
    } else {
      start = new IndexOutputStream.Start(null, appendToObject(path, status), status.getDataObject(),
          status.getLength());
    }
    IndexOutputStream out = new IndexOutputStream(client, objects, renewer, path, status.getInodeId(), inlineMax,
        (short) status.getReplication(), status.getBlockSize(), handle.getSpillObject(), handle.getSpillPolicy(), start);
    return new FSDataOutputStream(out, statistics, status.getLength());
  }

  /** Opens an object file's object for append; on failure gives the file back, unchanged. */
  private FSDataOutputStream appendToObject(String path, org.indexfs.proto.FileStatus status) throws IOException {
    try {
      FSDataOutputStream out = objects.append(status.getDataObject(), status.getOwner(), path);
      if (out.getPos() != status.getLength()) {
        out.close();
        throw new IOException("Data object " + status.getDataObject() + " of " + path + " holds " + out.getPos()
            + " bytes but the file records " + status.getLength());
      }
      return out;
    } catch (IOException | RuntimeException e) {
      // Includes UnsupportedOperationException: a local-directory data tier cannot append.
      try {
        client.complete(path, status.getInodeId(), status.getLength(), null, status.getDataObject());
      } catch (IOException closeFailure) {
        e.addSuppressed(closeFailure);
      }
      throw e;
    }
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
    checkouts.refuse(pathOf(f), "truncate");
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
    org.indexfs.hadoop.decoupled.PrivateCopy copy = checkouts.find(s);
    if (copy != null || checkouts.find(d) != null) {
      if (copy == null || !copy.covers(d)) {
        throw new IOException("Cannot rename " + s + " to " + d + ": only one side is in a checked-out copy (merge it first)");
      }
      boolean renamed = copy.rename(s, d);
      ClientJournal journal = localized.journalAt(copy.root());
      if (renamed && journal != null) {
        journal.rename(s, d);
      }
      return renamed;
    }
    mapped(() -> localized.beforeRename(s)); // subtrees localized at or below s: published first
    org.indexfs.client.bulk.LocalSubtree t = localized.find(s);
    if (t != null) {
      if (t.contains(d)) {
        try {
          boolean renamed = write(() -> t.rename(s, d));
          ClientJournal journal = localized.journalOf(t);
          if (renamed && journal != null) {
            journal.rename(s, d);
          }
          return renamed;
        } catch (org.indexfs.client.bulk.LocalSubtree.NotLocal e) {
          // on the server: published first, below
        }
      }
      localized.beforeMoveOut(t);
    }
    localized.flushFor(d);
    return write(() -> client.rename(s, d));
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
    checkouts.refuse(pathOf(src), "rename with options");
    checkouts.refuse(pathOf(dst), "rename with options");
    String s = pathOf(src);
    mapped(() -> localized.beforeRename(s));
    localized.flushFor(s);
    localized.flushFor(pathOf(dst));
    writeVoid(() -> client.renameExact(pathOf(src), pathOf(dst), overwrite));
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    String path = pathOf(f);
    org.indexfs.hadoop.decoupled.PrivateCopy copy = checkouts.find(path);
    if (copy != null) {
      boolean deleted = copy.delete(path, recursive);
      ClientJournal journal = localized.journalAt(copy.root());
      if (deleted && journal != null) {
        journal.delete(path, recursive);
      }
      return deleted;
    }
    mapped(() -> localized.beforeDelete(path, objects)); // subtrees localized at or below: dropped
    org.indexfs.client.bulk.LocalSubtree t = localized.find(path);
    if (t != null) {
      try {
        for (String object : write(() -> t.delete(path, recursive))) {
          objects.deleteQuietly(object);
        }
        ClientJournal journal = localized.journalOf(t);
        if (journal != null) {
          journal.delete(path, recursive);
        }
        return true;
      } catch (org.indexfs.client.bulk.LocalSubtree.NotLocal e) {
        t.publish(false);
      }
    }
    localized.flushFor(path);
    return write(() -> client.delete(path, recursive));
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
    org.indexfs.hadoop.decoupled.PrivateCopy copy = checkouts.find(path);
    if (copy != null) {
      List<org.indexfs.proto.FileStatus> entries = copy.list(path);
      ChildPaths children = new ChildPaths(dir);
      java.util.Iterator<org.indexfs.proto.FileStatus> it = entries.iterator();
      boolean file = entries.size() == 1 && entries.get(0).getType() == org.indexfs.proto.FileType.FILE
          && copy.status(path).getType() == org.indexfs.proto.FileType.FILE;
      return new RemoteIterator<>() {
        @Override
        public boolean hasNext() {
          return it.hasNext();
        }

        @Override
        public FileStatus next() {
          org.indexfs.proto.FileStatus s = it.next();
          return toHadoop(file ? dir : children.of(s.getName()), s);
        }
      };
    }
    org.indexfs.client.bulk.LocalSubtree t = localized.find(path) != null ? localized.find(path) : localized.bulk().at(path);
    if (t != null) {
      List<org.indexfs.proto.FileStatus> entries = read(() -> t.list(path));
      ChildPaths children = new ChildPaths(dir);
      return new RemoteIterator<>() {
        private int index;

        @Override
        public boolean hasNext() {
          return index < entries.size();
        }

        @Override
        public FileStatus next() {
          if (!hasNext()) {
            throw new java.util.NoSuchElementException("No more entries in " + dir);
          }
          org.indexfs.proto.FileStatus s = entries.get(index++);
          return toHadoop(entries.size() == 1 && s.getType() == org.indexfs.proto.FileType.FILE
              && !path.equals(t.root()) && s.getName().equals(dir.getName()) ? dir : children.of(s.getName()), s);
        }
      };
    }
    return new StatusIterator(f, dir, client.list(pathOf(dir), () -> statistics.incrementReadOps(1)));
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
    org.indexfs.hadoop.decoupled.PrivateCopy copy = checkouts.find(path);
    if (copy != null) {
      boolean made = copy.mkdirs(path, permission.toShort());
      ClientJournal journal = localized.journalAt(copy.root());
      if (made && journal != null) {
        journal.mkdir(path, permission.toShort());
      }
      return made;
    }
    if (mapped(() -> localized.beforeCreate(path)) && localized.bulk().at(path) != null) {
      return true; // a task attempt directory, made and localized
    }
    org.indexfs.client.bulk.LocalSubtree t = localized.find(path);
    if (t != null) {
      try {
        boolean made = write(() -> t.mkdirs(path, permission.toShort()));
        ClientJournal journal = localized.journalOf(t);
        if (journal != null) {
          journal.mkdir(path, permission.toShort());
        }
        return made;
      } catch (org.indexfs.client.bulk.LocalSubtree.NotLocal e) {
        t.publish(false);
      }
    }
    int pattern = localized.patternFor(path);
    if (pattern != 0 && localized.bulk().at(path) == null) {
      // indexfs.client.localize.patterns: unmodified jobs get bulk insertion for these directories.
      write(() -> localized.bulk().localize(path, permission.toShort(), pattern == 2));
      return true;
    }
    org.indexfs.client.IndexFsClient.Made made =
        write(() -> client.mkdirsInPolicy(path, permission.toShort(), unmasked(permission)));
    if (made.created() && made.policy().consistency() == org.indexfs.common.policy.SubtreePolicy.Consistency.LOCALIZED
        && localized.bulk().at(path) == null) {
      // A localized subtree (issue 18): what this client makes in a new directory there stays in the
      // client until it publishes, as under indexfs.client.localize.patterns (bulk insertion).
      write(() -> localized.bulk().localize(path, permission.toShort(), false));
      if (made.policy().durability() == org.indexfs.common.policy.SubtreePolicy.Durability.CLIENT_JOURNAL) {
        localized.journal(path, ClientJournal.open(objects, path, client.caller().getClientId()));
      }
    }
    return made.created();
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    Path qualified = makeQualified(f);
    String path = pathOf(qualified);
    Snapshots.At snapshot = Snapshots.parse(path);
    if (snapshot != null) {
      return read(() -> toHadoop(qualified, snapshots().status(snapshot)));
    }
    org.indexfs.hadoop.decoupled.PrivateCopy copy = checkouts.find(path);
    if (copy != null) {
      return toHadoop(qualified, copy.status(path));
    }
    org.indexfs.client.bulk.LocalSubtree t = localized.find(path);
    if (t != null) {
      return read(() -> toHadoop(qualified, t.getFileStatus(path)));
    }
    return read(() -> toHadoop(qualified, client.getFileStatus(path)));
  }

  private Snapshots snapshots() {
    return new Snapshots(client);
  }

  /** A snapshot call: DFSClient unwraps whatever the NameNode refuses it with (SnapshotException …). */
  private <T> T unwrapped(Rpc<T> call) throws IOException {
    try {
      return write(call);
    } catch (IOException e) {
      throw HadoopErrors.asDfsClient(e);
    }
  }

  /** HDFS's createSnapshot: the snapshot's path, {@code <dir>/.snapshot/<name>} (a generated name if null). */
  @Override
  public Path createSnapshot(Path path, String snapshotName) throws IOException {
    Path dir = makeQualified(path);
    String name = unwrapped(() -> snapshots().create(pathOf(dir), snapshotName));
    // As HDFS returns it: the path alone, without the file system's scheme and authority.
    return new Path(pathOf(dir), ".snapshot/" + name);
  }

  @Override
  public void renameSnapshot(Path path, String snapshotOldName, String snapshotNewName) throws IOException {
    String dir = pathOf(makeQualified(path));
    unwrapped(() -> {
      snapshots().rename(dir, snapshotOldName, snapshotNewName);
      return null;
    });
  }

  @Override
  public void deleteSnapshot(Path path, String snapshotName) throws IOException {
    String dir = pathOf(makeQualified(path));
    unwrapped(() -> {
      snapshots().delete(dir, snapshotName);
      return null;
    });
  }

  /** As DistributedFileSystem#allowSnapshot (superuser): snapshots of {@code path} may be taken. */
  public void allowSnapshot(Path path) throws IOException {
    String dir = pathOf(makeQualified(path));
    unwrapped(() -> {
      snapshots().allow(dir, true);
      return null;
    });
  }

  /** As DistributedFileSystem#disallowSnapshot: refused while the directory has snapshots. */
  public void disallowSnapshot(Path path) throws IOException {
    String dir = pathOf(makeQualified(path));
    unwrapped(() -> {
      snapshots().allow(dir, false);
      return null;
    });
  }

  /**
   * As DistributedFileSystem#getSnapshotDiffReport: what changed under snapshottable directory
   * {@code path} from snapshot {@code fromSnapshot} to {@code toSnapshot} ("" or "." for now).
   */
  public org.apache.hadoop.hdfs.protocol.SnapshotDiffReport getSnapshotDiffReport(Path path, String fromSnapshot,
      String toSnapshot) throws IOException {
    return SnapshotDiff.report(this, makeQualified(path), fromSnapshot, toSnapshot);
  }

  /** The path of a directory as HDFS prints it in a diff report's header. */
  String pathOfForDiff(Path dir) {
    return pathOf(dir);
  }

  /**
   * As DistributedFileSystem#getSnapshottableDirListing: the snapshottable directories (the caller's
   * own unless the caller is the superuser), at the path each has now; null if none.
   */
  public org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus[] getSnapshottableDirListing() throws IOException {
    List<org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus> all =
        read(() -> snapshots().snapshottable(client.connection().slotCount()));
    return all.isEmpty() ? null : all.toArray(new org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus[0]);
  }

  static FileStatus toHadoop(Path path, org.indexfs.proto.FileStatus s) {
    return new IndexFileStatus(path, s);
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
    checkouts.refuse(pathOf(p), "setPermission");
    localized.flushFor(pathOf(p));
    writeVoid(() -> client.setPermission(pathOf(p), permission.toShort()));
  }

  @Override
  public void setOwner(Path p, String username, String groupname) throws IOException {
    checkouts.refuse(pathOf(p), "setOwner");
    localized.flushFor(pathOf(p));
    if (username == null && groupname == null) {
      throw new IOException("username == null && groupname == null");
    }
    writeVoid(() -> client.setOwner(pathOf(p), username, groupname));
  }

  @Override
  public void setTimes(Path p, long mtime, long atime) throws IOException {
    checkouts.refuse(pathOf(p), "setTimes");
    localized.flushFor(pathOf(p));
    writeVoid(() -> client.setTimes(pathOf(p), mtime, atime));
  }

  @Override
  public boolean setReplication(Path src, short replication) throws IOException {
    checkouts.refuse(pathOf(src), "setReplication");
    localized.flushFor(pathOf(src));
    return write(() -> client.setReplication(pathOf(src), replication));
  }

  @Override
  public ContentSummary getContentSummary(Path f) throws IOException {
    checkouts.refuse(pathOf(f), "getContentSummary");
    localized.flushFor(pathOf(f));
    org.indexfs.proto.ContentSummary s = read(() -> client.contentSummary(pathOf(f)));
    return new ContentSummary.Builder().length(s.getLength()).fileCount(s.getFileCount())
        .directoryCount(s.getDirectoryCount()).spaceConsumed(s.getSpaceConsumed())
        .quota(s.hasQuota() ? s.getQuota() : -1).spaceQuota(s.hasSpaceQuota() ? s.getSpaceQuota() : -1)
        // HDFS names a file's policy and, for a directory without one of its own, none.
        .erasureCodingPolicy(s.getDirectoryCount() == 0 ? "Replicated" : "").build();
  }

  /** Like HDFS reporting its DataNodes: the capacity of the file system that holds the bytes. */
  @Override
  public FsStatus getStatus(Path p) throws IOException {
    return objects.status();
  }

  /** As DistributedFileSystem: the client's {@code dfs.blocksize}. */
  @Override
  @SuppressWarnings("deprecation")
  public long getDefaultBlockSize() {
    return getConf().getLongBytes("dfs.blocksize", 128L * 1024 * 1024);
  }

  @Override
  public long getDefaultBlockSize(Path f) {
    return getDefaultBlockSize();
  }

  /** As DistributedFileSystem: the client's {@code dfs.replication}. */
  @Override
  @SuppressWarnings("deprecation")
  public short getDefaultReplication() {
    return (short) getConf().getInt("dfs.replication", 3);
  }

  /**
   * The service of this cluster's delegation tokens, {@code indexfs:<cluster>} (HDFS HA uses
   * {@code ha-hdfs:<nameservice>} the same way): the key under which credentials hold its token.
   * Null without Kerberos, as there are no tokens then.
   */
  @Override
  public short getDefaultReplication(Path path) {
    return getDefaultReplication();
  }

  /**
   * The cluster's defaults for new files, as the servers serve them (the data tier's HDFS
   * defaults): what FileContext.create and Hadoop's trash use, as with HDFS.
   */
  @Override
  @SuppressWarnings("deprecation")
  public FsServerDefaults getServerDefaults() {
    org.indexfs.proto.ServerDefaults d = serverDefaults;
    // No key provider: IndexFS has no encryption zones (HDFS without a KMS answers "" too).
    return new FsServerDefaults(d.getBlockSize(), d.getBytesPerChecksum(), d.getWritePacketSize(),
        (short) d.getReplication(), d.getFileBufferSize(), d.getEncryptDataTransfer(), d.getTrashInterval(),
        org.apache.hadoop.util.DataChecksum.Type.valueOf(d.getChecksumType()), "",
        (byte) (d.getDefaultStoragePolicyId() == 0 ? 7 : d.getDefaultStoragePolicyId()));
  }

  @Override
  public FsServerDefaults getServerDefaults(Path p) {
    return getServerDefaults();
  }

  @Override
  public String getCanonicalServiceName() {
    // Set with or without security, as HDFS's: TokenCache and Spark key credentials by it.
    return TOKEN_SERVICE_PREFIX + uri.getAuthority();
  }

  /** As HDFS's (no encryption zones here): the root, as a path without scheme or authority. */
  @Override
  public Path getEnclosingRoot(Path path) throws IOException {
    getFileStatus(path); // HDFS resolves the path first: a missing one is FileNotFoundException
    return new Path("/");
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

  /**
   * The data tier issues tokens too: a job collecting this file system's tokens also gets the data
   * tier's (HDFS's), so its tasks can read and write objects without tickets.
   */
  @Override
  public org.apache.hadoop.security.token.DelegationTokenIssuer[] getAdditionalTokenIssuers() throws IOException {
    if (!UserGroupInformation.isSecurityEnabled() || !objects.configured()) {
      return null;
    }
    return new org.apache.hadoop.security.token.DelegationTokenIssuer[] {objects.fileSystem()};
  }

  /** HDFS {@code getDelegationToken}: asked of the servers with this FileSystem's Kerberos login. */
  @Override
  public Token<IndexFsTokenIdentifier> getDelegationToken(String renewer) throws IOException {
    if (!UserGroupInformation.isSecurityEnabled()) {
      return null;
    }
    org.indexfs.proto.DelegationToken t = read(() -> client.getDelegationToken(renewer == null ? "" : renewer));
    return new Token<>(t.getIdentifier().toByteArray(), t.getPassword().toByteArray(), IndexFsTokenIdentifier.KIND,
        new Text(getCanonicalServiceName()));
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
