package org.indexfs.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.InodeIds;
import org.indexfs.common.ObjectNames;
import org.indexfs.server.data.Scrubber;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The scrubber removes data objects nothing refers to (a writer created its object and died
 * before the namespace recorded it) and never one that is referenced or about to be. Passes run
 * with no grace period, so nothing but the scrubber's own rules protect live objects. A cluster of
 * its own (background scrubbing off) on the shared HDFS.
 */
class ScrubberTest {
  private static LocalCluster cluster;
  private static DistributedFileSystem hdfs;
  private static Scrubber scrubber;

  @BeforeAll
  static void start() throws Exception {
    cluster = IndexFsTestCluster.startCluster("scrub", Map.of(IndexFsConfig.SCRUB_INTERVAL_MS.name(), "0"));
    hdfs = IndexFsTestCluster.hdfs().fileSystem();
    scrubber = cluster.server().scrubber();
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  private static IndexFileSystem newClient() throws Exception {
    return (IndexFileSystem) FileSystem.newInstance(java.net.URI.create(cluster.defaultFs()),
        IndexFsTestCluster.conf(cluster));
  }

  private static Path object(String name) {
    return TestData.objectPath(cluster, name);
  }

  /** What a writer does when it spills, up to the moment it would tell the server. */
  private static void createObjectLikeASpillingWriter(String name, int bytes) throws Exception {
    try (FSDataOutputStream out = hdfs.create(object(name), false)) {
      out.write(TestData.bytes(bytes, bytes));
    }
  }

  /** The object name the server reserved for the writer of {@code inode} (unguessable, DESIGN §14). */
  private static String reservedFor(long inode) {
    return cluster.server().writeLeases().get(inode).spillObject();
  }

  private static long inodeOf(IndexFileSystem fs, Path file) throws Exception {
    return fs.client().getFileStatus(file.toString()).getInodeId();
  }

  @Test
  void orphanOfACrashBetweenObjectCreationAndEntryUpdateIsReclaimedAndReferencedObjectsAreNot()
      throws Exception {
    try (IndexFileSystem fs = newClient(); IndexFileSystem crashed = newClient()) {
      // Referenced: a closed object file, and a file being written that has already spilled.
      Path closed = new Path("/scrub/closed");
      try (FSDataOutputStream out = fs.create(closed)) {
        out.write(TestData.bytes(1, 300_000));
      }
      Path open = new Path("/scrub/open");
      FSDataOutputStream writing = fs.create(open);
      writing.write(TestData.bytes(2, 200_000));
      writing.hflush();

      // The crash: a writer spills (creates its object) and dies before recording it; then its
      // file is deleted, so no entry and no lease will ever refer to the object.
      Path doomed = new Path("/scrub/doomed");
      FSDataOutputStream dead = crashed.create(doomed);
      dead.write(TestData.bytes(3, 1000));
      String orphan = reservedFor(inodeOf(crashed, doomed));
      createObjectLikeASpillingWriter(orphan, 100_000);
      crashed.leaseRenewer().stop();
      // An object whose name was never handed out at all (say, from metadata lost in a restore).
      String stray = ObjectNames.fresh(0);
      createObjectLikeASpillingWriter(stray, 10);

      // Reserved: a live writer's object exists but is not recorded yet (the spill is in flight).
      Path spilling = new Path("/scrub/spilling");
      FSDataOutputStream live = fs.create(spilling);
      live.write(TestData.bytes(4, 1000));
      String reserved = reservedFor(inodeOf(fs, spilling));
      createObjectLikeASpillingWriter(reserved, 1000);

      assertThat(scrubber.runOnce(3_600_000)).as("within the grace period nothing goes").isEmpty();
      assertThat(scrubber.runOnce(0)).as("the crashed writer still holds its lease").containsExactly(stray);

      assertThat(fs.delete(doomed, false)).isTrue();
      List<String> removed = scrubber.runOnce(0);
      assertThat(removed).containsExactly(orphan);
      assertThat(hdfs.exists(object(orphan))).isFalse();

      String closedObject = ((IndexFileStatus) fs.getFileStatus(closed)).dataObject();
      String openObject = ((IndexFileStatus) fs.getFileStatus(open)).dataObject();
      assertThat(hdfs.exists(object(closedObject))).isTrue();
      assertThat(hdfs.exists(object(openObject))).isTrue();
      assertThat(hdfs.exists(object(reserved))).isTrue();
      try (FSDataInputStream in = fs.open(closed)) {
        assertThat(in.readAllBytes()).isEqualTo(TestData.bytes(1, 300_000));
      }
      writing.write(TestData.bytes(5, 1000));
      writing.close();
      assertThat(fs.getFileStatus(open).getLen()).isEqualTo(201_000);

      // The in-flight spill ends: its writer records the object and closes normally.
      hdfs.delete(object(reserved), false);
      live.write(TestData.bytes(6, 100_000));
      live.close();
      assertThat(((IndexFileStatus) fs.getFileStatus(spilling)).dataObject()).isEqualTo(reserved);
      assertThat(scrubber.runOnce(0)).isEmpty();
      assertThat(fs.getFileStatus(spilling).getLen()).isEqualTo(101_000);
    }
  }

  @Test
  void scrubbingWhileClientsWriteNeverRemovesALiveObject() throws Exception {
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<String> removed = new ArrayList<>();
    Thread scrubbing = new Thread(() -> {
      try {
        while (writing.get()) {
          removed.addAll(scrubber.runOnce(0));
        }
      } catch (Throwable t) {
        failure.set(t);
      }
    });
    try (IndexFileSystem fs = newClient()) {
      scrubbing.start();
      for (int i = 0; i < 30; i++) {
        try (FSDataOutputStream out = fs.create(new Path("/scrub/race/" + i))) {
          out.write(TestData.bytes(100 + i, 70_000 + i * 1000));
          if (i % 3 == 0) {
            out.hflush();
          }
        }
      }
      writing.set(false);
      scrubbing.join();
      assertThat(failure.get()).isNull();
      assertThat(removed).isEmpty();
      for (int i = 0; i < 30; i++) {
        try (FSDataInputStream in = fs.open(new Path("/scrub/race/" + i))) {
          assertThat(in.readAllBytes()).isEqualTo(TestData.bytes(100 + i, 70_000 + i * 1000));
        }
      }
    } finally {
      writing.set(false);
      scrubbing.join();
    }
  }
}
