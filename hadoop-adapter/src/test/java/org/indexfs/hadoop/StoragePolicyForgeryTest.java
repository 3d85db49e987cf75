package org.indexfs.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.client.ClusterConnection;
import org.indexfs.client.IndexFsClient;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;

/**
 * Issue 31, item 13: a client sending setStoragePolicy itself, with a policy of its own making. Before
 * the fix a directory took id 0xFFFF named "../../x", and getStoragePolicy of everything below it
 * failed for everyone ("unknown to the data tier"); a forged copy-on-create flag let LAZY_PERSIST onto
 * an existing file. The server now takes only the data tier's own policies (HDFS's
 * BlockStoragePolicySuite, asked of its NameNode), by id and name together, with their own flags.
 */
class StoragePolicyForgeryTest {
  @Test
  void onlyTheDataTiersPoliciesAreTaken() throws Exception {
    LocalCluster cluster = IndexFsTestCluster.get();
    UserGroupInformation alice = UserGroupInformation.createUserForTesting("alice", new String[] {"alicegroup"});
    FileSystem admin = FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
    Path dir = new Path("/policy-forgery/dir");
    Path file = new Path(dir, "file");
    try (admin) {
      admin.mkdirs(dir);
      admin.create(file).close();
      admin.setOwner(new Path("/policy-forgery"), "alice", "alicegroup");
      admin.setOwner(dir, "alice", "alicegroup");
      admin.setOwner(file, "alice", "alicegroup");
      try (IndexFsClient forged = new IndexFsClient(ClusterConnection.openUnshared(cluster.zookeeperConnect(),
          cluster.clusterName(), IndexFsConfig.RPC_MAX_FRAME_BYTES.defaultValue(), 10_000),
          IndexFsClient.caller("alice", List.of("alicegroup"), "forged"), 30_000)) {
        IndexFsException unknown = assertThrows(IndexFsException.class,
            () -> forged.setStoragePolicy(dir.toString(), 0xFFFF, "../../x", false, "x"));
        assertEquals(Code.REMOTE_ILLEGAL_ARGUMENT, unknown.code());
        assertEquals("Cannot find a block policy with the name ../../x", unknown.getMessage());

        IndexFsException wrongId = assertThrows(IndexFsException.class,
            () -> forged.setStoragePolicy(dir.toString(), 0xFFFF, "COLD", false, "x"));
        assertEquals(Code.REMOTE_ILLEGAL_ARGUMENT, wrongId.code());
        assertEquals("Storage policy COLD has id 2 on the data tier, not 65535", wrongId.getMessage());

        // LAZY_PERSIST (id 15) is copy-on-create: never on an existing file, whatever the client says.
        IndexFsException lazy = assertThrows(IndexFsException.class,
            () -> forged.setStoragePolicy(file.toString(), 15, "LAZY_PERSIST", false, "x"));
        assertEquals(Code.REMOTE_ILLEGAL_ARGUMENT, lazy.code());
        assertEquals("Policy BlockStoragePolicy{LAZY_PERSIST:15, storageTypes=[RAM_DISK, DISK],"
            + " creationFallbacks=[DISK], replicationFallbacks=[DISK]} cannot be set after file creation.",
            lazy.getMessage());

        assertEquals(0, forged.storagePolicyId(dir.toString(), false), "nothing was stored");
        assertEquals(0, forged.storagePolicyId(file.toString(), false), "nothing was stored");
        forged.setStoragePolicy(dir.toString(), 2, "COLD", false, "anything");
        assertEquals(2, forged.storagePolicyId(dir.toString(), false));
      }
      FileSystem alices = alice.doAs((java.security.PrivilegedExceptionAction<FileSystem>)
          () -> FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf()));
      try (alices) {
        assertEquals("COLD", alices.getStoragePolicy(file).getName(), "readers below see a real policy");
      }
    }
  }
}
