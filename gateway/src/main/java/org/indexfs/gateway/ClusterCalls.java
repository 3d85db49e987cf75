package org.indexfs.gateway;

import java.io.IOException;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.security.token.block.DataEncryptionKey;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport;
import org.apache.hadoop.util.DataChecksum;
import org.indexfs.client.admin.AdminClient;
import org.indexfs.proto.SafeModeRequest;
import org.indexfs.proto.ServerDefaults;

/**
 * Calls about the file system as a whole. Defaults and safe mode are IndexFS's; capacity, the
 * DataNodes and the data-transfer key are the data tier's, whose DataNodes hold every block an
 * hdfs:// client reads or writes, so they are its NameNode's answers, asked as the caller.
 */
final class ClusterCalls {
  private final MetadataTier metadata;
  private final WriteCalls writes;

  ClusterCalls(MetadataTier metadata, WriteCalls writes) {
    this.metadata = metadata;
    this.writes = writes;
  }

  /** IndexFS's defaults for new files (the data tier's HDFS defaults), as indexfs:// clients get them. */
  @SuppressWarnings("deprecation")
  FsServerDefaults getServerDefaults() {
    ServerDefaults d = metadata.info().getServerDefaults();
    return new FsServerDefaults(d.getBlockSize(), d.getBytesPerChecksum(), d.getWritePacketSize(),
        (short) d.getReplication(), d.getFileBufferSize(), d.getEncryptDataTransfer(), d.getTrashInterval(),
        DataChecksum.Type.valueOf(d.getChecksumType()));
  }

  long[] getStats() throws IOException {
    return WriteCalls.forward(null, null, () -> writes.data().as(RpcCall.current()).getStats());
  }

  DatanodeInfo[] getDatanodeReport(HdfsConstants.DatanodeReportType type) throws IOException {
    return WriteCalls.forward(null, null, () -> writes.data().as(RpcCall.current()).getDatanodeReport(type));
  }

  DatanodeStorageReport[] getDatanodeStorageReport(HdfsConstants.DatanodeReportType type) throws IOException {
    return WriteCalls.forward(null, null, () -> writes.data().as(RpcCall.current()).getDatanodeStorageReport(type));
  }

  DatanodeInfo[] getSlowDatanodeReport() throws IOException {
    return WriteCalls.forward(null, null, () -> writes.data().as(RpcCall.current()).getSlowDatanodeReport());
  }

  /** The key clients encrypt block transfers with, when the data tier's DataNodes ask for encryption. */
  DataEncryptionKey getDataEncryptionKey() throws IOException {
    return WriteCalls.forward(null, null, () -> writes.data().asGateway().getDataEncryptionKey());
  }

  /** IndexFS's safe mode, on every slot (entering and leaving need the superuser). */
  boolean setSafeMode(HdfsConstants.SafeModeAction action, boolean isChecked) throws IOException {
    SafeModeRequest.Action a = switch (action) {
      case SAFEMODE_ENTER -> SafeModeRequest.Action.ENTER;
      case SAFEMODE_LEAVE, SAFEMODE_FORCE_EXIT -> SafeModeRequest.Action.LEAVE;
      case SAFEMODE_GET -> SafeModeRequest.Action.GET;
    };
    return NamespaceCalls.call(() -> new AdminClient(metadata.as(RpcCall.current(), null)).safeMode(a).getOn());
  }
}
