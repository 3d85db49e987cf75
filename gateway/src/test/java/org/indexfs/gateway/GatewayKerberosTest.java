package org.indexfs.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.hadoop.security.TestKdc;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gateway secured like a NameNode, on Hadoop's MiniKdc: a Kerberized HDFS (SASL data transfer,
 * block tokens) is the data tier of a Kerberos IndexFS cluster, and the gateway has a principal of
 * its own that both let act for others. alice writes and reads with her ticket through Hadoop RPC's
 * SASL; her job's HDFS_DELEGATION_TOKEN lets a ticketless task read and write as her, is renewed by
 * its renewer and cancelled; a proxy pair the gateway allows works, one it does not is refused in
 * Hadoop's words; a client with no credentials, or one that does not ask for the privacy
 * (hadoop.rpc.protection) every RPC here runs with, gets what a Kerberized NameNode gives it.
 */
class GatewayKerberosTest {
  private static TestKdc kdc;
  private static File keytab;
  private static String realm;
  private static MiniDFSCluster hdfs;
  private static LocalCluster cluster;
  private static Gateway gateway;
  /** The secure client settings every caller here shares (the data tier's, for its DataNodes). */
  private static Configuration conf;

  @BeforeAll
  static void start() throws Exception {
    kdc = TestKdc.start("gateway-kdc", TestKdc.HDFS_PRINCIPAL, "HTTP/localhost", "gateway/localhost", "alice", "bob",
        "mallory");
    realm = kdc.realm;
    keytab = kdc.keytab;
    conf = new Configuration();
    // Every RPC encrypted: the NameNode's, IndexFS's servers', the gateway's.
    conf.set("hadoop.rpc.protection", "privacy");
    // The gateway acts for anyone; bob may act for alice (on the gateway and on the NameNode alike).
    conf.set("hadoop.proxyuser.gateway.hosts", "*");
    conf.set("hadoop.proxyuser.gateway.groups", "*");
    conf.set("hadoop.proxyuser.bob.users", "alice");
    conf.set("hadoop.proxyuser.bob.hosts", "*");
    hdfs = kdc.kerberizedHdfs(conf, GatewayKerberosTest.class);

    LocalCluster.Builder b = kdc.clusterOver(hdfs, "gwkerb", 1, "/indexfs-data")
        .set(IndexFsConfig.SECURITY_ADDRESS_PROXY_USERS.name(), "gateway");
    for (Map.Entry<String, String> e : hdfs.getConfiguration(0)) {
      if (e.getKey().startsWith("hadoop.proxyuser.")) {
        b.set(e.getKey(), e.getValue());
      }
    }
    cluster = b.start();
    gateway = Gateway.start(gatewayConf(Map.of()));
    try (FileSystem admin = FileSystem.newInstance(URI.create(cluster.defaultFs()), indexfsConf())) {
      admin.mkdirs(new org.apache.hadoop.fs.Path("/k"));
      admin.setPermission(new org.apache.hadoop.fs.Path("/k"), new FsPermission((short) 0777));
    }
  }

  /** What the gateway process is given: the secure settings, its principal, the cluster to serve. */
  private static Configuration gatewayConf(Map<String, String> more) {
    Configuration c = new Configuration(conf);
    cluster.clientConf().forEach(c::set);
    c.set(IndexFsConfig.CLUSTER_NAME.name(), cluster.clusterName());
    c.set(IndexFsConfig.SERVER_KERBEROS_PRINCIPAL.name(), "hdfs/_HOST@" + realm);
    // The servers' ZooKeeper identity (SASL as their principal, on the Kerberized embedded ZooKeeper),
    // with which the gateways keep their delegation-token secrets beside the servers'.
    c.set(IndexFsConfig.SERVER_KEYTAB.name(), keytab.getAbsolutePath());
    c.set(IndexFsConfig.SECURITY_ZOOKEEPER_SERVER_PRINCIPAL.name(), "hdfs/localhost@" + realm);
    c.set(IndexFsConfig.GATEWAY_KERBEROS_PRINCIPAL.name(), "gateway/_HOST@" + realm);
    c.set(IndexFsConfig.GATEWAY_KEYTAB.name(), keytab.getAbsolutePath());
    c.set(IndexFsConfig.GATEWAY_BIND_HOST.name(), "localhost");
    c.set(IndexFsConfig.GATEWAY_PORT.name(), "0");
    more.forEach(c::set);
    return c;
  }

  private static Configuration indexfsConf() {
    Configuration c = new Configuration(conf);
    cluster.clientConf().forEach(c::set);
    c.set(IndexFsConfig.SERVER_KERBEROS_PRINCIPAL.name(), "hdfs/_HOST@" + realm);
    return c;
  }

