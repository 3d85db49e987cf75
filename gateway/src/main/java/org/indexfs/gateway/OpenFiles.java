package org.indexfs.gateway;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException;
import org.indexfs.client.IndexFsClient;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;

/**
 * Which data object holds (or will hold) a file being written, by the file id HDFS clients send back with their
 * block calls (IndexFS's inode id, {@link HdfsStatuses}). The table is only a cache: a gateway that
 * restarted, or the other gateway of the nameservice, finds the file by its path in IndexFS. (A
 * file renamed while written is found by its id only through the gateway that remembers it.)
 */
final class OpenFiles {
  /**
   * A file open for writing and its object; until its first block ({@link #hasObject()} false),
   * the object it will have ({@code object}, the name IndexFS reserved for its writer) and what
   * the data tier makes it with: the create's replication, block size, storage policy (null: the
   * data tier's default) and crypto versions. {@code holder} is the writer's client name.
   */
  record Open(String path, long inodeId, String object, boolean hasObject, String holder, short replication,
      long blockSize, String storagePolicy, CryptoProtocolVersion[] cryptoVersions) {
    /** A file whose object exists and is recorded in its entry. */
    Open(String path, long inodeId, String object) {
      this(path, inodeId, object, true, null, (short) 0, 0, null, null);
    }

    Open withObject() {
      return new Open(path, inodeId, object, true, holder, replication, blockSize, storagePolicy, cryptoVersions);
    }
  }

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
      // Without an object the data tier cannot check the holder: only the writer it was made for gets it.
      if (cached != null && (cached.hasObject() || cached.holder().equals(holder))) {
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
    if (!s.getUnderConstruction() || s.getDataObject().isEmpty() && s.getSpillObject().isEmpty()) {
      // Closed, or inline and not this holder's (IndexFS names the reserved object only to its writer).
      throw new LeaseExpiredException("File is not open for writing: " + src + " (inode " + s.getInodeId()
          + ") Holder " + holder + " does not have any open files.");
    }
    Open open = s.getDataObject().isEmpty()
        // Created through another gateway, no block yet: the create's storage policy and crypto
        // versions are not known here; the object gets the policy HDFS would place it by, and the
        // crypto versions every Hadoop client offers (the data tier has no encryption zone for it).
        ? new Open(src, s.getInodeId(), s.getSpillObject(), false, holder, (short) s.getReplication(),
            s.getBlockSize(), s.getSpillPolicy().isEmpty() ? null : s.getSpillPolicy(),
            CryptoProtocolVersion.supported())
        : new Open(src, s.getInodeId(), s.getDataObject());
    remember(open);
    return open;
  }

  /**
   * {@link #find} from IndexFS, not this table: a file this gateway remembers without an object may
   * have got one through another gateway (its writer failed over and back).
   */
  Open fresh(IndexFsClient client, String src, long fileId, String holder) throws IOException {
    forget(fileId);
    return find(client, src, fileId, holder);
  }

  private static FileNotFoundException noFile(String src, long fileId, String holder) {
    return new FileNotFoundException("File does not exist: " + src + " (inode " + fileId + ") Holder " + holder
        + " does not have any open files.");
  }
}
