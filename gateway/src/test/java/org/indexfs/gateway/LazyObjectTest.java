package org.indexfs.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.indexfs.client.ClusterConnection;
import org.indexfs.client.IndexFsClient;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A file's data object is made at its first block, not at create (issue 33): a file created and
 * closed through hdfs:// without a byte costs the data tier's NameNode nothing. Observed on the
 * NameNode itself, in its audit log ({@code FSNamesystem.audit}): the gateway calls it as the end
 * user, so every call made for this test's writer (a user of its own) carries its name there.
 */
class LazyObjectTest {
  private static final String AUDIT_LOGGER = "org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit";
  private static final String WRITER = "lazywriter";
  private static final Capture AUDIT = new Capture();
  private static Level level;

  /** The NameNode's audit lines (its RPC handlers' only). */
  private static final class Capture extends AppenderSkeleton {
    final List<String> lines = new ArrayList<>();

    @Override
    protected synchronized void append(LoggingEvent event) {
      if (event.getThreadName().startsWith("IPC Server handler")) {
        lines.add(event.getRenderedMessage());
      }
    }

    synchronized List<String> by(String user) {
      return lines.stream().filter(l -> l.contains("ugi=" + user + " ")).toList();
    }

    synchronized List<String> about(String pathPrefix) {
      return lines.stream().filter(l -> l.contains("src=" + pathPrefix)).toList();
    }

    synchronized void clear() {
      lines.clear();
    }

    @Override
    public void close() {}

    @Override
    public boolean requiresLayout() {
      return false;
    }
  }

  @BeforeAll
  static void listen() throws IOException {
    Logger audit = Logger.getLogger(AUDIT_LOGGER);
    level = audit.getLevel();
    audit.addAppender(AUDIT);
    audit.setLevel(Level.INFO);
    try (FileSystem admin = GatewayTestCluster.newFileSystem(GatewayTestCluster.gateway())) {
      Path dir = new Path("/lazy");
      admin.delete(dir, true);
      admin.mkdirs(dir);
      admin.setPermission(dir, new FsPermission((short) 0777));
    }
  }

  @AfterAll
  static void stopListening() {
    Logger audit = Logger.getLogger(AUDIT_LOGGER);
    audit.removeAppender(AUDIT);
    audit.setLevel(level);
  }

  private static <T> T asWriter(PrivilegedExceptionAction<T> action) throws Exception {
    return UserGroupInformation.createRemoteUser(WRITER).doAs(action);
  }

  private static String dataRoot() {
    return URI.create(GatewayTestCluster.indexfs().dataUri()).getPath();
  }

  @Test
  void emptyFilesCreatedAndClosedThroughHdfsMakeNoNameNodeCall() throws Exception {
    int files = 20;
    AUDIT.clear();
    asWriter(() -> {
      try (FileSystem fs = GatewayTestCluster.newFileSystem(GatewayTestCluster.gateway())) {
        for (int i = 0; i < files; i++) {
          fs.create(new Path("/lazy/empty-" + i), true).close();
        }
        // hflush/hsync before any block, as a writer that checkpoints an empty file does.
        try (FSDataOutputStream out = fs.create(new Path("/lazy/synced-empty"), true)) {
          out.hflush();
          ((HdfsDataOutputStream) out).hsync(EnumSet.of(HdfsDataOutputStream.SyncFlag.UPDATE_LENGTH));
        }
        for (int i = 0; i < files; i++) {
          Path p = new Path("/lazy/empty-" + i);
          assertThat(fs.getFileStatus(p).getLen()).isZero();
          try (FSDataInputStream in = fs.open(p)) {
            assertThat(in.read()).as("%s reads back empty", p).isEqualTo(-1);
          }
        }
        assertThat(((DistributedFileSystem) fs).isFileClosed(new Path("/lazy/synced-empty"))).isTrue();
      }
      return null;
    });
    System.out.println("NameNode audit events for " + (files + 1) + " empty files through hdfs://: by the writer "
        + AUDIT.by(WRITER).size() + ", on the data root " + AUDIT.about(dataRoot()).size());
    assertThat(AUDIT.by(WRITER)).as("NameNode calls made for the writer of empty files").isEmpty();
  }

  @Test
  void aWrittenFileGetsItsObjectAtItsFirstBlock() throws Exception {
    byte[] data = new byte[1536 * 1024]; // two blocks of 1 MiB
    new Random(33).nextBytes(data);
    Path p = new Path("/lazy/written");
    AUDIT.clear();
    asWriter(() -> {
      try (FileSystem fs = GatewayTestCluster.newFileSystem(GatewayTestCluster.gateway())) {
        try (FSDataOutputStream out = fs.create(p, true)) {
          assertThat(creates()).as("objects made at create").isEmpty();
          out.write(data, 0, 100);
          out.hflush(); // the first block
          assertThat(creates()).as("objects made at the first block").hasSize(1);
          out.write(data, 100, data.length - 100);
        }
        assertThat(creates()).as("objects made for the whole file").hasSize(1);
        try (FSDataInputStream in = fs.open(p)) {
          assertThat(java.util.Arrays.equals(in.readAllBytes(), data)).isTrue();
        }
      }
      return null;
    });
    assertThat(creates().get(0)).contains("src=" + dataRoot() + "/");
    try (FileSystem indexfs = GatewayTestCluster.indexfsFileSystem(GatewayTestCluster.indexfs());
        FSDataInputStream in = indexfs.open(p)) {
      assertThat(java.util.Arrays.equals(in.readAllBytes(), data)).as("the same bytes through indexfs://").isTrue();
    }
  }

