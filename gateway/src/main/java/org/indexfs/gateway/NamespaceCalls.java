package org.indexfs.gateway;

import com.google.protobuf.ByteString;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.indexfs.client.IndexFsClient;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;

/**
 * The ClientProtocol calls about names and attributes, answered by IndexFS as the calling user:
 * lookups, listings (HDFS's paging by name), mkdirs, delete, renames, attributes, quotas and
 * content summaries. Each is the NameNode call's meaning, IndexFS's rules and messages.
 */
final class NamespaceCalls {
  private final MetadataTier metadata;
  private final Reads reads;
  private final int listLimit;

  NamespaceCalls(MetadataTier metadata, Reads reads, int listLimit) {
    this.metadata = metadata;
    this.reads = reads;
    this.listLimit = listLimit;
  }

  private IndexFsClient client() throws IOException {
    return metadata.as(RpcCall.current(), null);
  }

  /** The NameNode answers "no such path" to getFileInfo with null, not an exception. */
  HdfsFileStatus getFileInfo(String src) throws IOException {
    PathChecks.validName(src);
    FileStatus s = statusOrNull(client(), src);
    return s == null ? null : HdfsStatuses.of(s, HdfsStatuses.NO_NAME);
  }

  static FileStatus statusOrNull(IndexFsClient client, String src) throws IOException {
    try {
      return client.getFileStatus(src);
    } catch (IndexFsException e) {
      if (e.code() == Code.FILE_NOT_FOUND) {
        return null;
      }
      throw NameNodeErrors.of(e);
    }
  }

  /**
   * One page of {@code dfs.ls.limit} names after {@code startAfter}, in HDFS's order; a file lists
   * as itself (no name); a missing path is null (the client says it does not exist).
   */
  DirectoryListing getListing(String src, byte[] startAfter, boolean needLocation) throws IOException {
    RpcCall call = RpcCall.current();
    IndexFsClient client = metadata.as(call, null);
    try {
      org.indexfs.client.DirectoryListing listing = client.listAfter(src, ByteString.copyFrom(startAfter));
      List<HdfsFileStatus> page = new ArrayList<>();
      while (page.size() < listLimit && listing.hasNext()) {
        FileStatus s = listing.next();
        byte[] name = listing.isFile() ? HdfsStatuses.NO_NAME : HdfsStatuses.nameOf(s);
        if (needLocation) {
          String path = listing.isFile() ? src : child(src, s.getName());
          page.add(HdfsStatuses.located(s, name, reads.locationsForListing(call, client, path, s)));
        } else {
          page.add(HdfsStatuses.of(s, name));
        }
      }
      return new DirectoryListing(page.toArray(new HdfsFileStatus[0]), listing.hasNext() ? 1 : 0);
    } catch (IndexFsException e) {
      if (e.code() == Code.FILE_NOT_FOUND) {
        return null;
      }
      throw NameNodeErrors.of(e);
    }
  }

  /** A path's entry with its blocks (a file's from where its bytes are); null when there is none. */
  org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus getLocatedFileInfo(String src) throws IOException {
    FileStatus s = statusOrNull(client(), src);
    if (s == null) {
      return null;
    }
    LocatedBlocks blocks = HdfsStatuses.isDirectory(s) ? null : reads.getBlockLocations(src, 0, s.getLength());
    return (org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus) HdfsStatuses.located(s, HdfsStatuses.NO_NAME,
        blocks);
  }

  static String child(String dir, String name) {
    return dir.endsWith("/") ? dir + name : dir + "/" + name;
  }

  boolean mkdirs(String src, FsPermission masked, boolean createParent) throws IOException {
    PathChecks.validName(src);
    IndexFsClient client = client();
    if (!createParent) {
      String parent = parentOf(src);
      FileStatus p = parent == null ? null : statusOrNull(client, parent);
      if (parent != null && p == null) {
        throw new FileNotFoundException("Parent directory doesn't exist: " + parent);
      }
      if (p != null && !HdfsStatuses.isDirectory(p)) {
        throw new ParentNotDirectoryException(parent + " (is not a directory)");
      }
    }
    Integer unmasked = masked.getUnmasked() == null ? null : (int) masked.getUnmasked().toShort();
    try {
      return client.mkdirs(src, masked.toShort(), unmasked);
    } catch (IOException e) {
      throw NameNodeErrors.of(e);
    }
  }

