package org.indexfs.server.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.authentication.util.JaasConfiguration;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.ClientInfo;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.indexfs.common.IndexFsConfig;

/**
 * The servers' identity in ZooKeeper and the ACLs of what they write (issue 31), as HBase's ZKUtil
 * and Hadoop's ZKCuratorManager do it: every server session authenticates — with a digest
 * ({@code indexfs.security.zookeeper.digest}) or, with Kerberos, SASL as the servers' principal — and
 * every node a server creates is the servers' alone to change, readable by anyone where clients must
 * read it (the slot map, the format) and by nobody else at all under {@code security/} and
 * {@code tokens/} (the sealing keys, the delegation-token secrets). A node another identity could
 * change was not written by the servers, and they refuse it ({@link #checkWrittenByServers}).
 */
public final class ServerZooKeeper implements ACLProvider {
  private final Id servers;
  /** Digest mode: {@code user:password}, also the secret servers prove themselves to each other with. */
  private final String digest;
  /** SASL mode: the JAAS section of the servers' keytab login, and ZooKeeper's own principal (may be empty). */
  private final String jaasSection;
  private final String zooKeeperPrincipal;

  private ServerZooKeeper(Id servers, String digest, String jaasSection, String zooKeeperPrincipal) {
    this.servers = servers;
    this.digest = digest;
    this.jaasSection = jaasSection;
    this.zooKeeperPrincipal = zooKeeperPrincipal;
  }

  /** Servers authenticating with the digest {@code user:password}. */
  public static ServerZooKeeper digest(String digest) throws IOException {
    int colon = digest.indexOf(':');
    if (colon <= 0 || colon == digest.length() - 1) {
      throw new IOException(IndexFsConfig.SECURITY_ZOOKEEPER_DIGEST.name() + " must be user:password (the servers'"
          + " ZooKeeper digest; bin/indexfs local makes one), got " + (digest.isEmpty() ? "nothing" : "no user:password"));
    }
    return new ServerZooKeeper(new Id("digest", digestId(digest)), digest, null, null);
  }

  /**
   * The servers' settings: SASL as the principal {@code indexfs.server.kerberos.principal} ({@code _HOST}:
   * {@code host}) from its keytab when {@code indexfs.security.zookeeper.auth} says so (the default with
   * Kerberos), else the digest, which simple mode requires.
   */
  public static ServerZooKeeper of(Map<String, String> conf, Configuration hadoop, String host) throws IOException {
    boolean kerberos = "kerberos".equalsIgnoreCase(hadoop.get("hadoop.security.authentication", "simple"));
    String auth = IndexFsConfig.SECURITY_ZOOKEEPER_AUTH.get(conf).trim();
    if (auth.isEmpty()) {
      auth = kerberos ? "sasl" : "digest";
    }
    switch (auth) {
      case "digest" -> {
        return digest(IndexFsConfig.SECURITY_ZOOKEEPER_DIGEST.get(conf));
      }
      case "sasl" -> {
        String pattern = IndexFsConfig.SERVER_KERBEROS_PRINCIPAL.get(conf);
        String keytab = IndexFsConfig.SERVER_KEYTAB.get(conf);
        if (!kerberos || pattern.isEmpty() || keytab.isEmpty()) {
          throw new IOException(IndexFsConfig.SECURITY_ZOOKEEPER_AUTH.name() + "=sasl needs Kerberos"
              + " (hadoop.security.authentication=kerberos, " + IndexFsConfig.SERVER_KERBEROS_PRINCIPAL.name() + ", "
              + IndexFsConfig.SERVER_KEYTAB.name() + ")");
        }
        String principal = SecurityUtil.getServerPrincipal(pattern, host);
        // A login of its own for ZooKeeper's client, beside whatever JAAS sections the JVM has (Hadoop's
        // JaasConfiguration falls through to them): the keytab's principal, as Hadoop's ZK users do.
        String section = "IndexFsZooKeeper:" + principal;
        javax.security.auth.login.Configuration.setConfiguration(new JaasConfiguration(section, principal, keytab));
        // ZooKeeper names a SASL session by the principal's short name once told to drop host and realm
        // (kerberos.removeHostFromPrincipal/removeRealmFromPrincipal): one ACL entry for every server host.
        return new ServerZooKeeper(new Id("sasl", principal.split("[/@]")[0]), null, section,
            IndexFsConfig.SECURITY_ZOOKEEPER_SERVER_PRINCIPAL.get(conf));
      }
      default -> throw new IOException(IndexFsConfig.SECURITY_ZOOKEEPER_AUTH.name() + " must be digest or sasl, not " + auth);
    }
  }

