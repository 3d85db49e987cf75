package org.indexfs.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.token.SecretManager.InvalidToken;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the gateway cannot serve reaches the stock client as the Router's refusals do: a
 * RemoteException naming {@link UnsupportedOperationException}, whose message names the operation
 * and IndexFS. What HDFS answers with "none" (no encryption zone, no erasure coding) is answered so.
 */
class RefusalsTest {
  private static DistributedFileSystem fs;

  @BeforeAll
  static void start() throws IOException {
    fs = (DistributedFileSystem) GatewayTestCluster.newFileSystem(GatewayTestCluster.gateway());
    fs.mkdirs(new Path("/refusals"));
  }

  @AfterAll
  static void stop() throws IOException {
    fs.close();
  }

  private static void refused(Throwable t, String operation) {
    assertThat(t).isInstanceOf(RemoteException.class);
    RemoteException r = (RemoteException) t;
    assertThat(r.getClassName()).isEqualTo(UnsupportedOperationException.class.getName());
    assertThat(r.getMessage()).startsWith("Operation \"" + operation + "\" is not supported by the IndexFS gateway: ");
  }

  @Test
  void cacheDirectivesAreRefused() {
    refused(catchThrowable(() -> fs.addCachePool(new CachePoolInfo("pool"))), "addCachePool");
    refused(catchThrowable(() -> fs.addCacheDirective(new CacheDirectiveInfo.Builder()
        .setPath(new Path("/refusals")).setPool("pool").build())), "addCacheDirective");
    refused(catchThrowable(() -> fs.listCachePools().hasNext()), "listCachePools");
  }

  @Test
  void erasureCodingChangesAreRefusedAndFilesAreReplicated() throws IOException {
    refused(catchThrowable(() -> fs.setErasureCodingPolicy(new Path("/refusals"), "RS-6-3-1024k")),
        "setErasureCodingPolicy");
    assertThat(fs.getErasureCodingPolicy(new Path("/refusals"))).isNull();
    assertThat(fs.getAllErasureCodingPolicies()).isEmpty();
  }

  @Test
  void inotifyIsRefused() {
    refused(catchThrowable(() -> fs.getClient().getNamenode().getCurrentEditLogTxid()), "getCurrentEditLogTxid");
  }

  @Test
  void thereAreNoEncryptionZones() throws IOException {
    assertThat(fs.getEZForPath(new Path("/refusals"))).isNull();
    assertThat(fs.listEncryptionZones().hasNext()).isFalse();
    refused(catchThrowable(() -> fs.getClient().getNamenode().createEncryptionZone("/refusals", "key")),
        "createEncryptionZone");
  }

  @Test
  void withoutKerberosThereAreNoDelegationTokensAndRenewingOneIsRefusedNamingIndexFs() throws IOException {
    // As a NameNode without Kerberos: no token, so job submission goes on without one.
    assertThat(fs.getDelegationToken("alice")).isNull();
    org.apache.hadoop.security.token.Token<DelegationTokenIdentifier> forged = new org.apache.hadoop.security.token.Token<>(
        new DelegationTokenIdentifier(new Text("alice"), new Text("alice"), null).getBytes(), new byte[20],
        DelegationTokenIdentifier.HDFS_DELEGATION_KIND, new Text("any"));
    for (Throwable t : List.of(catchThrowable(() -> fs.getClient().getNamenode().renewDelegationToken(forged)),
        catchThrowable(() -> fs.getClient().getNamenode().cancelDelegationToken(forged)))) {
      assertThat(t).isInstanceOf(RemoteException.class);
      assertThat(((RemoteException) t).getClassName()).isEqualTo(InvalidToken.class.getName());
      assertThat(t.getMessage()).contains("the IndexFS gateway issues delegation tokens only with Kerberos");
    }
  }

  @Test
  void namenodeAdministrationIsRefused() {
    refused(catchThrowable(() -> fs.saveNamespace()), "saveNamespace");
    refused(catchThrowable(() -> fs.rollEdits()), "rollEdits");
  }
}
