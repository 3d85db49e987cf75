package org.indexfs.hadoop;

import com.google.protobuf.ByteString;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Options.ChecksumOpt;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Progressable;
import org.indexfs.client.ClusterConnection;
import org.indexfs.client.IndexFsClient;
import org.indexfs.common.ConfigKey;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Listing;
import org.indexfs.proto.OpenResult;
import org.indexfs.proto.ServerInfo;

/**
 * The {@code indexfs://<cluster>/} Hadoop FileSystem. The URI authority names the cluster; its
 * ZooKeeper quorum comes from {@code indexfs.cluster.<name>.zookeeper} (or
 * {@code indexfs.zookeeper.quorum}). Metadata goes to the IndexFS servers; bytes of small files
 * ride inline with their entry and larger files live in data objects on the underlying FS.
 */
public class IndexFileSystem extends FileSystem {
  public static final String SCHEME = "indexfs";

  private URI uri;
  private Path workingDir;
  private IndexFsClient client;
  private DataObjects objects;
  private int inlineMax;
  private String user;

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
    ClusterConnection connection = ClusterConnection.acquire(zk, cluster,
        get(conf, IndexFsConfig.RPC_MAX_FRAME_BYTES), 30_000);
    client = new IndexFsClient(connection, caller(ugi), get(conf, IndexFsConfig.RPC_TIMEOUT_MS));
    try {
      ServerInfo info = client.serverInfo();
      inlineMax = info.getInlineMaxBytes();
      objects = new DataObjects(info.getDataUri(), conf);
    } catch (IOException e) {
      client.close();
      throw e;
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

  @Override
  public URI getUri() {
    return uri;
  }

  /** The Java client under this FileSystem (for tools and tests). */
  public IndexFsClient client() {
    return client;
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

  /** The absolute path the servers see. */
  String pathOf(Path p) {
    return makeQualified(p).toUri().getPath();
  }

  private FsPermission masked(FsPermission permission, FsPermission fallback) {
    FsPermission p = permission == null ? fallback : permission;
    return p.applyUMask(FsPermission.getUMask(getConf()));
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    String path = pathOf(f);
    statistics.incrementReadOps(1);
    OpenResult result;
    try {
      result = client.open(path);
    } catch (IOException e) {
      throw HadoopErrors.toHadoop(e);
    }
    long length = result.getStatus().getLength();
    IndexInputStream.Source source = result.getStatus().getDataObject().isEmpty()
        ? IndexInputStream.inline(result.getInlineData().toByteArray())
        : new DataObjectSource(objects.open(result.getStatus().getDataObject()));
    return new FSDataInputStream(new IndexInputStream(path, length, source));
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
      short replication, long blockSize, Progressable progress) throws IOException {
    return create(f, masked(permission, FsPermission.getFileDefault()), overwrite, replication, blockSize, true);
  }

  @Override
  public FSDataOutputStream createNonRecursive(Path f, FsPermission permission, EnumSet<CreateFlag> flags,
      int bufferSize, short replication, long blockSize, Progressable progress) throws IOException {
    if (flags.contains(CreateFlag.APPEND)) {
      throw new UnsupportedOperationException("CreateFlag.APPEND: append is not supported by indexfs yet");
    }
    return create(f, masked(permission, FsPermission.getFileDefault()), flags.contains(CreateFlag.OVERWRITE),
        replication, blockSize, false);
  }

  /**
   * FileContext's create ({@link IndexFs}): FileContext has already applied its own umask, so
   * the permission is used as given, as HDFS's {@code primitiveCreate} does.
   */
  @Override
  protected FSDataOutputStream primitiveCreate(Path f, FsPermission absolutePermission, EnumSet<CreateFlag> flags,
      int bufferSize, short replication, long blockSize, Progressable progress, ChecksumOpt checksumOpt)
      throws IOException {
    boolean exists = exists(f);
    CreateFlag.validate(f, exists, flags);
    if (exists && flags.contains(CreateFlag.APPEND)) {
      return append(f, bufferSize, progress);
    }
    return create(f, absolutePermission, flags.contains(CreateFlag.OVERWRITE), replication, blockSize, true);
  }

  /** {@code permission} is final here: every caller has applied the umask it answers for. */
  private FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, short replication,
      long blockSize, boolean createParent) throws IOException {
    String path = pathOf(f);
    statistics.incrementWriteOps(1);
    org.indexfs.proto.FileStatus created;
    try {
      created = client.create(path, permission.toShort(), overwrite, replication, blockSize, createParent);
    } catch (IOException e) {
      throw HadoopErrors.toHadoop(e);
    }
    IndexOutputStream out = new IndexOutputStream(client, objects, path, created.getInodeId(), inlineMax,
        replication, blockSize);
    return new FSDataOutputStream(out, statistics);
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) throws IOException {
    throw new UnsupportedOperationException("append is not supported by indexfs yet");
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    statistics.incrementWriteOps(1);
    try {
      return client.rename(pathOf(src), pathOf(dst));
    } catch (IOException e) {
      throw HadoopErrors.toHadoop(e);
    }
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
    statistics.incrementWriteOps(1);
    try {
      client.renameExact(pathOf(src), pathOf(dst), overwrite);
    } catch (IOException e) {
      throw HadoopErrors.toHadoop(e);
    }
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    statistics.incrementWriteOps(1);
    try {
      return client.delete(pathOf(f), recursive);
    } catch (IOException e) {
      throw HadoopErrors.toHadoop(e);
    }
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

  /** Pages through the listing with the server's resumable cursor, like HDFS's listing iterator. */
  @Override
  public RemoteIterator<FileStatus> listStatusIterator(Path f) throws IOException {
    Path dir = makeQualified(f);
    String path = pathOf(dir);
    Listing first = listPage(path, ByteString.EMPTY);
    return new RemoteIterator<>() {
      private Listing page = first;
      private int index;

      @Override
      public boolean hasNext() throws IOException {
        while (index >= page.getEntriesCount() && !page.getCursor().isEmpty()) {
          page = listPage(path, page.getCursor());
          index = 0;
        }
        return index < page.getEntriesCount();
      }

      @Override
      public FileStatus next() throws IOException {
        if (!hasNext()) {
          throw new NoSuchElementException("No more entries in " + dir);
        }
        org.indexfs.proto.FileStatus s = page.getEntries(index++);
        return toHadoop(page.getIsFile() ? dir : new Path(dir, s.getName()), s);
      }
    };
  }

  private Listing listPage(String path, ByteString cursor) throws IOException {
    statistics.incrementReadOps(1);
    try {
      return client.listStatus(path, cursor, 0);
    } catch (IOException e) {
      throw HadoopErrors.toHadoop(e);
    }
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
    statistics.incrementWriteOps(1);
    try {
      return client.mkdirs(pathOf(f), permission.toShort());
    } catch (IOException e) {
      throw HadoopErrors.toHadoop(e);
    }
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    statistics.incrementReadOps(1);
    Path qualified = makeQualified(f);
    try {
      return toHadoop(qualified, client.getFileStatus(pathOf(qualified)));
    } catch (IOException e) {
      throw HadoopErrors.toHadoop(e);
    }
  }

  static FileStatus toHadoop(Path path, org.indexfs.proto.FileStatus s) {
    boolean dir = s.getType() == org.indexfs.proto.FileType.DIRECTORY;
    return new FileStatus(dir ? 0 : s.getLength(), dir, dir ? 0 : s.getReplication(), dir ? 0 : s.getBlockSize(),
        s.getMtime(), s.getAtime(), new FsPermission((short) s.getPermission()), s.getOwner(), s.getGroup(), path);
  }

  @Override
  public void setPermission(Path p, FsPermission permission) throws IOException {
    statistics.incrementWriteOps(1);
    try {
      client.setPermission(pathOf(p), permission.toShort());
    } catch (IOException e) {
      throw HadoopErrors.toHadoop(e);
    }
  }

  @Override
  public void setOwner(Path p, String username, String groupname) throws IOException {
    if (username == null && groupname == null) {
      throw new IOException("username == null && groupname == null");
    }
    statistics.incrementWriteOps(1);
    try {
      client.setOwner(pathOf(p), username, groupname);
    } catch (IOException e) {
      throw HadoopErrors.toHadoop(e);
    }
  }

  @Override
  public void setTimes(Path p, long mtime, long atime) throws IOException {
    statistics.incrementWriteOps(1);
    try {
      client.setTimes(pathOf(p), mtime, atime);
    } catch (IOException e) {
      throw HadoopErrors.toHadoop(e);
    }
  }

  @Override
  public boolean setReplication(Path src, short replication) throws IOException {
    statistics.incrementWriteOps(1);
    try {
      return client.setReplication(pathOf(src), replication);
    } catch (IOException e) {
      throw HadoopErrors.toHadoop(e);
    }
  }

  @Override
  public ContentSummary getContentSummary(Path f) throws IOException {
    statistics.incrementReadOps(1);
    try {
      org.indexfs.proto.ContentSummary s = client.contentSummary(pathOf(f));
      return new ContentSummary.Builder().length(s.getLength()).fileCount(s.getFileCount())
          .directoryCount(s.getDirectoryCount()).spaceConsumed(s.getSpaceConsumed())
          .quota(-1).spaceQuota(-1).build();
    } catch (IOException e) {
      throw HadoopErrors.toHadoop(e);
    }
  }

  /** Like HDFS reporting its DataNodes: the capacity of the file system that holds the bytes. */
  @Override
  public FsStatus getStatus(Path p) throws IOException {
    return objects.status();
  }

  @Override
  public long getDefaultBlockSize(Path f) {
    return getConf().getLongBytes("dfs.blocksize", 128L * 1024 * 1024);
  }

  @Override
  public short getDefaultReplication(Path path) {
    return (short) getConf().getInt("dfs.replication", 3);
  }

  @Override
  public String getCanonicalServiceName() {
    // No delegation tokens: the metadata servers trust the caller identity on the connection.
    return null;
  }

  @Override
  public void close() throws IOException {
    try {
      super.close();
    } finally {
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
