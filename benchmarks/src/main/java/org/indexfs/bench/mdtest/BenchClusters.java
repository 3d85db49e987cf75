package org.indexfs.bench.mdtest;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.log4j.FileAppender;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.PatternLayout;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.gateway.Gateway;
import org.indexfs.server.local.LocalCluster;

/**
 * The systems of one comparison, on this machine and in this process: a stock HDFS NameNode with
 * one DataNode (its edit log fsynced, as in production — MiniDFSCluster skips fsync unless told),
 * and IndexFS clusters whose data tier is that same HDFS. The workload runs as an ordinary user
 * ({@value #USER}, owner of {@code /bench}), so both systems check permissions on every call as they
 * would for a job; the superuser would skip them. Both write their audit log to a file, as in
 * production ({@code <work>/audit/hdfs-audit.log}, HDFS's logger name and layout). A NameNode-protocol
 * gateway stands in front of the sync IndexFS cluster, for the same workload through the stock
 * {@code hdfs://} client; it acts for the benchmark's user as this process's user, which both
 * tiers allow ({@code hadoop.proxyuser.<login>.*}, as a deployment allows the gateway's principal).
 */
final class BenchClusters implements AutoCloseable {
  private final MiniDFSCluster hdfs;
  private final LocalCluster indexSync;
  private final LocalCluster indexAsync;
  private final LocalCluster indexJournal;
  private final Gateway gateway;
  static final String USER = "bench";
  private final UserGroupInformation user = UserGroupInformation.createRemoteUser(USER);
  private final FileAppender audit;

  BenchClusters(Path work) throws IOException {
    audit = auditToFile(work.resolve("audit/hdfs-audit.log"));
    Configuration conf = new Configuration();
    conf.set("dfs.namenode.name.dir", work.resolve("hdfs/name").toUri().toString());
    String login = UserGroupInformation.getLoginUser().getShortUserName();
    conf.set("hadoop.proxyuser." + login + ".hosts", "*");
    conf.set("hadoop.proxyuser." + login + ".groups", "*");
    hdfs = new MiniDFSCluster.Builder(conf, work.resolve("hdfs").toFile())
        .numDataNodes(1)
        .skipFsyncForTesting(false)
        .build();
    hdfs.waitActive();
    String dataUri = hdfs.getURI().toString() + "/indexfs-data";
    indexSync = LocalCluster.builder(work.resolve("indexfs-sync")).clusterName("bench-sync")
        .set(IndexFsConfig.WAL_SYNC.name(), "true").set(IndexFsConfig.DATA_URI.name(), dataUri)
        .set("hadoop.proxyuser." + login + ".hosts", "*").set("hadoop.proxyuser." + login + ".groups", "*")
        .start();
    indexAsync = LocalCluster.builder(work.resolve("indexfs-async")).clusterName("bench-async")
        .set(IndexFsConfig.WAL_SYNC.name(), "false").set(IndexFsConfig.DATA_URI.name(), dataUri).start();
    // The sync cluster once more, journaling every change to the same HDFS before it is acknowledged (HA).
    indexJournal = LocalCluster.builder(work.resolve("indexfs-journal")).clusterName("bench-journal")
        .set(IndexFsConfig.WAL_SYNC.name(), "true").set(IndexFsConfig.JOURNAL_ENABLED.name(), "true")
        .set(IndexFsConfig.DATA_URI.name(), dataUri).start();
    gateway = startGateway(indexSync, conf, login);
    for (FileSystem admin : new FileSystem[] {superClient(hdfs.getURI(), hdfs.getConfiguration(0)),
        superClient(URI.create(indexSync.defaultFs()), indexfsConf(indexSync)),
        superClient(URI.create(indexAsync.defaultFs()), indexfsConf(indexAsync)),
        superClient(URI.create(indexJournal.defaultFs()), indexfsConf(indexJournal))}) {
      try (admin) {
        admin.mkdirs(new org.apache.hadoop.fs.Path("/bench"));
        admin.setOwner(new org.apache.hadoop.fs.Path("/bench"), USER, null);
      }
    }
  }

