package org.indexfs.server.local;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/** A real, single-node ZooKeeper server in this process, keeping its data in a directory. */
public final class EmbeddedZooKeeper implements AutoCloseable {
  private final ZooKeeperServer server;
  private final ServerCnxnFactory factory;
  private final String host;

  public EmbeddedZooKeeper(File dataDir, int port) throws IOException {
    this(dataDir, "127.0.0.1", port);
  }

  /** Listening on {@code host} (an address other network namespaces reach, for fault tests). */
  public EmbeddedZooKeeper(File dataDir, String host, int port) throws IOException {
    this.host = host;
    System.setProperty("zookeeper.admin.enableServer", "false");
    System.setProperty("zookeeper.4lw.commands.whitelist", "ruok,stat");
    File snap = new File(dataDir, "snapshots");
    File log = new File(dataDir, "log");
    if (!snap.mkdirs() && !snap.isDirectory() || !log.mkdirs() && !log.isDirectory()) {
      throw new IOException("Cannot create ZooKeeper directories under " + dataDir);
    }
    server = new ZooKeeperServer(snap, log, 500);
    factory = ServerCnxnFactory.createFactory(new InetSocketAddress(host, port), 200);
    try {
      factory.startup(server);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted starting ZooKeeper", e);
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