  static String parentOf(String path) {
    int slash = path.lastIndexOf('/');
    if (slash < 0 || path.equals("/")) {
      return null;
    }
    return slash == 0 ? "/" : path.substring(0, slash);
  }

  boolean delete(String src, boolean recursive) throws IOException {
    return call(() -> client().delete(src, recursive));
  }

  /** The NameNode's old rename: false for most refusals, as DistributedFileSystem#rename reports them. */
  boolean rename(String src, String dst) throws IOException {
    PathChecks.validName(dst);
    if (PathChecks.reserved(src) || PathChecks.reserved(dst)) {
      return false;
    }
    return call(() -> client().rename(src, dst));
  }

  void rename2(String src, String dst, Options.Rename... options) throws IOException {
    boolean overwrite = false;
    for (Options.Rename o : options) {
      overwrite |= o == Options.Rename.OVERWRITE;
    }
    boolean replace = overwrite;
    run(() -> client().renameExact(src, dst, replace));
  }

  void setPermission(String src, FsPermission permission) throws IOException {
    run(() -> client().setPermission(src, permission.toShort()));
  }

  void setOwner(String src, String username, String groupname) throws IOException {
    run(() -> client().setOwner(src, username, groupname));
  }

  void setTimes(String src, long mtime, long atime) throws IOException {
    run(() -> client().setTimes(src, mtime, atime));
  }

  boolean setReplication(String src, short replication) throws IOException {
    return call(() -> client().setReplication(src, replication));
  }

  void checkAccess(String src, FsAction mode) throws IOException {
    run(() -> client().access(src, mode.ordinal()));
  }

  ContentSummary getContentSummary(String src) throws IOException {
    org.indexfs.proto.ContentSummary s = call(() -> client().contentSummary(src));
    return new ContentSummary.Builder().length(s.getLength()).fileCount(s.getFileCount())
        .directoryCount(s.getDirectoryCount()).spaceConsumed(s.getSpaceConsumed())
        .quota(s.hasQuota() ? s.getQuota() : -1).spaceQuota(s.hasSpaceQuota() ? s.getSpaceQuota() : -1)
        .erasureCodingPolicy(s.getDirectoryCount() == 0 ? "Replicated" : "").build();
  }

  QuotaUsage getQuotaUsage(String src) throws IOException {
    ContentSummary s = getContentSummary(src);
    return new QuotaUsage.Builder().fileAndDirectoryCount(s.getFileCount() + s.getDirectoryCount())
        .quota(s.getQuota()).spaceConsumed(s.getSpaceConsumed()).spaceQuota(s.getSpaceQuota()).build();
  }

  void setQuota(String src, long namespaceQuota, long storagespaceQuota, StorageType type) throws IOException {
    if (type != null) {
      throw new UnsupportedOperationException("IndexFS has no quotas by storage type (asked for " + type + " on "
          + src + ")");
    }
    run(() -> client().setQuota(src, namespaceQuota, storagespaceQuota));
  }

  void concat(String trg, String[] srcs) throws IOException {
    run(() -> client().concat(trg, List.of(srcs)));
  }

  boolean truncate(String src, long newLength, String clientName) throws IOException {
    return call(() -> metadata.as(RpcCall.current(), clientName).truncate(src, newLength));
  }

  long getPreferredBlockSize(String src) throws IOException {
    return file(src).getBlockSize();
  }

  boolean isFileClosed(String src) throws IOException {
    return !file(src).getUnderConstruction();
  }

  /** A file's entry; a directory is refused with the NameNode's words. */
  private FileStatus file(String src) throws IOException {
    FileStatus s = call(() -> client().getFileStatus(src));
    if (HdfsStatuses.isDirectory(s)) {
      throw new FileNotFoundException("Path is not a file: " + src);
    }
    return s;
  }

  interface Call<T> {
    T run() throws IOException;
  }

  interface VoidCall {
    void run() throws IOException;
  }

  static <T> T call(Call<T> c) throws IOException {
    try {
      return c.run();
    } catch (IOException e) {
      throw NameNodeErrors.of(e);
    }
  }

  static void run(VoidCall c) throws IOException {
    call(() -> {
      c.run();
      return null;
    });
  }
}
