package org.indexfs.gateway;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Collections;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.ClientNamenodeProtocol;
import org.apache.hadoop.hdfs.protocolPB.ClientNamenodeProtocolPB;
import org.apache.hadoop.hdfs.protocolPB.ClientNamenodeProtocolServerSideTranslatorPB;
import org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException;
import org.apache.hadoop.hdfs.server.namenode.SafeModeException;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RetriableException;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.thirdparty.protobuf.BlockingService;
import org.indexfs.common.ConfigKey;
import org.indexfs.common.IndexFsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NameNode-protocol endpoint (DESIGN §17): Hadoop's own RPC server, with HDFS's server-side
 * protobuf translator in front of {@link GatewayProtocol}, so any {@code hdfs://} client — the
 * stock DistributedFileSystem, libhdfs3, hdfs-native — uses IndexFS with no IndexFS jar. Like a
 * Router of HDFS's federation it is stateless: names are IndexFS's, blocks the data tier's, and
 * several gateways form one HA nameservice.
 */
public final class Gateway implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);

  private final MetadataTier metadata;
  private final DataTierNameNode data;
  private final GatewayTokens tokens;
  private final RPC.Server server;
  private final InetSocketAddress address;
  private final ScheduledExecutorService sweeper;

  private Gateway(MetadataTier metadata, DataTierNameNode data, GatewayTokens tokens, RPC.Server server,
      InlineCopies copies, long keepMs) {
    this.metadata = metadata;
    this.data = data;
    this.tokens = tokens;
    this.server = server;
    this.address = server.getListenerAddress();
    this.sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "indexfs-gateway-copies");
      t.setDaemon(true);
      return t;
    });
    long every = Math.max(60_000, keepMs / 4);
    sweeper.scheduleWithFixedDelay(() -> {
      try {
        copies.sweep(System.currentTimeMillis());
      } catch (IOException | RuntimeException e) {
        LOG.warn("Could not sweep the read copies of inline files: {}", e.toString());
      }
    }, every, every, TimeUnit.MILLISECONDS);
  }

  /** Starts a gateway for the IndexFS cluster {@code conf} names, on {@code indexfs.gateway.bind-host:port}. */
  public static Gateway start(Configuration conf) throws IOException {
    String cluster = get(conf, IndexFsConfig.CLUSTER_NAME);
    String zookeeper = conf.get(String.format(IndexFsConfig.CLUSTER_ZOOKEEPER_PATTERN, cluster),
        get(conf, IndexFsConfig.ZOOKEEPER_QUORUM));
    UserGroupInformation login = GatewayLogin.of(conf);
    MetadataTier metadata = MetadataTier.open(zookeeper, cluster, get(conf, IndexFsConfig.RPC_MAX_FRAME_BYTES),
        get(conf, IndexFsConfig.CLIENT_CACHE_ENTRIES), get(conf, IndexFsConfig.CLIENT_LIST_CONNECTIONS), login,
        GatewayLogin.toServers(conf, login), get(conf, IndexFsConfig.SECURITY_ZOOKEEPER_SERVER_ID),
        get(conf, IndexFsConfig.RPC_TIMEOUT_MS), get(conf, IndexFsConfig.CLIENT_FAILOVER_WAIT_MS));
    DataTierNameNode data = null;
    GatewayTokens tokens = null;
    try {
      String dataUri = metadata.info().getDataUri();
      data = DataTierNameNode.of(dataUri, conf, login);
      // Who may act for whom through this gateway (hadoop.proxyuser.*), checked by Hadoop's RPC
      // server as a NameNode checks it.
      org.apache.hadoop.security.authorize.ProxyUsers.refreshSuperUserGroupsConfiguration(conf);
      if (UserGroupInformation.isSecurityEnabled()) {
        tokens = GatewayTokens.start(conf, zookeeper, cluster);
      }
      String copiesDir = get(conf, IndexFsConfig.GATEWAY_INLINE_COPIES_DIR);
      if (copiesDir.isEmpty() && data != null) {
        copiesDir = data.pathOf("gateway-copies");
      }
      long keepMs = get(conf, IndexFsConfig.GATEWAY_INLINE_COPIES_KEEP_MS);
      InlineCopies copies = new InlineCopies(data, copiesDir, keepMs);
      OpenFiles open = new OpenFiles();
      WriteCalls writes = new WriteCalls(metadata, data, open);
      Reads reads = new Reads(metadata, writes, copies);
      GatewayProtocol protocol = new GatewayProtocol(
          new NamespaceCalls(metadata, reads, get(conf, IndexFsConfig.LIST_PAGE_SIZE)), writes,
          new Appends(metadata, writes, open), new LeaseCalls(metadata, writes), reads,
          new ExtendedCalls(metadata, writes), new ClusterCalls(metadata, writes), new TokenCalls(tokens));
      GatewayTokens issued = tokens;
      // Built and started as the gateway's login, so its SASL server is that principal.
      RPC.Server server = login.doAs((java.security.PrivilegedExceptionAction<RPC.Server>) () -> {
        RPC.Server s = rpcServer(conf, protocol, issued);
        s.start();
        return s;
      });
      Gateway g = new Gateway(metadata, data, tokens, server, copies, keepMs);
      LOG.info("IndexFS gateway for cluster {} serving hdfs:// clients at {} (data tier {})", cluster, g.address,
          dataUri.isEmpty() ? "none" : dataUri);
      return g;
    } catch (IOException | RuntimeException | InterruptedException e) {
      if (tokens != null) {
        tokens.close();
      }
      if (data != null) {
        data.close();
      }
      metadata.close();
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("Interrupted while starting the gateway");
      }
      if (e instanceof IOException io) {
        throw io;
      }
      throw (RuntimeException) e;
    }
  }

  /** As HDFS's Router builds its client RPC server (RouterRpcServer): protobuf engine, HDFS's translator. */
  private static RPC.Server rpcServer(Configuration conf, GatewayProtocol protocol, GatewayTokens tokens)
      throws IOException {
    Configuration c = new Configuration(conf);
    RPC.setProtocolEngine(c, ClientNamenodeProtocolPB.class, ProtobufRpcEngine2.class);
    BlockingService service = ClientNamenodeProtocol.newReflectiveBlockingService(
        new ClientNamenodeProtocolServerSideTranslatorPB(protocol));
    RPC.Server server = new RPC.Builder(c)
        .setProtocol(ClientNamenodeProtocolPB.class)
        .setInstance(service)
        .setBindAddress(get(conf, IndexFsConfig.GATEWAY_BIND_HOST))
        .setPort(get(conf, IndexFsConfig.GATEWAY_PORT))
        .setNumHandlers(get(conf, IndexFsConfig.GATEWAY_HANDLERS))
        .setVerbose(false)
        .setSecretManager(tokens)
        .build();
    // What clients are told is theirs to handle: no stack trace in the gateway's log for these.
    server.addTerseExceptions(FileNotFoundException.class, FileAlreadyExistsException.class,
        AccessControlException.class, SafeModeException.class, LeaseExpiredException.class,
        AlreadyBeingCreatedException.class, RetriableException.class, UnsupportedOperationException.class,
        org.apache.hadoop.fs.ParentNotDirectoryException.class, org.apache.hadoop.fs.PathIsNotEmptyDirectoryException.class,
        org.apache.hadoop.HadoopIllegalArgumentException.class);
    return server;
  }

  static <T> T get(Configuration conf, ConfigKey<T> key) {
    return key.get(Collections.singletonMap(key.name(), conf.get(key.name())));
  }

  /** Where hdfs:// clients reach this gateway. */
  public InetSocketAddress address() {
    return address;
  }

  /** {@code hdfs://<host>:<port>}, with the host clients on this machine can use. */
  public URI uri() {
    String host = address.getAddress() == null || address.getAddress().isAnyLocalAddress() ? "localhost"
        : address.getHostString();
    return URI.create("hdfs://" + host + ":" + address.getPort());
  }

  @Override
  public void close() {
    sweeper.shutdownNow();
    server.stop();
    if (tokens != null) {
      tokens.close();
    }
    if (data != null) {
      data.close();
    }
    metadata.close();
  }
}