  /** ZooKeeper's digest id of {@code user:password}: {@code user:base64(sha1(user:password))}. */
  public static String digestId(String digest) {
    try {
      return DigestAuthenticationProvider.generateDigest(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code digest:user:hash} or {@code sasl:name}: what clients may be told to expect (indexfs.security.zookeeper.server-id). */
  public String id() {
    return servers.getScheme() + ":" + servers.getId();
  }

  /** The digest (simple mode's cluster secret), or null with SASL. */
  public String digest() {
    return digest;
  }

  /** A session builder for {@code quorum}, authenticated as the servers and creating nodes with their ACLs. */
  public CuratorFrameworkFactory.Builder builder(String quorum) {
    CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder().connectString(quorum)
        .ensembleTracker(false) // keep the configured addresses (see ClusterConnection)
        .retryPolicy(new BoundedExponentialBackoffRetry(100, 2_000, 5))
        .aclProvider(this);
    if (digest != null) {
      return b.authorization("digest", digest.getBytes(StandardCharsets.UTF_8));
    }
    ZKClientConfig config = new ZKClientConfig();
    config.setProperty(ZKClientConfig.LOGIN_CONTEXT_NAME_KEY, jaasSection);
    if (!zooKeeperPrincipal.isEmpty()) {
      config.setProperty(ZKClientConfig.ZOOKEEPER_SERVER_PRINCIPAL, zooKeeperPrincipal);
    }
    return b.zkClientConfig(config);
  }

  /** A started session, connected within 30 s, as the servers (checked: {@link #confirm}). */
  public CuratorFramework connect(String quorum, int sessionTimeoutMs) throws IOException {
    CuratorFramework curator = builder(quorum).sessionTimeoutMs(sessionTimeoutMs).connectionTimeoutMs(15_000).build();
    curator.start();
    try {
      if (!curator.blockUntilConnected(30, java.util.concurrent.TimeUnit.SECONDS)) {
        throw new IOException("Cannot reach ZooKeeper at " + quorum);
      }
      confirm(curator);
      return curator;
    } catch (InterruptedException e) {
      curator.close();
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("Interrupted connecting to ZooKeeper");
    } catch (IOException | RuntimeException e) {
      curator.close();
      throw e;
    }
  }

  /**
   * Refuses a session ZooKeeper does not know as the servers: nodes made with it would not be theirs
   * (a SASL principal ZooKeeper does not shorten, a disabled digest provider).
   */
  public void confirm(CuratorFramework curator) throws IOException {
    List<ClientInfo> who;
    try {
      who = curator.getZookeeperClient().getZooKeeper().whoAmI();
    } catch (Exception e) {
      throw new IOException("Cannot ask ZooKeeper who this server is: " + e, e);
    }
    // ZooKeeper names a digest session by its user alone (the ACL id adds the password's hash).
    String name = servers.getScheme().equals("digest") ? servers.getId().substring(0, servers.getId().indexOf(':'))
        : servers.getId();
    List<String> seen = new ArrayList<>();
    for (ClientInfo c : who) {
      if (c.getAuthScheme().equals(servers.getScheme()) && c.getUser().equals(name)) {
        return;
      }
      seen.add(c.getAuthScheme() + ":" + c.getUser());
    }
    throw new IOException("ZooKeeper knows this server as " + seen + ", not as " + id() + (servers.getScheme().equals("sasl")
        ? ": set kerberos.removeHostFromPrincipal=true and kerberos.removeRealmFromPrincipal=true on the ZooKeeper"
            + " servers (as for HBase), so every server host is one identity" : ""));
  }

  // Lists ZooKeeper may search for null (List.of would throw there).
  @Override
  public List<ACL> getDefaultAcl() {
    return java.util.Arrays.asList(new ACL(ZooDefs.Perms.ALL, servers), new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE));
  }

  @Override
  public List<ACL> getAclForPath(String path) {
    return secret(path) ? java.util.Arrays.asList(new ACL(ZooDefs.Perms.ALL, servers)) : getDefaultAcl();
  }

  /** {@code /indexfs/<cluster>/security/...} and {@code .../tokens/...}: the servers' secrets. */
  static boolean secret(String path) {
    String[] parts = path.split("/");
    return parts.length > 3 && parts[1].equals("indexfs") && (parts[3].equals("security") || parts[3].equals("tokens"));
  }

  /**
   * Refuses {@code path} unless only the servers can change it (and, for a secret, only they can read
   * it): a key node or slot record anyone else could have written, or replaced, is not believed.
   */
  public void checkWrittenByServers(CuratorFramework curator, String path) throws IOException {
    List<ACL> acl;
    try {
      acl = curator.getACL().forPath(path);
    } catch (org.apache.zookeeper.KeeperException.NoNodeException gone) {
      return; // nothing there to believe
    } catch (Exception e) {
      throw new IOException("Cannot read the ACL of " + path + " in ZooKeeper: " + e, e);
    }
    boolean ours = false;
    for (ACL a : acl) {
      if (a.getId().equals(servers)) {
        ours |= (a.getPerms() & ZooDefs.Perms.WRITE) != 0;
      } else if ((a.getPerms() & ~ZooDefs.Perms.READ) != 0 || secret(path)) {
        ours = false;
        break;
      }
    }
    if (!ours) {
      throw new IOException("ZooKeeper node " + path + " was not written by this cluster's servers (" + id()
          + "): its ACL is " + describe(acl) + ". A node made before ZooKeeper ACLs, or by someone else, is not"
          + " trusted: remove it as ZooKeeper's superuser, or use a new cluster name (docs/security-coordination.md)");
    }
  }

  /** The root of {@code cluster} and each node right below it: all the servers', or the cluster is refused. */
  public void checkCluster(CuratorFramework curator, String cluster) throws IOException {
    String root = org.indexfs.common.ClusterPaths.root(cluster);
    checkWrittenByServers(curator, root);
    List<String> children;
    try {
      children = curator.getChildren().forPath(root);
    } catch (org.apache.zookeeper.KeeperException.NoNodeException none) {
      return;
    } catch (Exception e) {
      throw new IOException("Cannot list " + root + " in ZooKeeper: " + e, e);
    }
    for (String child : children) {
      checkWrittenByServers(curator, root + "/" + child);
    }
  }

  static String describe(List<ACL> acl) {
    List<String> out = new ArrayList<>();
    for (ACL a : acl) {
      out.add(a.getId().getScheme() + ":" + a.getId().getId() + ":" + perms(a.getPerms()));
    }
    return out.toString();
  }

  private static String perms(int p) {
    return ((p & ZooDefs.Perms.CREATE) != 0 ? "c" : "") + ((p & ZooDefs.Perms.DELETE) != 0 ? "d" : "")
        + ((p & ZooDefs.Perms.READ) != 0 ? "r" : "") + ((p & ZooDefs.Perms.WRITE) != 0 ? "w" : "")
        + ((p & ZooDefs.Perms.ADMIN) != 0 ? "a" : "");
  }
}
