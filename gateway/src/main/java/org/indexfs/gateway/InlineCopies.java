package org.indexfs.gateway;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.ipc.RemoteException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How an HDFS client reads a file whose bytes are inline in IndexFS (up to
 * {@code indexfs.inline.max-bytes}): it can only read blocks from DataNodes, so the gateway keeps a
 * read copy of those bytes on the data tier, a file named by their SHA-256 in a directory only the
 * gateway's identity can list ({@code indexfs.gateway.inline-copies.dir}), and hands out that
 * copy's blocks. The entry itself is not changed: indexfs:// readers, quotas and the file's mtime
 * see nothing of it. A copy is made once per content (written under a temporary name and renamed
 * into place, so a reader never sees a partial copy, whichever gateway makes it), is found again by
 * every gateway, and is deleted when unused for {@code indexfs.gateway.inline-copies.keep-ms}: the
 * copies are a cache, and a restart loses nothing.
 */
final class InlineCopies {
  private static final Logger LOG = LoggerFactory.getLogger(InlineCopies.class);
  private static final FsPermission PRIVATE_DIR = new FsPermission((short) 0700);
  private static final FsPermission PRIVATE_FILE = new FsPermission((short) 0600);
  private static final String TEMPORARY = ".tmp-";

  private final DataTierNameNode data;
  private final String dir;
  private final long keepMs;

  InlineCopies(DataTierNameNode data, String dir, long keepMs) {
    this.data = data;
    this.dir = dir;
    this.keepMs = keepMs;
  }

  /** Where the bytes of an inline file are, for a reader of {@code length} bytes at {@code offset}. */
  LocatedBlocks locations(byte[] bytes, long offset, long length) throws IOException {
    if (bytes.length == 0) {
      return new LocatedBlocks(0, false, List.of(), null, false, null, null);
    }
    if (data == null) {
      throw new UnsupportedOperationException("This IndexFS cluster keeps its data objects outside HDFS: the "
          + "IndexFS gateway can serve the bytes of files only from an HDFS data tier");
    }
    String path = dir + "/" + sha256(bytes);
    ClientProtocol nn = data.asGateway();
    LocatedBlocks blocks = existing(nn, path, offset, length);
    if (blocks == null) {
      make(path, bytes);
      blocks = existing(nn, path, offset, length);
      if (blocks == null) {
        throw new IOException("The read copy of an inline file vanished as it was made: " + path);
      }
    }
    return blocks;
  }

  private static LocatedBlocks existing(ClientProtocol nn, String path, long offset, long length) throws IOException {
    try {
      return nn.getBlockLocations(path, offset, length);
    } catch (RemoteException e) {
      if (e.unwrapRemoteException() instanceof FileNotFoundException) {
        return null;
      }
      throw DataTierErrors.of(e, null, null);
    }
  }

  private void make(String path, byte[] bytes) throws IOException {
    FileSystem fs = data.fileSystem();
    Path copy = qualified(path);
    Path temporary = qualified(dir + "/" + TEMPORARY + UUID.randomUUID());
    ensureDirectory(fs);
    try (FSDataOutputStream out = fs.create(temporary, PRIVATE_FILE, false, 4096, fs.getDefaultReplication(copy),
        fs.getDefaultBlockSize(copy), null)) {
      out.write(bytes);
    }
    if (!fs.rename(temporary, copy)) {
      fs.delete(temporary, false); // another gateway made the same copy first
    }
  }

  private void ensureDirectory(FileSystem fs) throws IOException {
    Path d = qualified(dir);
    if (!fs.exists(d)) {
      fs.mkdirs(d, PRIVATE_DIR);
      fs.setPermission(d, PRIVATE_DIR);
    }
  }

  private Path qualified(String path) {
    return new Path(data.uri().toString() + path);
  }

  /** Deletes the copies nobody read for {@code keepMs} (HDFS's access time, or when made), and stale temporaries. */
  int sweep(long now) throws IOException {
    if (data == null) {
      return 0;
    }
    FileSystem fs = data.fileSystem();
    int removed = 0;
    FileStatus[] listed;
    try {
      listed = fs.listStatus(qualified(dir));
    } catch (FileNotFoundException none) {
      return 0;
    }
    for (FileStatus st : listed) {
      long used = Math.max(st.getAccessTime(), st.getModificationTime());
      if (now - used > keepMs && fs.delete(st.getPath(), false)) {
        removed++;
      }
    }
    if (removed > 0) {
      LOG.info("Removed {} unused read copies of inline files from {}", removed, dir);
    }
    return removed;
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every JVM has SHA-256", e);
    }
  }
}
