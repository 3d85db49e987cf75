package org.indexfs.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.indexfs.common.IndexFsConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 31, item 1: the journal on the data tier holds every byte of every small file and every
 * name; it was 0644 in 0755 directories, so any HDFS user could {@code cat} other users' 0600
 * files out of it. Now bob, through plain HDFS, can neither list nor read any of it; every file of
 * it is 0600 and every directory 0700, the servers', and the NameNode's audit log shows they were
 * created so (no chmod after).
 */
class DataTierJournalTest {
  private static final String AUDIT_LOGGER = "org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit";
  private static final Pattern LINE = Pattern.compile("\\bcmd=(\\S+)\\s+src=(\\S+)\\s+dst=(\\S+)\\s+perm=(\\S+)");
  private static final byte[] SECRET = "TOP-SECRET-alice-31-1".getBytes(StandardCharsets.UTF_8);

  /** The NameNode's audit lines: {cmd, src, perm}. */
  private static final class AuditCapture extends AppenderSkeleton {
    final List<String[]> events = new ArrayList<>();

    @Override
    protected synchronized void append(LoggingEvent event) {
      Matcher m = LINE.matcher(event.getRenderedMessage());
      if (m.find()) {
        events.add(new String[] {m.group(1), m.group(2), m.group(4)});
      }
    }

    synchronized List<String[]> below(String prefix) {
      return events.stream().filter(e -> e[1].equals(prefix) || e[1].startsWith(prefix + "/")).toList();
    }

    @Override
    public void close() {}

    @Override
    public boolean requiresLayout() {
      return false;
    }
  }

  private static final AuditCapture AUDIT = new AuditCapture();
  private static Level level;
  private static DataTierAttack t;

  @BeforeAll
  static void start() throws Exception {
    Logger audit = Logger.getLogger(AUDIT_LOGGER);
    level = audit.getLevel();
    audit.addAppender(AUDIT);
    audit.setLevel(Level.INFO);
    t = DataTierAttack.start("sec-journal", Map.of(IndexFsConfig.JOURNAL_ENABLED.name(), "true",
        IndexFsConfig.JOURNAL_CHECKPOINT_INTERVAL_MS.name(), "500"));
    t.admin.mkdirs(new Path("/j"));
    t.admin.setPermission(new Path("/j"), new FsPermission((short) 0777));
    try (FSDataOutputStream out = t.alice.create(new Path("/j/secret"), new FsPermission((short) 0600), false, 4096,
        (short) 1, 1 << 20, null)) {
      out.write(SECRET);
    }
    t.alice.setPermission(new Path("/j/secret"), new FsPermission((short) 0600));
    // A checkpoint taken after the secret was written: it is in the segments and in the checkpoint.
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (t.filesBelow(".journal/0/checkpoints").stream().noneMatch(f -> f.getPath().getName().endsWith(".sst"))) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no checkpoint of the journal was published");
      }
      Thread.sleep(200);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    Logger.getLogger(AUDIT_LOGGER).removeAppender(AUDIT);
    Logger.getLogger(AUDIT_LOGGER).setLevel(level);
    if (t != null) {
      t.close();
    }
  }

  @Test
  void anotherUserReadsNothingOfTheJournal() throws Exception {
    List<FileStatus> files = t.filesBelow(".journal");
    assertThat(files).as("segments and checkpoints").isNotEmpty();
    boolean secretThere = false;
    for (FileStatus f : files) {
      try (FSDataInputStream in = t.hdfs.open(f.getPath())) {
        secretThere |= indexOf(in.readAllBytes(), SECRET) >= 0;
      } catch (java.io.FileNotFoundException vanished) {
        // a checkpoint being published moved on; bob is still refused on its old path below
      }
      assertThrows(AccessControlException.class, () -> t.hdfsBob.open(f.getPath()).read(), "bob reads " + f.getPath());
    }
    assertThat(secretThere).as("alice's 0600 bytes are in the journal (so refusing bob matters)").isTrue();
    for (FileStatus d : t.directoriesBelow(".journal")) {
      assertThrows(AccessControlException.class, () -> t.hdfsBob.listStatus(d.getPath()), "bob lists " + d.getPath());
    }
    assertThrows(AccessControlException.class, () -> t.hdfsBob.listStatus(t.data("")), "bob lists the data root");
  }

  @Test
  void everyFileOfTheJournalIsTheServersAlone() throws Exception {
    String servers = DataTierAttack.serverUser();
    for (FileStatus f : t.filesBelow(".journal")) {
      assertThat(f.getPermission()).as("mode of %s", f.getPath()).isEqualTo(new FsPermission((short) 0600));
      assertThat(f.getOwner()).as("owner of %s", f.getPath()).isEqualTo(servers);
    }
    for (FileStatus d : t.directoriesBelow(".journal")) {
      assertThat(d.getPermission()).as("mode of %s", d.getPath()).isEqualTo(new FsPermission((short) 0700));
      assertThat(d.getOwner()).as("owner of %s", d.getPath()).isEqualTo(servers);
    }
  }

  /** Created private, never loosened or tightened afterwards: no moment in which another user could open it. */
  @Test
  void theJournalIsCreatedPrivateNotChmoddedAfter() {
    List<String[]> events = AUDIT.below(t.root + "/.journal");
    assertThat(events.stream().filter(e -> e[0].equals("create"))).as("files created in the journal").isNotEmpty()
        .allSatisfy(e -> assertThat(e[2]).as("create %s", e[1]).endsWith(":rw-------"));
    assertThat(events.stream().filter(e -> e[0].equals("mkdirs")))
        .allSatisfy(e -> assertThat(e[2]).as("mkdirs %s", e[1]).endsWith(":rwx------"));
    assertThat(events.stream().filter(e -> e[0].equals("setPermission")).map(e -> e[1])).as("chmods in the journal")
        .isEmpty();
  }

  static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