  /**
   * A gateway on an ephemeral loopback port for {@code c}, the data tier's client settings
   * {@code hdfsConf}'s. It installs its proxy-user rules for the whole process, the NameNode's
   * included (Hadoop keeps one table), so they are the NameNode's own.
   */
  private static Gateway startGateway(LocalCluster c, Configuration hdfsConf, String login) throws IOException {
    Configuration conf = new Configuration(hdfsConf);
    c.clientConf().forEach(conf::set);
    conf.set(IndexFsConfig.CLUSTER_NAME.name(), c.clusterName());
    conf.set(IndexFsConfig.GATEWAY_BIND_HOST.name(), "127.0.0.1");
    conf.set(IndexFsConfig.GATEWAY_PORT.name(), "0");
    conf.set("hadoop.proxyuser." + login + ".hosts", "*");
    conf.set("hadoop.proxyuser." + login + ".groups", "*");
    return Gateway.start(conf);
  }

  /** The HDFS audit logger at INFO into its own file, as a NameNode's log4j configuration has it. */
  private static FileAppender auditToFile(Path file) throws IOException {
    FileAppender appender = new FileAppender(new PatternLayout("%d{ISO8601} %p %c{2}: %m%n"), file.toString(), false);
    Logger logger = Logger.getLogger("org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit");
    logger.setLevel(Level.INFO);
    logger.setAdditivity(false);
    logger.addAppender(appender);
    return appender;
  }

  private static FileSystem superClient(URI uri, Configuration conf) throws IOException {
    return FileSystem.newInstance(uri, conf);
  }

  private Configuration indexfsConf(LocalCluster c) {
    Configuration conf = new Configuration(hdfs.getConfiguration(0));
    for (Map.Entry<String, String> e : c.clientConf().entrySet()) {
      conf.set(e.getKey(), e.getValue());
    }
    return conf;
  }

  private FileSystem asUser(URI uri, Configuration conf) throws IOException {
    try {
      return user.doAs((java.security.PrivilegedExceptionAction<FileSystem>) () -> FileSystem.newInstance(uri, conf));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("Interrupted opening " + uri);
    }
  }

  URI hdfsUri() {
    return hdfs.getURI();
  }

  /** A client of the NameNode as the benchmark's user. */
  FileSystem hdfsClient() throws IOException {
    return asUser(hdfs.getURI(), hdfs.getConfiguration(0));
  }

  /** A client of IndexFS as the benchmark's user. */
  FileSystem indexfsClient(boolean sync) throws IOException {
    LocalCluster c = sync ? indexSync : indexAsync;
    return asUser(URI.create(c.defaultFs()), indexfsConf(c));
  }

  /** The stock hdfs:// client (DistributedFileSystem) of the gateway, as the benchmark's user, set as the NameNode's client. */
  FileSystem gatewayClient() throws IOException {
    return asUser(gateway.uri(), new Configuration(hdfs.getConfiguration(0)));
  }

  URI gatewayUri() {
    return gateway.uri();
  }

  /** The gateway's RPC port: its server threads are named after it. */
  int gatewayPort() {
    return gateway.address().getPort();
  }

  /** A client of the journaling IndexFS cluster (wal.sync=true and indexfs.journal.enabled=true). */
  FileSystem indexfsJournalClient() throws IOException {
    return asUser(URI.create(indexJournal.defaultFs()), indexfsConf(indexJournal));
  }

  FirstCall.Opener hdfsClientFactory() {
    return this::hdfsClient;
  }

  FirstCall.Opener indexfsClientFactory() {
    return () -> indexfsClient(true);
  }

  /** The client settings of the IndexFS cluster ({@code -D} options for a fresh process). */
  Map<String, String> indexfsClientConf(boolean sync) {
    return (sync ? indexSync : indexAsync).clientConf();
  }

  URI indexfsUri(boolean sync) {
    return URI.create((sync ? indexSync : indexAsync).defaultFs());
  }

  @Override
  public void close() {
    gateway.close();
    indexJournal.close();
    indexAsync.close();
    indexSync.close();
    hdfs.shutdown();
    Logger.getLogger("org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit").removeAppender(audit);
    audit.close();
  }
}