  private static List<String> creates() {
    return AUDIT.by(WRITER).stream().filter(l -> l.contains("cmd=create")).toList();
  }

  @Test
  void aWriterThatDiesBeforeItsFirstBlockLeavesAnEmptyFileThatRecoveryCloses() throws Exception {
    Path p = new Path("/lazy/dead-before-first-block");
    AUDIT.clear();
    asWriter(() -> {
      DistributedFileSystem writer = (DistributedFileSystem) GatewayTestCluster.newFileSystem(GatewayTestCluster.gateway());
      FSDataOutputStream out = writer.create(p, true);
      org.apache.hadoop.hdfs.DFSClientAdapter.stopLeaseRenewer(writer);
      org.apache.hadoop.hdfs.DFSTestUtil.abortStream((org.apache.hadoop.hdfs.DFSOutputStream) out.getWrappedStream());
      try (DistributedFileSystem other = (DistributedFileSystem) GatewayTestCluster.newFileSystem(
          GatewayTestCluster.gateway())) {
        assertThat(other.isFileClosed(p)).isFalse();
        assertThat(other.recoverLease(p)).as("an empty inline file is recovered at once").isTrue();
        assertThat(other.isFileClosed(p)).isTrue();
        assertThat(other.getFileStatus(p).getLen()).isZero();
      }
      return null;
    });
    assertThat(AUDIT.by(WRITER)).as("nothing on the data tier to recover").isEmpty();
  }

  /**
   * What lets another gateway make the object: IndexFS names the object it reserved for a writer to
   * that writer (its client name), while the entry has no object, and to nobody else.
   */
  @Test
  void indexFsNamesAWritersReservedObjectToThatWriterOnly() throws IOException {
    LocalCluster c = GatewayTestCluster.indexfs();
    String path = "/lazy/reserved";
    try (IndexFsClient writer = new IndexFsClient(ClusterConnection.openUnshared(c.zookeeperConnect(),
        c.clusterName(), IndexFsConfig.RPC_MAX_FRAME_BYTES.defaultValue(), 10_000),
        IndexFsClient.caller(WRITER, List.of(), "DFSClient_lazy_writer"), 30_000);
        IndexFsClient other = new IndexFsClient(ClusterConnection.openUnshared(c.zookeeperConnect(),
        c.clusterName(), IndexFsConfig.RPC_MAX_FRAME_BYTES.defaultValue(), 10_000),
        IndexFsClient.caller(WRITER, List.of(), "DFSClient_lazy_other"), 30_000)) {
      org.indexfs.proto.FileStatus created = writer.create(path, 0644, true, 1, 1 << 20, false);
      assertThat(created.getSpillObject()).isNotEmpty();
      assertThat(writer.getFileStatus(path).getSpillObject()).as("to its writer").isEqualTo(created.getSpillObject());
      assertThat(other.getFileStatus(path).getSpillObject()).as("to another client of the same user").isEmpty();
      writer.complete(path, created.getInodeId(), 0, new byte[0], null);
      assertThat(writer.getFileStatus(path).getSpillObject()).as("once closed").isEmpty();
    }
  }

  /**
   * Two gateways as one nameservice: the file is created through the first, which then goes away;
   * its first block (and the close of an empty file) are taken by the second, which has never seen
   * the file: IndexFS tells it the object to make.
   */
  @Test
  void aFailoverBetweenCreateAndFirstBlockStillWritesTheFile() throws Exception {
    Gateway first = GatewayTestCluster.startGateway(GatewayTestCluster.indexfs(), java.util.Map.of());
    Gateway second = GatewayTestCluster.startGateway(GatewayTestCluster.indexfs(), java.util.Map.of());
    byte[] data = new byte[1200 * 1024];
    new Random(34).nextBytes(data);
    Path written = new Path("/lazy/failover-written");
    Path empty = new Path("/lazy/failover-empty");
    boolean firstOpen = true;
    try (FileSystem fs = FileSystem.newInstance(nameservice(first, second))) {
      FSDataOutputStream out = fs.create(written, true);
      FSDataOutputStream emptyOut = fs.create(empty, true);
      first.close();
      firstOpen = false;
      out.write(data);
      out.close();
      emptyOut.close();
      assertThat(fs.getFileStatus(written).getLen()).isEqualTo(data.length);
      try (FSDataInputStream in = fs.open(written)) {
        assertThat(java.util.Arrays.equals(in.readAllBytes(), data)).isTrue();
      }
      assertThat(fs.getFileStatus(empty).getLen()).isZero();
      assertThat(((DistributedFileSystem) fs).isFileClosed(empty)).isTrue();
    } finally {
      if (firstOpen) {
        first.close();
      }
      second.close();
    }
  }

  private static Configuration nameservice(Gateway... gateways) {
    Configuration conf = GatewayTestCluster.clientConf(gateways[0]);
    String ns = "lazyns";
    conf.set("fs.defaultFS", "hdfs://" + ns);
    conf.set("dfs.nameservices", ns);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < gateways.length; i++) {
      ids.add("g" + i);
      conf.set("dfs.namenode.rpc-address." + ns + ".g" + i,
          "127.0.0.1:" + gateways[i].address().getPort());
    }
    conf.set("dfs.ha.namenodes." + ns, String.join(",", ids));
    conf.set("dfs.client.failover.proxy.provider." + ns,
        "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider");
    conf.setInt("ipc.client.connect.max.retries", 1);
    conf.setInt("dfs.client.failover.sleep.base.millis", 100);
    return conf;
  }
}
