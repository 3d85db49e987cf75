package org.indexfs.hadoop;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileSystem;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.OpenResult;

/**
 * Where a file's bytes are and how they are read (DESIGN §6): inline in its entry, served by the
 * metadata tier, or in a data object on the data tier, read with its stock client. Streams,
 * checksums and block locations answer as HDFS's do for either.
 */
final class FileBytes {
  private final DataObjects objects;

  FileBytes(DataObjects objects) {
    this.objects = objects;
  }

  /** A stream over what {@code open} returned; every byte read counts in {@code statistics}. */
  FSDataInputStream open(String path, OpenResult result, FileSystem.Statistics statistics) throws IOException {
    FileStatus status = result.getStatus();
    if (status.getDataObject().isEmpty()) {
      return new FSDataInputStream(new IndexInputStream(path, status.getLength(),
          IndexInputStream.inline(result.getInlineData().toByteArray()), statistics));
    }
    // Only an object that still is the file's (owner, inode) is read: a replaced one is refused.
    FSDataInputStream in = objects.open(status.getDataObject(), status.getOwner(), path);
    // A file being written is as long as what its writer has hflushed to the object (HDFS: the
    // visible length); a closed one as long as its entry says.
    long length = status.getUnderConstruction()
        ? objects.visibleLength(status.getDataObject(), in) : status.getLength();
    return new FSDataInputStream(new IndexInputStream(path, length, new DataObjectSource(in), statistics));
  }

  /**
   * HDFS's checksum of the first {@code length} bytes: the data tier's for an object file, the
   * same computation over the entry's bytes for an inline file (so both compare equal to an HDFS
   * copy of the file).
   */
  FileChecksum checksum(String path, OpenResult result, long length, Configuration conf) throws IOException {
    FileStatus status = result.getStatus();
    long n = Math.min(length, status.getLength());
    if (!status.getDataObject().isEmpty()) {
      return objects.checksum(status.getDataObject(), n, status.getOwner(), path);
    }
    return InlineChecksum.of(result.getInlineData().toByteArray(), (int) n, conf);
  }

  /**
   * An object file's blocks as the data tier reports them (its DataNodes, so MapReduce and Spark
   * schedule next to the data). An inline file is one block held by the metadata server of its
   * entry ({@code server}), reported with as many replicas as its replication, all on that
   * server's host: the metadata tier keeps it, there is nothing to re-replicate, and
   * {@code hadoop fs -setrep -w} returns at once.
   */
  BlockLocation[] locations(IndexFileStatus status, long start, long len, InetSocketAddress server)
      throws IOException {
    if (status.getLen() <= start) {
      return new BlockLocation[0];
    }
    if (status.dataObject() != null) {
      return objects.blockLocations(status.dataObject(), start, len);
    }
    String[] names = new String[Math.max(1, status.getReplication())];
    String[] hosts = new String[names.length];
    Arrays.fill(names, server.getHostString() + ":" + server.getPort());
    Arrays.fill(hosts, server.getHostString());
    return new BlockLocation[] {new BlockLocation(names, hosts, 0, status.getLen())};
  }
}
