package org.indexfs.hadoop.security;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.ssl.KeyStoreTestUtil;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.indexfs.server.local.LocalCluster;

/**
 * The Kerberos test classes' one set-up: a MiniKdc with a keytab for their principals, logins from
 * it, IndexFS clusters whose servers are one of those principals, and — for the data-tier tests — a
 * Kerberized MiniDFSCluster (HTTPS, block tokens, data-transfer protection) whose superuser
 * {@code hdfs/localhost} is also the IndexFS servers' principal (docs/security-data-tier.md).
 * Closing it stops the KDC and resets Hadoop's static login state for the next class. The gateway's
 * Kerberos test uses it too (the adapter's test jar).
 */
public final class TestKdc implements AutoCloseable {
  /** The data tier's (and then the servers') principal, before the realm. */
  public static final String HDFS_PRINCIPAL = "hdfs/localhost";

  private final MiniKdc kdc;
  public final Path work;
  public final String realm;
  public final File keytab;

  private TestKdc(MiniKdc kdc, Path work, File keytab) {
    this.kdc = kdc;
    this.work = work;
    this.realm = kdc.getRealm();
    this.keytab = keytab;
  }

  /** A running KDC under a fresh work directory, with one keytab holding every principal named. */
  public static TestKdc start(String workName, String... principals) throws Exception {
    Path work = IndexFsTestCluster.newWorkDir(workName);
    MiniKdc kdc = new MiniKdc(MiniKdc.createConf(), work.toFile());
    kdc.start();
    File keytab = work.resolve("test.keytab").toFile();
    kdc.createPrincipal(keytab, principals);
    return new TestKdc(kdc, work, keytab);
  }

  public UserGroupInformation login(String principal) throws IOException {
    return UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal + "@" + realm, keytab.getAbsolutePath());
  }

  /** The servers' principal pattern for {@code service} (e.g. {@code indexfs/_HOST@REALM}). */
  public String serverPrincipal(String service) {
    return service + "/_HOST@" + realm;
  }

  /** A client configuration with Kerberos on, knowing the servers as {@code service}; Hadoop's login configured by it. */
  public Configuration clientConf(String service) {
    Configuration conf = new Configuration();
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set(IndexFsConfig.SERVER_KERBEROS_PRINCIPAL.name(), serverPrincipal(service));
    UserGroupInformation.setConfiguration(conf);
    return conf;
  }

  /** An IndexFS cluster with Kerberos on, its servers {@code service/localhost} from this KDC's keytab. */
  public LocalCluster.Builder cluster(String name, int servers, String service) throws IOException {
    return LocalCluster.builder(IndexFsTestCluster.newWorkDir("kerberized-" + name)).clusterName(name).servers(servers)
        .set("hadoop.security.authentication", "kerberos")
        .set(IndexFsConfig.SERVER_BIND_HOST.name(), "localhost")
        .set(IndexFsConfig.SERVER_KERBEROS_PRINCIPAL.name(), serverPrincipal(service))
        .set(IndexFsConfig.SERVER_KEYTAB.name(), keytab.getAbsolutePath());
  }

  /**
   * A Kerberized MiniDFSCluster of one DataNode, configured from {@code conf} (which gains its
   * settings); this process logs in as its superuser. {@code sslClass} locates the SSL key stores.
   */
  public MiniDFSCluster kerberizedHdfs(Configuration conf, Class<?> sslClass) throws Exception {
    String hdfsPrincipal = HDFS_PRINCIPAL + "@" + realm;
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set("dfs.namenode.kerberos.principal", hdfsPrincipal);
    conf.set("dfs.namenode.keytab.file", keytab.getAbsolutePath());
    conf.set("dfs.datanode.kerberos.principal", hdfsPrincipal);
    conf.set("dfs.datanode.keytab.file", keytab.getAbsolutePath());
    conf.set("dfs.web.authentication.kerberos.principal", "HTTP/localhost@" + realm);
    conf.setBoolean("dfs.block.access.token.enable", true);
    conf.set("dfs.data.transfer.protection", "authentication");
    conf.set("dfs.http.policy", "HTTPS_ONLY");
    conf.set("dfs.namenode.https-address", "localhost:0");
    conf.set("dfs.datanode.https.address", "localhost:0");
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 0);
    conf.setInt("dfs.replication", 1);
    String keystores = work.resolve("keystores").toAbsolutePath().toString();
    new File(keystores).mkdirs();
    KeyStoreTestUtil.setupSSLConfig(keystores, KeyStoreTestUtil.getClasspathDir(sslClass), conf, false);
    conf.set("dfs.client.https.keystore.resource", KeyStoreTestUtil.getClientSSLConfigFileName());
    conf.set("dfs.server.https.keystore.resource", KeyStoreTestUtil.getServerSSLConfigFileName());
    UserGroupInformation.setConfiguration(conf);
    UserGroupInformation.loginUserFromKeytab(hdfsPrincipal, keytab.getAbsolutePath());
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, work.resolve("hdfs").toString());
    MiniDFSCluster hdfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    hdfs.waitActive();
    return hdfs;
  }

  /**
   * An IndexFS cluster whose data tier is {@code hdfs} under {@code dataDir}; its servers are the
   * HDFS superuser's principal (chown of objects needs it) and carry the data tier's security settings.
   */
  public LocalCluster.Builder clusterOver(MiniDFSCluster hdfs, String name, int servers, String dataDir) throws IOException {
    LocalCluster.Builder b = cluster(name, servers, "hdfs")
        .set(IndexFsConfig.DATA_URI.name(), "hdfs://localhost:" + hdfs.getNameNodePort() + dataDir);
    for (Map.Entry<String, String> e : hdfs.getConfiguration(0)) {
      String k = e.getKey();
      if (k.startsWith("dfs.") || k.startsWith("hadoop.security") || k.startsWith("hadoop.rpc") || k.startsWith("ssl.")) {
        b.set(k, e.getValue());
      }
    }
    return b;
  }

  @Override
  public void close() {
    kdc.stop();
    UserGroupInformation.reset();
    UserGroupInformation.setConfiguration(new Configuration());
  }
}
