package org.indexfs.server.local;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.security.authentication.util.JaasConfiguration;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.auth.ProviderRegistry;
import org.apache.zookeeper.server.auth.SASLAuthenticationProvider;

/** A real, single-node ZooKeeper server in this process, keeping its data in a directory. */
public final class EmbeddedZooKeeper implements AutoCloseable {
  private static final String SASL_PROVIDER = "zookeeper.authProvider.sasl";
  private static final String SERVER_SECTION = "zookeeper.sasl.serverconfig";

  /** A Kerberized ZooKeeper's own login: its principal and keytab. */
  public record Kerberos(String principal, String keytab) {}

  private final ZooKeeperServer server;
  private final ServerCnxnFactory factory;
  private final String host;

  public EmbeddedZooKeeper(File dataDir, int port) throws IOException {
    this(dataDir, "127.0.0.1", port);
  }

  /** Listening on {@code host} (an address other network namespaces reach, for fault tests). */
  public EmbeddedZooKeeper(File dataDir, String host, int port) throws IOException {
    this(dataDir, host, port, null);
  }

  /**
   * As above; with {@code kerberos}, clients may authenticate with SASL (GSSAPI) and ACLs may name
   * them {@code sasl:<first component of the principal>}, as a Kerberized ZooKeeper set up for HBase
   * or Hadoop does ({@code kerberos.removeHostFromPrincipal}, {@code kerberos.removeRealmFromPrincipal}).
   */
  public EmbeddedZooKeeper(File dataDir, String host, int port, Kerberos kerberos) throws IOException {
    this.host = host;
    System.setProperty("zookeeper.admin.enableServer", "false");
    System.setProperty("zookeeper.4lw.commands.whitelist", "ruok,stat");
    File snap = new File(dataDir, "snapshots");
    File log = new File(dataDir, "log");
    if (!snap.mkdirs() && !snap.isDirectory() || !log.mkdirs() && !log.isDirectory()) {
      throw new IOException("Cannot create ZooKeeper directories under " + dataDir);
    }
    server = new ZooKeeperServer(snap, log, 500);
    InetSocketAddress address = new InetSocketAddress(host, port);
    if (kerberos == null) {
      factory = ServerCnxnFactory.createFactory(address, 200);
    } else {
      factory = kerberized(address, kerberos);
    }
    try {
      factory.startup(server);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted starting ZooKeeper", e);
    }
  }

  private static ServerCnxnFactory kerberized(InetSocketAddress address, Kerberos kerberos) throws IOException {
    System.setProperty(SASL_PROVIDER, SASLAuthenticationProvider.class.getName());
    ProviderRegistry.addOrUpdateProvider(SASL_PROVIDER);
    System.setProperty("zookeeper.kerberos.removeHostFromPrincipal", "true");
    System.setProperty("zookeeper.kerberos.removeRealmFromPrincipal", "true");
    // The server's login section is read while the factory is configured: a section of its own, named
    // only then, so ZooKeepers started later in this JVM without Kerberos do not pick it up.
    String section = "IndexFsEmbeddedZooKeeper:" + kerberos.principal();
    javax.security.auth.login.Configuration.setConfiguration(
        new JaasConfiguration(section, kerberos.principal(), kerberos.keytab()));
    String before = System.getProperty(SERVER_SECTION);
    System.setProperty(SERVER_SECTION, section);
    try {
      return ServerCnxnFactory.createFactory(address, 200);
    } finally {
      if (before == null) {
        System.clearProperty(SERVER_SECTION);
      } else {
        System.setProperty(SERVER_SECTION, before);
      }
    }
  }

  public int port() {
    return factory.getLocalPort();
  }

  public String connectString() {
    return host + ":" + port();
  }

  @Override
  public void close() {
    factory.shutdown();
    server.shutdown(true);
  }
}
