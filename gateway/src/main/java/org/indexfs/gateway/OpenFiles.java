package org.indexfs.gateway;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException;
import org.indexfs.client.IndexFsClient;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;

/**
 * Which data object holds a file being written, by the file id HDFS clients send back with their
 * block calls (IndexFS's inode id, {@link HdfsStatuses}). The table is only a cache: a gateway that
 * restarted, or the other gateway of the nameservice, finds the file by its path in IndexFS. (A
 * file renamed while written is found by its id only through the gateway that remembers it.)
 */
final class OpenFiles {
  /** A file open for writing and its object. */
  record Open(String path, long inodeId, String object) {}

  private final Cache<Long, Open> known = CacheBuilder.newBuilder().maximumSize(100_000)
      .expireAfterAccess(1, TimeUnit.HOURS).build();

  void remember(Open open) {
    known.put(open.inodeId(), open);
  }

  void forget(long inodeId) {
    known.invalidate(inodeId);
  }

  /**
   * The file {@code fileId} (0: whatever {@code src} names, as for clients that send no id) that
   * {@code holder} writes, with the NameNode's refusals when {@code src} names no such file or one
   * not open for writing. Whether {@code holder} holds its lease is the data tier's check, on the
   * object (the same client name holds both leases).
   */
  Open find(IndexFsClient client, String src, long fileId, String holder) throws IOException {
    if (fileId != 0) {
      Open cached = known.getIfPresent(fileId);
      if (cached != null) {
        return cached;
      }
    }
    FileStatus s;
    try {
      s = client.getFileStatus(src);
    } catch (IndexFsException e) {
      if (e.code() == Code.FILE_NOT_FOUND) {
        throw noFile(src, fileId, holder);
      }
      throw NameNodeErrors.of(e);
    }
    if (fileId != 0 && s.getInodeId() != fileId || HdfsStatuses.isDirectory(s)) {
      throw noFile(src, fileId, holder);
    }
    if (!s.getUnderConstruction() || s.getDataObject().isEmpty()) {
      // Closed, or written by an indexfs:// client (inline until it spills): not this holder's.
      throw new LeaseExpiredException("File is not open for writing: " + src + " (inode " + s.getInodeId()
          + ") Holder " + holder + " does not have any open files.");
    }
    Open open = new Open(src, s.getInodeId(), s.getDataObject());
    remember(open);
    return open;
  }

  private static FileNotFoundException noFile(String src, long fileId, String holder) {
    return new FileNotFoundException("File does not exist: " + src + " (inode " + fileId + ") Holder " + holder
        + " does not have any open files.");
  }
}
