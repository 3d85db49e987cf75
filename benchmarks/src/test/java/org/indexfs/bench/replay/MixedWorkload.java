package org.indexfs.bench.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The "original run" of the round-trip test: several users (one through a proxy, two plain, and
 * the superuser) issue every replayable command against a file system, including calls HDFS
 * refuses (logged {@code allowed=false}), names with spaces, a tab and non-ASCII characters, and
 * the data-path commands (append, truncate, concat) under {@link #DATA}. Byte counts and the
 * replication factor follow {@link #POLICY}, the values a replay must be told (audit logs do not
 * record them).
 */
final class MixedWorkload {
  static final ReplayPolicy POLICY = new ReplayPolicy(100, 60, 0, (short) 2);
  static final String ROOT = "/rt";
  static final String DATA = "/rt/data";

  static final String[] ALICE_GROUPS = {"staff", "analysts"};
  static final String[] BOB_GROUPS = {"staff"};
  static final String[] CAROL_GROUPS = {"analysts"};

  private final URI uri;
  private final Configuration conf;

  MixedWorkload(URI uri, Configuration conf) {
    this.uri = uri;
    this.conf = conf;
  }

  /** Registers the test users' groups (process-wide, seen by the NameNode and the replayer alike). */
  static void registerUsers() {
    UserGroupInformation.createUserForTesting("alice", ALICE_GROUPS);
    UserGroupInformation.createUserForTesting("bob", BOB_GROUPS);
    UserGroupInformation.createUserForTesting("carol", CAROL_GROUPS);
  }

  void run() throws Exception {
    UserGroupInformation root = UserGroupInformation.getLoginUser();
    UserGroupInformation alice = UserGroupInformation.createProxyUserForTesting("alice", root, ALICE_GROUPS);
    UserGroupInformation bob = UserGroupInformation.createUserForTesting("bob", BOB_GROUPS);
    UserGroupInformation carol = UserGroupInformation.createUserForTesting("carol", CAROL_GROUPS);

    as(root, fs -> {
      assertTrue(fs.mkdirs(new Path(ROOT)));
      fs.mkdirs(new Path("/rt/shared"), new FsPermission((short) 01777)); // the umask takes group and other write
      fs.setPermission(new Path("/rt/shared"), new FsPermission((short) 01777));
      for (String home : new String[] {"/rt/alice", "/rt/bob", DATA}) {
        fs.mkdirs(new Path(home));
        fs.setOwner(new Path(home), home.equals("/rt/bob") ? "bob" : "alice", "staff");
      }
      return null;
    });

    as(alice, fs -> {
      fs.mkdirs(new Path("/rt/alice/proj/a/b"), new FsPermission((short) 0750));
      for (int i = 1; i <= 4; i++) {
        write(fs, "/rt/alice/proj/f" + i, (short) 0640);
      }
      write(fs, "/rt/alice/with space/na\u00efve \u2713.txt", (short) 0644);
      fs.mkdirs(new Path("/rt/alice/tab\there"));
      fs.getFileStatus(new Path("/rt/alice/proj/f1"));
      fs.listStatus(new Path("/rt/alice/proj"));
      try (InputStream in = fs.open(new Path("/rt/alice/proj/f2"))) {
        in.read();
      }
      fs.getContentSummary(new Path("/rt/alice"));
      fs.setPermission(new Path("/rt/alice/proj/f1"), new FsPermission((short) 0600));
      fs.setTimes(new Path("/rt/alice/proj/f2"), 1_700_000_000_000L, -1);
      assertTrue(fs.setReplication(new Path("/rt/alice/proj/f3"), POLICY.replication()));
      fs.setOwner(new Path("/rt/alice/proj/f3"), null, "analysts");
      assertTrue(fs.rename(new Path("/rt/alice/proj/f4"), new Path("/rt/alice/proj/a")));
      assertTrue(fs.rename(new Path("/rt/alice/proj/f2"), new Path("/rt/alice/proj/f2-renamed")));
      FileUtil.rename(fs, new Path("/rt/alice/proj/f3"), new Path("/rt/alice/proj/f1"), Options.Rename.OVERWRITE);
      FileUtil.rename(fs, new Path("/rt/alice/proj/a/b"), new Path("/rt/alice/proj/b2"), Options.Rename.NONE);
      write(fs, "/rt/alice/tmp/x1", (short) 0644);
      write(fs, "/rt/alice/tmp/x2", (short) 0644);
      assertTrue(fs.delete(new Path("/rt/alice/tmp"), true));
      assertFalse(fs.delete(new Path("/rt/alice/does-not-exist"), false)); // audited allowed=false
      return null;
    });

    as(bob, fs -> {
      fs.listStatus(new Path("/rt/alice/proj"));
      try (InputStream in = fs.open(new Path("/rt/alice/proj/f2-renamed"))) {
        in.read();
      }
      assertThrows(AccessControlException.class, () -> fs.open(new Path("/rt/alice/proj/f1")).close());
      assertThrows(AccessControlException.class, () -> write(fs, "/rt/alice/proj/bob-file", (short) 0644));
      assertThrows(AccessControlException.class,
          () -> fs.setPermission(new Path("/rt/alice/proj/f2-renamed"), new FsPermission((short) 0777)));
      fs.mkdirs(new Path("/rt/bob/x"));
      write(fs, "/rt/bob/x/y", (short) 0644);
      write(fs, "/rt/shared/bobs", (short) 0644);
      return null;
    });

    as(root, fs -> {
      fs.setOwner(new Path("/rt/bob/x/y"), "carol", "analysts");
      return null;
    });

    as(carol, fs -> {
      fs.getFileStatus(new Path("/rt/alice/proj"));
      assertThrows(AccessControlException.class, () -> fs.getFileStatus(new Path("/rt/alice/proj/f1")));
      assertThrows(AccessControlException.class, () -> fs.delete(new Path("/rt/shared/bobs"), false));
      fs.getContentSummary(new Path("/rt/bob"));
      return null;
    });

    as(alice, fs -> {
      write(fs, "/rt/data/grow", (short) 0644);
      try (OutputStream out = fs.append(new Path("/rt/data/grow"))) {
        out.write(new byte[POLICY.appendBytes()]);
      }
      write(fs, "/rt/data/cut", (short) 0644);
      assertTrue(fs.truncate(new Path("/rt/data/cut"), POLICY.truncateTo()));
      for (int i = 0; i < 3; i++) {
        write(fs, "/rt/data/part-" + i, (short) 0644);
      }
      fs.concat(new Path("/rt/data/part-0"), new Path[] {new Path("/rt/data/part-1"), new Path("/rt/data/part-2")});
      assertEquals(3L * POLICY.createBytes(), fs.getFileStatus(new Path("/rt/data/part-0")).getLen());
      return null;
    });
  }

  private static void write(FileSystem fs, String path, short mode) throws IOException {
    Path p = new Path(path);
    try (OutputStream out = fs.create(p, new FsPermission(mode), true, 4096, fs.getDefaultReplication(p),
        fs.getDefaultBlockSize(p), null)) {
      out.write(new byte[POLICY.createBytes()]);
    }
  }

  interface FsWork {
    Object run(FileSystem fs) throws Exception;
  }

  private void as(UserGroupInformation ugi, FsWork work) throws Exception {
    ugi.doAs((PrivilegedExceptionAction<Object>) () -> {
      try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
        return work.run(fs);
      }
    });
  }
}
