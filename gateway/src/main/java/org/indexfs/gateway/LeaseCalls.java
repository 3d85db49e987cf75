package org.indexfs.gateway;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.indexfs.client.IndexFsClient;
import org.indexfs.proto.RenewLeaseRequest;
import org.indexfs.proto.Request;

/**
 * The writer's lease and pipeline calls: a client renews its leases on both tiers at once (the
 * client name holds IndexFS's lease on the entry and the data tier's on the object); pipeline
 * recovery and bad-block reports concern the data tier's blocks only; lease recovery is IndexFS's,
 * which recovers the object on the data tier itself.
 */
final class LeaseCalls {
  private final MetadataTier metadata;
  private final WriteCalls writes;

  LeaseCalls(MetadataTier metadata, WriteCalls writes) {
    this.metadata = metadata;
    this.writes = writes;
  }

  /**
   * Every slot renews the holder's leases (a file's lease lives on the slot of its directory
   * partition, which the gateway does not remember); then the data tier.
   */
  void renewLease(String clientName, List<String> namespaces) throws IOException {
    RpcCall call = RpcCall.current();
    IndexFsClient client = metadata.as(call, clientName);
    for (int slot = 0, n = metadata.slotCount(); slot < n; slot++) {
      int s = slot;
      NamespaceCalls.run(() -> client.callSlot(s, Request.newBuilder().setRenewLease(RenewLeaseRequest.getDefaultInstance())));
    }
    if (writes.hasDataTier()) {
      WriteCalls.forward(null, null, () -> {
        writes.data().as(call).renewLease(clientName, null);
        return null;
      });
    }
  }

  boolean recoverLease(String src, String clientName) throws IOException {
    return NamespaceCalls.call(() -> metadata.as(RpcCall.current(), clientName).recoverLease(src));
  }

  LocatedBlock updateBlockForPipeline(ExtendedBlock block, String clientName) throws IOException {
    return WriteCalls.forward(null, null, () -> writes.data().as(RpcCall.current()).updateBlockForPipeline(block, clientName));
  }

  void updatePipeline(String clientName, ExtendedBlock oldBlock, ExtendedBlock newBlock, DatanodeID[] newNodes,
      String[] newStorageIDs) throws IOException {
    WriteCalls.forward(null, null, () -> {
      writes.data().as(RpcCall.current()).updatePipeline(clientName, oldBlock, newBlock, newNodes, newStorageIDs);
      return null;
    });
  }

  void reportBadBlocks(LocatedBlock[] blocks) throws IOException {
    WriteCalls.forward(null, null, () -> {
      writes.data().as(RpcCall.current()).reportBadBlocks(blocks);
      return null;
    });
  }
}