  /** A stock client of the gateway: the NameNode it talks to is the gateway's principal. */
  private static Configuration clientConf(Gateway g) {
    Configuration c = new Configuration(conf);
    c.set("fs.defaultFS", g.uri().toString());
    c.set("dfs.namenode.kerberos.principal", "gateway/_HOST@" + realm);
    return c;
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable c : new AutoCloseable[] {gateway, cluster}) {
      if (c != null) {
        c.close();
      }
    }
    if (hdfs != null) {
      hdfs.shutdown();
    }
    if (kdc != null) {
      kdc.close();
    }
  }

  private static UserGroupInformation login(String user) throws IOException {
    return UserGroupInformation.loginUserFromKeytabAndReturnUGI(user + "@" + realm, keytab.getAbsolutePath());
  }

  private static <T> T as(UserGroupInformation ugi, PrivilegedExceptionAction<T> action) throws Exception {
    return ugi.doAs(action);
  }

  private static byte[] bytes(int n) {
    byte[] b = new byte[n];
    new java.util.Random(n).nextBytes(b);
    return b;
  }

  @Test
  void kerberosUsersWriteAndReadAsThemselvesAndTasksWithTheirTokens() throws Exception {
    org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/k/alice-file");
    Credentials job = new Credentials();
    Token<?>[] collected = as(login("alice"), () -> {
      try (FileSystem fs = FileSystem.newInstance(gateway.uri(), clientConf(gateway))) {
        try (FSDataOutputStream out = fs.create(file)) {
          out.write(bytes(300_000));
        }
        assertThat(fs.getFileStatus(file).getOwner()).isEqualTo("alice");
        return fs.addDelegationTokens("alice", job);
      }
    });
    assertThat(collected).hasSize(1);
    assertThat(collected[0].getKind()).isEqualTo(DelegationTokenIdentifier.HDFS_DELEGATION_KIND);

    // A task: no ticket, only the job's credentials.
    as(task(job), () -> {
      try (FileSystem fs = FileSystem.newInstance(gateway.uri(), clientConf(gateway))) {
        try (FSDataInputStream in = fs.open(file)) {
          assertThat(in.readAllBytes()).isEqualTo(bytes(300_000));
        }
        try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path("/k/task-output"))) {
          out.write(bytes(1000));
        }
        assertThat(fs.getFileStatus(new org.apache.hadoop.fs.Path("/k/task-output")).getOwner()).isEqualTo("alice");
        // A token does not buy more tokens, as on a NameNode.
        Throwable more = catchThrowable(() -> fs.getDelegationToken("alice"));
        assertThat(more).hasMessageContaining("Delegation Token can be issued only with kerberos or web authentication");
      }
      return null;
    });
    // The object holding alice's bytes is hers on the data tier too.
    try (FileSystem indexfs = FileSystem.newInstance(URI.create(cluster.defaultFs()), indexfsConf())) {
      String object = ((org.indexfs.hadoop.IndexFileSystem) indexfs).client().getFileStatus(file.toString()).getDataObject();
      try (FileSystem data = hdfs.getFileSystem()) {
        assertThat(data.getFileStatus(new org.apache.hadoop.fs.Path("/indexfs-data/" + object)).getOwner())
            .isEqualTo("alice");
      }
    }
    // Any gateway of the nameservice takes a token another issued: they share it in ZooKeeper. (An
    // HA client holds it for the nameservice and tries it on each; here, a copy naming the other.)
    try (Gateway second = Gateway.start(gatewayConf(Map.of()))) {
      Token<?> copy = new Token<>(collected[0]);
      copy.setService(org.apache.hadoop.security.SecurityUtil.buildTokenService(second.uri()));
      Credentials forSecond = new Credentials();
      forSecond.addToken(copy.getService(), copy);
      as(task(forSecond), () -> {
        try (FileSystem fs = FileSystem.newInstance(second.uri(), clientConf(second))) {
          assertThat(fs.getFileStatus(file).getLen()).isEqualTo(300_000);
        }
        return null;
      });
    }

    // The same job's token from the NameNode, to compare what each says.
    Credentials nameNodeJob = new Credentials();
    as(login("alice"), () -> {
      try (FileSystem fs = FileSystem.newInstance(hdfs.getURI(), conf)) {
        return fs.addDelegationTokens("alice", nameNodeJob);
      }
    });
    Token<?> token = collected[0];
    Token<?> nameNodeToken = nameNodeJob.getAllTokens().iterator().next();
    // Only its renewer renews it, as on the NameNode.
    assertThat(masked(catchThrowable(() -> as(login("bob"), () -> token.renew(clientConf(gateway))))))
        .contains("tries to renew a token").contains("with non-matching renewer alice")
        .isEqualTo(masked(catchThrowable(() -> as(login("bob"), () -> nameNodeToken.renew(conf)))));
    // Renewed by its renewer through Hadoop's TokenRenewer, then cancelled: a task is refused.
    long expiry = as(login("alice"), () -> token.renew(clientConf(gateway)));
    assertThat(expiry).isGreaterThan(System.currentTimeMillis());
    as(login("alice"), () -> {
      token.cancel(clientConf(gateway));
      nameNodeToken.cancel(conf);
      return null;
    });
    Credentials both = new Credentials(job);
    both.addAll(nameNodeJob);
    String viaGateway = refusal(task(both), gateway.uri(), clientConf(gateway));
    String viaNameNode = refusal(task(both), hdfs.getURI(), conf);
    assertThat(viaGateway.replaceAll("\\d+", "<n>")).isEqualTo(viaNameNode.replaceAll("\\d+", "<n>"))
        .contains("can't be found in cache");
  }

  /** A ticketless task of alice's job: only its credentials (a new UGI, so new connections). */
  private static UserGroupInformation task(Credentials job) {
    UserGroupInformation task = UserGroupInformation.createRemoteUser("alice");
    task.addCredentials(job);
    return task;
  }

  /** The refusal's remote type and message, numbers (ports, dates, sequence numbers) masked. */
  private static String masked(Throwable t) {
    assertThat(t).isNotNull();
    while (!(t instanceof RemoteException) && t.getCause() != null) {
      t = t.getCause();
    }
    String type = t instanceof RemoteException r ? r.getClassName() : t.getClass().getName();
    return (type + ": " + String.valueOf(t.getMessage()).split("\n")[0]).replace(realm, "<realm>")
        .replaceAll("\\d+", "<n>");
  }

  @Test
  void proxyUsersAreCheckedAsByANameNode() throws Exception {
    org.apache.hadoop.fs.Path made = new org.apache.hadoop.fs.Path("/k/by-bob-for-alice");
    as(UserGroupInformation.createProxyUser("alice", login("bob")), () -> {
      try (FileSystem fs = FileSystem.newInstance(gateway.uri(), clientConf(gateway))) {
        fs.mkdirs(made);
        assertThat(fs.getFileStatus(made).getOwner()).isEqualTo("alice");
      }
      return null;
    });
    String viaGateway = refusal(UserGroupInformation.createProxyUser("bob", login("alice")), gateway.uri(),
        clientConf(gateway));
    String viaNameNode = refusal(UserGroupInformation.createProxyUser("bob", login("alice")), hdfs.getURI(), conf);
    assertThat(viaGateway).contains("is not allowed to impersonate bob").isEqualTo(viaNameNode);
  }

  @Test
  void aClientWithNoCredentialsIsRefusedAsByAKerberizedNameNode() throws Exception {
    UserGroupInformation nobody = UserGroupInformation.createRemoteUser("mallory");
    String viaGateway = refusal(nobody, gateway.uri(), clientConf(gateway));
    String viaNameNode = refusal(nobody, hdfs.getURI(), conf);
    assertThat(viaGateway).isEqualTo(viaNameNode).contains("Client cannot authenticate via:[TOKEN, KERBEROS]");
  }

  @Test
  void withPrivacyAClientThatDoesNotAskForItIsRefusedAsByTheNameNode() throws Exception {
    Configuration plain = clientConf(gateway);
    plain.set("hadoop.rpc.protection", "authentication");
    Configuration plainToNameNode = new Configuration(conf);
    plainToNameNode.set("hadoop.rpc.protection", "authentication");
    String viaGateway = refusal(login("alice"), gateway.uri(), plain);
    String viaNameNode = refusal(login("alice"), hdfs.getURI(), plainToNameNode);
    assertThat(viaGateway).isEqualTo(viaNameNode).contains("No common protection layer between client and server");
  }

  /** What {@code ugi} is told when it asks {@code uri} for the root's status: the exception, its first line, ports masked. */
  private static String refusal(UserGroupInformation ugi, URI uri, Configuration c) {
    Throwable t = catchThrowable(() -> as(ugi, () -> {
      Configuration once = new Configuration(c);
      once.setInt("ipc.client.connect.max.retries", 0);
      try (FileSystem fs = FileSystem.newInstance(uri, once)) {
        return fs.getFileStatus(new org.apache.hadoop.fs.Path("/"));
      }
    }));
    if (t == null) {
      return "answered";
    }
    while (t.getCause() != null && !(t instanceof RemoteException) && t.getMessage() != null
        && t.getMessage().contains("Failed on local exception")) {
      t = t.getCause();
    }
    String type = t instanceof RemoteException r ? "RemoteException(" + r.getClassName() + ")" : t.getClass().getName();
    String message = String.valueOf(t.getMessage()).split("\n")[0].replaceAll(":\\d+", ":<port>")
        .replaceAll("\\d+\\.\\d+\\.\\d+\\.\\d+", "<ip>").replace(realm, "<realm>");
    return type + ": " + message;
  }
}
