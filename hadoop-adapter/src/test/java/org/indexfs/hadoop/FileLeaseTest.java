package org.indexfs.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.ipc.RemoteException;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Single-writer leases as HDFS keeps them: a second writer is refused while the first is alive;
 * a writer that stops renewing loses its file after the soft limit (to another writer or to
 * recoverLease) and to the server after the hard limit; the file keeps every hflushed byte.
 * A cluster of its own with short limits (soft 1 s, hard 4 s) on the shared HDFS.
 */
class FileLeaseTest {
  private static final long SOFT_MS = 1000;
  private static LocalCluster cluster;

  private IndexFileSystem writer;
  private IndexFileSystem other;

  @BeforeAll
  static void start() {
    cluster = IndexFsTestCluster.startCluster("leases", Map.of(
        IndexFsConfig.LEASE_SOFT_LIMIT_MS.name(), String.valueOf(SOFT_MS),
        IndexFsConfig.LEASE_HARD_LIMIT_MS.name(), "4000"));
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @BeforeEach
  void clients() throws IOException {
    writer = newClient();
    other = newClient();
  }

  @AfterEach
  void closeClients() throws IOException {
    other.close();
    writer.close();
  }

  private static IndexFileSystem newClient() throws IOException {
    return (IndexFileSystem) FileSystem.newInstance(java.net.URI.create(cluster.defaultFs()),
        IndexFsTestCluster.conf(cluster));
  }

  /** What HDFS's own client throws: a RemoteException naming the NameNode's exception. */
  private static void assertRefusedAs(Class<? extends IOException> hdfsException, IOException e) {
    assertThat(e).isInstanceOf(RemoteException.class);
    assertThat(((RemoteException) e).getClassName()).isEqualTo(hdfsException.getName());
    assertThat(((RemoteException) e).unwrapRemoteException()).isInstanceOf(hdfsException);
  }

  /** Plays a writer that died: its leases are no longer renewed, its stream is never closed. */
  private static void kill(IndexFileSystem fs) {
    fs.leaseRenewer().stop();
  }

  @Test
  void secondWriterOfAnOpenFileIsRefusedLikeHdfsRefusesIt() throws Exception {
    Path file = new Path("/refused/file");
    try (FSDataOutputStream out = writer.create(file)) {
      out.write(new byte[10]);
      // Renewal keeps the lease well past the soft limit.
      Thread.sleep(3 * SOFT_MS);
      assertRefusedAs(AlreadyBeingCreatedException.class, assertThrows(IOException.class, () -> other.append(file)));
      assertRefusedAs(AlreadyBeingCreatedException.class,
          assertThrows(IOException.class, () -> other.create(file, false)));
      assertRefusedAs(AlreadyBeingCreatedException.class, assertThrows(IOException.class, () -> writer.append(file)));
      assertRefusedAs(AlreadyBeingCreatedException.class,
          assertThrows(IOException.class, () -> other.truncate(file, 0)));
    }
    try (FSDataInputStream in = other.open(file)) {
      assertThat(in.readAllBytes()).hasSize(10);
    }
  }

  @Test
  void hdfsRefusesASecondWriterWithTheSameException() throws Exception {
    Configuration conf = new Configuration();
    Path file = new Path(IndexFsTestCluster.hdfs().uri() + "/lease-comparison/file");
    try (FileSystem a = FileSystem.newInstance(file.toUri(), conf);
        FileSystem b = FileSystem.newInstance(file.toUri(), conf);
        FSDataOutputStream out = a.create(file)) {
      out.write(1);
      out.hflush();
      assertRefusedAs(AlreadyBeingCreatedException.class, assertThrows(IOException.class, () -> b.append(file)));
    }
  }

  @Test
  void silentWritersInlineFileGoesToTheNextWriterWithItsHflushedBytes() throws Exception {
    Path file = new Path("/soft-limit/inline");
    FSDataOutputStream dead = writer.create(file);
    dead.write(TestData.bytes(1, 100));
    dead.hflush();
    dead.write(TestData.bytes(2, 50)); // never flushed: lost with its writer
    kill(writer);
    Thread.sleep(SOFT_MS + 500);
    try (FSDataOutputStream out = other.append(file)) {
      out.write(TestData.bytes(3, 20));
    }
    try (FSDataInputStream in = other.open(file)) {
      byte[] all = in.readAllBytes();
      assertThat(all).hasSize(120);
      assertThat(java.util.Arrays.copyOf(all, 100)).isEqualTo(TestData.bytes(1, 100));
    }
    IOException late = assertThrows(IOException.class, dead::close);
    assertRefusedAs(org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException.class, late);
  }

  @Test
  void recoverLeaseClosesADeadWritersObjectFileWithEverythingItHflushed() throws Exception {
    Path file = new Path("/recover/object");
    FSDataOutputStream dead = writer.create(file);
    byte[] flushed = TestData.bytes(4, 1 << 20);
    dead.write(flushed);
    dead.hflush();
    kill(writer);
    assertThat(other.isFileClosed(file)).isFalse();
    assertThat(other.recoverLease(file) || waitClosed(file)).isTrue();
    assertThat(other.isFileClosed(file)).isTrue();
    assertThat(other.getFileStatus(file).getLen()).isEqualTo(flushed.length);
    try (FSDataInputStream in = other.open(file)) {
      assertThat(in.readAllBytes()).isEqualTo(flushed);
    }
    // The new owner may write it; the dead writer may not.
    try (FSDataOutputStream out = other.append(file)) {
      out.write(7);
    }
    assertThat(other.getFileStatus(file).getLen()).isEqualTo(flushed.length + 1);
    assertThrows(IOException.class, () -> {
      dead.write(new byte[1 << 16]);
      dead.close();
    });
  }

  private boolean waitClosed(Path file) throws Exception {
    DataPathAssertions.eventually(() -> other.recoverLease(file), "recoverLease returns true");
    return true;
  }

  @Test
  void serverClosesTheFilesOfAWriterSilentPastTheHardLimit() throws Exception {
    Path inline = new Path("/hard-limit/inline");
    Path object = new Path("/hard-limit/object");
    FSDataOutputStream a = writer.create(inline);
    a.write(TestData.bytes(5, 1000));
    a.hflush();
    FSDataOutputStream b = writer.create(object);
    b.write(TestData.bytes(6, 300_000));
    b.hflush();
    kill(writer);
    DataPathAssertions.eventually(() -> other.isFileClosed(inline) && other.isFileClosed(object),
        "the server recovers both files");
    assertThat(other.getFileStatus(inline).getLen()).isEqualTo(1000);
    assertThat(other.getFileStatus(object).getLen()).isEqualTo(300_000);
    try (FSDataInputStream in = other.open(object)) {
      assertThat(in.readAllBytes()).isEqualTo(TestData.bytes(6, 300_000));
    }
  }

  @Test
  void leaseSurvivesAServerRestart() throws Exception {
    Path file = new Path("/restart/file");
    try (FSDataOutputStream out = writer.create(file)) {
      out.write(TestData.bytes(7, 10));
      out.hflush();
      cluster.restartServer();
      assertRefusedAs(AlreadyBeingCreatedException.class, assertThrows(IOException.class, () -> other.append(file)));
      out.write(TestData.bytes(8, 10));
    }
    assertThat(other.getFileStatus(file).getLen()).isEqualTo(20);
    assertThat(other.isFileClosed(file)).isTrue();
  }
}
