package org.indexfs.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 31, item 3, with the journal off (the default). The data root was 0777 without the sticky
 * bit: bob moved the slot's object directory away and made his own in its place; alice's next
 * large file landed in it, bob swapped its object for a fake of the same name, and alice's
 * {@code cat} printed bob's bytes. Now the root and the slot directories are the servers' and bob
 * can rearrange nothing in them; and a reader (or an appender) refuses an object that is no longer
 * its file's.
 */
class DataTierRootTest {
  private static final int LARGE = 200_000;
  private static DataTierAttack t;

  @BeforeAll
  static void start() throws Exception {
    t = DataTierAttack.start("sec-root", Map.of());
    t.admin.mkdirs(new Path("/r"));
    t.admin.setPermission(new Path("/r"), new FsPermission((short) 0777));
    try (FSDataOutputStream out = t.alice.create(new Path("/r/first"))) {
      out.write(TestData.bytes(1, LARGE)); // the slot's object directory exists
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (t != null) {
      t.close();
    }
  }

  private static void bobIsRefused(String what, HdfsCall call) {
    boolean done;
    try {
      done = call.run();
    } catch (AccessControlException refused) {
      return;
    } catch (IOException e) {
      throw new AssertionError(what + ": " + e, e);
    }
    assertThat(done).as("bob %s", what).isFalse();
  }

  @FunctionalInterface
  interface HdfsCall {
    boolean run() throws IOException;
  }

  @Test
  void nobodyElseRearrangesTheDataRoot() throws Exception {
    bobIsRefused("moves the slot's object directory away", () -> t.hdfsBob.rename(t.data("0"), t.data("0-moved")));
    bobIsRefused("makes a directory in the data root", () -> t.hdfsBob.mkdirs(t.data("0-bob")));
    bobIsRefused("deletes the slot's object directory", () -> t.hdfsBob.delete(t.data("0"), true));
    bobIsRefused("creates a file in the data root", () -> {
      t.hdfsBob.create(t.data("planted"), false).close();
      return true;
    });
    bobIsRefused("chmods the data root", () -> {
      t.hdfsBob.setPermission(t.data(""), new FsPermission((short) 0777));
      return true;
    });
    String servers = DataTierAttack.serverUser();
    assertThat(t.hdfs.getFileStatus(t.data("")).getOwner()).isEqualTo(servers);
    assertThat(t.hdfs.getFileStatus(t.data("")).getPermission()).isEqualTo(new FsPermission((short) 0711));
    assertThat(t.hdfs.getFileStatus(t.data("0")).getOwner()).isEqualTo(servers);
    assertThat(t.hdfs.getFileStatus(t.data("0")).getPermission()).isEqualTo(new FsPermission((short) 01733));
    // alice's next large file is where the servers put it, and it is hers.
    try (FSDataOutputStream out = t.alice.create(new Path("/r/next"))) {
      out.write(TestData.bytes(2, LARGE));
    }
    String object = ((IndexFileStatus) t.admin.getFileStatus(new Path("/r/next"))).dataObject();
    assertThat(object).startsWith("0/");
    assertThat(t.hdfs.getFileStatus(t.data(object)).getOwner()).isEqualTo("alice");
    try (FSDataInputStream in = t.alice.open(new Path("/r/next"))) {
      assertThat(in.readAllBytes()).isEqualTo(TestData.bytes(2, LARGE));
    }
  }

  @Test
  void aReaderRefusesAnObjectReplacedOnTheDataTier() throws Exception {
    Path file = new Path("/r/shared");
    try (FSDataOutputStream out = t.alice.create(file)) {
      out.write(TestData.bytes(3, LARGE));
    }
    t.alice.setPermission(file, new FsPermission((short) 0666)); // the object takes the mode: bob may write it
    try (FSDataInputStream in = t.alice.open(file)) {
      assertThat(in.readAllBytes()).isEqualTo(TestData.bytes(3, LARGE));
    }
    Path object = t.data(((IndexFileStatus) t.admin.getFileStatus(file)).dataObject());
    // bob replaces the object on HDFS with a fake of the same name and length (an overwrite
    // makes a new file: HDFS asks only for write permission on the old one).
    try (FSDataOutputStream out = t.hdfsBob.create(object, true)) {
      out.write(TestData.bytes(666, LARGE));
    }
    assertThat(t.hdfs.getFileStatus(object).getOwner()).isEqualTo("bob");
    IOException e = assertThrows(IOException.class, () -> {
      try (FSDataInputStream in = t.alice.open(file)) {
        in.readAllBytes();
      }
    }, "alice reads bob's bytes as her file's");
    assertThat(e.getMessage()).contains("replaced");
    // So does anyone else who reads the file; and nothing more of alice's goes into bob's object.
    assertThrows(IOException.class, () -> t.admin.open(file).read());
    assertThrows(IOException.class, () -> t.alice.getFileChecksum(file), "a checksum of bob's bytes as the file's");
    IOException append = assertThrows(IOException.class, () -> t.alice.append(file).close());
    assertThat(append.getMessage()).contains("replaced");
    assertThat(t.hdfs.getFileStatus(object).getLen()).isEqualTo(LARGE);
  }
}
