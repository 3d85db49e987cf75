package org.indexfs.hadoop;

import java.io.IOException;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.indexfs.hadoop.token.IndexFsTokenIdentifier;

/**
 * What the cluster tells a client about itself, as DistributedFileSystem does: capacity, defaults
 * for new files, the service its delegation tokens are kept under and who issues them.
 */
abstract class ClusterDefaults extends ExtendedNamespace {
  /** The cluster's defaults for new files, as the servers served them at initialize. */
  abstract org.indexfs.proto.ServerDefaults serverDefaults();

  /** Like HDFS reporting its DataNodes: the capacity of the file system that holds the bytes. */
  @Override
  public FsStatus getStatus(Path p) throws IOException {
    return dataObjects().status();
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
    org.indexfs.proto.ServerDefaults d = serverDefaults();
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

  /** As HDFS's (no encryption zones here): the root, as a path without scheme or authority. */
  @Override
  public Path getEnclosingRoot(Path path) throws IOException {
    getFileStatus(path); // HDFS resolves the path first: a missing one is FileNotFoundException
    return new Path("/");
  }

  /**
   * The data tier issues tokens too: a job collecting this file system's tokens also gets the data
   * tier's (HDFS's), so its tasks can read and write objects without tickets.
   */
  @Override
  public org.apache.hadoop.security.token.DelegationTokenIssuer[] getAdditionalTokenIssuers() throws IOException {
    if (!UserGroupInformation.isSecurityEnabled() || !dataObjects().configured()) {
      return null;
    }
    return new org.apache.hadoop.security.token.DelegationTokenIssuer[] {dataObjects().fileSystem()};
  }

  /** HDFS {@code getDelegationToken}: asked of the servers with this FileSystem's Kerberos login. */
  @Override
  public Token<IndexFsTokenIdentifier> getDelegationToken(String renewer) throws IOException {
    if (!UserGroupInformation.isSecurityEnabled()) {
      return null;
    }
    org.indexfs.proto.DelegationToken t = read(() -> client().getDelegationToken(renewer == null ? "" : renewer));
    return new Token<>(t.getIdentifier().toByteArray(), t.getPassword().toByteArray(), IndexFsTokenIdentifier.KIND,
        new Text(getCanonicalServiceName()));
  }
}
