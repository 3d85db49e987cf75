package org.indexfs.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.FileNotFoundException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 31, item 14: the flat object store has no parent directories to traverse, so an object of a
 * 0644 file under a 0700 directory is readable by anyone who knows its name; names must stay
 * unknowable to whoever cannot traverse to the file. A bulk-insertion holder's objects were named
 * {@code prefix + inode id}: one public file's object name gave away every other of the holder's,
 * private ones included. Also here: a client journal is a list of operations its replayer runs
 * with its own rights, so one that another user planted must never be run.
 */
class DataTierNamesTest {
  private static final int LARGE = 120_000;
  private static DataTierAttack t;

  @BeforeAll
  static void start() throws Exception {
    t = DataTierAttack.start("sec-names", Map.of());
    t.home("/alice", "alice");
  }

  @AfterAll
  static void stop() throws Exception {
    if (t != null) {
      t.close();
    }
  }

  @Test
  void onePublishedObjectsNameGivesAwayNoOtherOfItsHolder() throws Exception {
    Path root = new Path("/alice/n");
    t.alice.localize(root, false);
    try (FSDataOutputStream out = t.alice.create(new Path(root, "pub"))) {
      out.write(TestData.bytes(1, LARGE));
    }
    t.alice.mkdirs(new Path(root, "priv"), new FsPermission((short) 0700));
    for (int i = 0; i < 5; i++) {
      try (FSDataOutputStream out = t.alice.create(new Path(root, "priv/secret" + i))) {
        out.write(TestData.bytes(100 + i, LARGE)); // 0644: the directory is what keeps bob out
      }
    }
    assertThat(t.alice.publish(root)).isEmpty();
    assertThrows(AccessControlException.class, () -> t.bob.getFileStatus(new Path(root, "priv/secret0")));

    // bob reads the public file's entry: its object's name and its inode id.
    String pub = ((IndexFileStatus) t.bob.getFileStatus(new Path(root, "pub"))).dataObject();
    long pubId = t.bob.client().getFileStatus(root + "/pub").getInodeId();
    String prefix = pub.substring(0, pub.lastIndexOf('-') + 1);
    Set<String> guesses = new HashSet<>();
    for (long d = -200; d <= 200; d++) {
      guesses.add(prefix + Long.toHexString(pubId + d));
    }
    for (int i = 0; i < 5; i++) {
      String secret = ((IndexFileStatus) t.admin.getFileStatus(new Path(root, "priv/secret" + i))).dataObject();
      assertThat(guesses).as("a guess from the public object's name").doesNotContain(secret);
    }
    // The attack itself: every guess bob can open on HDFS holds none of alice's private bytes.
    for (String guess : guesses) {
      try (FSDataInputStream in = t.hdfsBob.open(t.data(guess))) {
        byte[] got = in.readAllBytes();
        for (int i = 0; i < 5; i++) {
          assertThat(got).as("bob read %s", guess).isNotEqualTo(TestData.bytes(100 + i, LARGE));
        }
      } catch (FileNotFoundException | AccessControlException nothing) {
        // nothing there for bob
      }
    }
  }

  @Test
  void aClientJournalPlantedByAnotherUserIsNeverReplayed() throws Exception {
    Path root = new Path("/alice/cj");
    t.alice.mkdirs(root);
    try (FSDataOutputStream out = t.alice.create(new Path(root, "keep"))) {
      out.write(7);
    }
    // bob writes a journal saying "delete /alice/cj/keep", where alice's replay would look for one.
    ByteArrayOutputStream record = new ByteArrayOutputStream();
    try (DataOutputStream d = new DataOutputStream(record)) {
      d.writeByte(4); // ClientJournal.DELETE
      d.writeUTF(root + "/keep");
      d.writeBoolean(false);
    }
    String encodedRoot = URLEncoder.encode(root.toString(), StandardCharsets.UTF_8);
    for (String folder : new String[] {".client-journals/" + encodedRoot, ".client-journals/alice/" + encodedRoot}) {
      try {
        t.hdfsBob.mkdirs(t.data(folder), new FsPermission((short) 0777));
        try (FSDataOutputStream out = t.hdfsBob.create(t.data(folder + "/evil"), false)) {
          out.writeInt(record.size());
          record.writeTo(out);
        }
      } catch (AccessControlException refused) {
        // there bob cannot even plant it
      }
    }
    try {
      t.alice.replayClientJournals(root);
    } catch (AccessControlException refused) {
      // the folder bob made in alice's name is not hers: nothing in it is run
    }
    assertThat(t.alice.exists(new Path(root, "keep"))).as("alice's file after replaying bob's journal").isTrue();
  }
}
