package org.indexfs.server.data;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's defaults for new files, which {@code FileSystem.getServerDefaults} and so
 * {@code FileContext.create} (Spark checkpoints, YARN log aggregation, job history) use: block
 * size, replication, checksum, as HDFS's NameNode serves them. With an HDFS data tier they are
 * that HDFS's own; otherwise HDFS's defaults as this server's Hadoop configuration
 * ({@code hdfs-site.xml}) sets them. The trash interval is this server's {@code fs.trash.interval}:
 * the trash lives in IndexFS's namespace. Fetched once an hour, as HDFS clients cache them.
 */
public final class ServerDefaults {
  private static final Logger LOG = LoggerFactory.getLogger(ServerDefaults.class);
  private static final long VALIDITY_NANOS = TimeUnit.HOURS.toNanos(1);
  /** HDFS's default policy for new files, HOT (HdfsConstants.HOT_STORAGE_POLICY_ID). */
  private static final int HOT_STORAGE_POLICY_ID = 7;

  private final DataTier data;
  private final Configuration conf;
  private org.indexfs.proto.ServerDefaults cached;
  private long fetchedNanos;

  public ServerDefaults(DataTier data) {
    this.data = data;
    this.conf = new HdfsConfiguration();
  }

  public synchronized org.indexfs.proto.ServerDefaults get() {
    if (cached == null || System.nanoTime() - fetchedNanos > VALIDITY_NANOS) {
      cached = fetch();
      fetchedNanos = System.nanoTime();
    }
    return cached;
  }

  private org.indexfs.proto.ServerDefaults fetch() {
    org.indexfs.proto.ServerDefaults.Builder b = org.indexfs.proto.ServerDefaults.newBuilder()
        .setTrashInterval(conf.getLong("fs.trash.interval", 0))
        .setDefaultStoragePolicyId(HOT_STORAGE_POLICY_ID);
    try {
      FsServerDefaults hdfs = data.hdfsServerDefaults();
      if (hdfs != null) {
        return b.setBlockSize(hdfs.getBlockSize()).setBytesPerChecksum(hdfs.getBytesPerChecksum())
            .setWritePacketSize(hdfs.getWritePacketSize()).setReplication(hdfs.getReplication())
            .setFileBufferSize(hdfs.getFileBufferSize()).setEncryptDataTransfer(hdfs.getEncryptDataTransfer())
            .setChecksumType(hdfs.getChecksumType().name())
            .setDefaultStoragePolicyId(hdfs.getDefaultStoragePolicyId()).build();
      }
    } catch (IOException e) {
      LOG.warn("The data tier's server defaults are unavailable ({}); serving the configured ones", e.toString());
    }
    return b.setBlockSize(conf.getLongBytes("dfs.blocksize", 128L << 20))
        .setBytesPerChecksum(conf.getInt("dfs.bytes-per-checksum", 512))
        .setWritePacketSize(conf.getInt("dfs.client-write-packet-size", 64 * 1024))
        .setReplication(conf.getInt("dfs.replication", 3))
        .setFileBufferSize(conf.getInt("io.file.buffer.size", 4096))
        .setEncryptDataTransfer(conf.getBoolean("dfs.encrypt.data.transfer", false))
        .setChecksumType(conf.get("dfs.checksum.type", "CRC32C"))
        .build();
  }
}
