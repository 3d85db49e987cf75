package org.indexfs.hadoop.parity;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.hadoop.admin.IndexFsAdminTool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Quotas against HDFS itself: {@code hdfs dfsadmin -setQuota/-clrQuota/-setSpaceQuota/-clrSpaceQuota}
 * and {@code indexfs admin} with the same arguments printing the same, {@code count -q} and
 * getQuotaUsage, and creates, mkdirs, renames and writes refused past a quota with HDFS's
 * exceptions and words — on one slot and on four (where the quota'd subtree spans slots).
 */
class QuotaParityTest {
  private static final UserGroupInformation ALICE =
      UserGroupInformation.createUserForTesting("alice", new String[] {"alicegroup"});
  private static SideBySideClusters clusters;

  @BeforeAll
  static void start() throws Exception {
    clusters = new SideBySideClusters("quota", Map.of("dfs.blocksize", "1048576",
        "dfs.namenode.fs-limits.min-block-size", "0"), Map.of(), 1, 4);
  }

  @AfterAll
  static void stop() {
    if (clusters != null) {
      clusters.close();
    }
  }

  static Configuration conf(Side side) {
    Configuration conf = new Configuration(side.conf());
    conf.set("fs.defaultFS", side.uri().toString());
    return conf;
  }

  /** {@code hdfs dfsadmin} on HDFS, {@code indexfs admin} on IndexFS; the tool's name aside, the same output. */
  static void admin(Side side, Transcript t, UserGroupInformation ugi, String... args) throws Exception {
    Shell.Output o = side.name().equals("hdfs")
        ? Shell.run(ugi, () -> new DFSAdmin(conf(side)), args)
        : Shell.run(ugi, () -> IndexFsAdminTool.create(conf(side)), args);
    // dfsadmin prints some refusals with the NameNode's stack trace after the message: the message is compared.
    t.note("$ admin " + String.join(" ", args) + "\n" + o.toString().replace("hdfs dfsadmin", "<admin>")
        .replace("indexfs admin", "<admin>").replaceAll("(?m)^\\tat .*\\n", "").replaceAll("\\n{2,}", "\n"));
  }

  static void shell(Side side, Transcript t, String... args) throws Exception {
    t.note("$ hadoop fs " + String.join(" ", args) + "\n" + Shell.fs(conf(side), null, args));
  }

  static void write(FileSystem fs, Path p, int bytes) throws Exception {
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(new byte[bytes]);
    }
  }

  @Test
  void namespaceQuota() throws Exception {
    clusters.compare("nsQuota", (side, base, t) -> {
      FileSystem fs = side.fs();
      String q = base + "/q";
      fs.mkdirs(new Path(q, "sub"));
      admin(side, t, null, "-setQuota", "4", q);
      shell(side, t, "-count", "-q", q);
      t.step("quota usage", () -> fs.getQuotaUsage(new Path(q)));
      t.step("file 1", () -> fs.createNewFile(new Path(q, "f1")));
      t.step("file 2", () -> fs.createNewFile(new Path(q, "sub/f2")));
      t.step("file 3 over", () -> fs.createNewFile(new Path(q, "f3")));
      t.step("mkdir over", () -> fs.mkdirs(new Path(q, "d")));
      t.step("mkdir -p over", () -> fs.mkdirs(new Path(q, "sub/a/b")));
      shell(side, t, "-touchz", q + "/shell");
      shell(side, t, "-mkdir", "-p", q + "/x/y");
      fs.mkdirs(new Path(base, "outside/two/three"));
      t.step("rename into", () -> fs.rename(new Path(base, "outside/two"), new Path(q, "two")));
      t.step("rename within", () -> fs.rename(new Path(q, "f1"), new Path(q, "sub/f1")));
      t.step("rename out", () -> fs.rename(new Path(q, "sub/f1"), new Path(base, "outside/f1")));
      t.step("file after rename out", () -> fs.createNewFile(new Path(q, "f4")));
      t.step("delete frees", () -> fs.delete(new Path(q, "sub"), true));
      t.step("two files now", () -> fs.createNewFile(new Path(q, "f5")) && fs.createNewFile(new Path(q, "f6")));
      shell(side, t, "-count", "-q", q);
      shell(side, t, "-count", "-q", "-h", q);
      admin(side, t, null, "-setQuota", "10", q);
      t.step("room again", () -> fs.mkdirs(new Path(q, "more/and/more")));
      shell(side, t, "-count", "-q", "-v", q);
      admin(side, t, null, "-clrQuota", q);
      shell(side, t, "-count", "-q", q);
      t.step("no quota", () -> fs.mkdirs(new Path(q, "a/b/c/d/e/f/g")));
      shell(side, t, "-count", "-q", base.toString());
      shell(side, t, "-count", "-q", "/");
    });
  }

  @Test
  void spaceQuota() throws Exception {
    clusters.compare("dsQuota", (side, base, t) -> {
      FileSystem fs = side.fs();
      String s = base + "/s";
      fs.mkdirs(new Path(s));
      // One 1 MiB block and a little: a file being written holds a whole block until it is closed.
      admin(side, t, null, "-setSpaceQuota", "1050076", s);
      shell(side, t, "-count", "-q", s);
      t.call("first small file", () -> write(fs, new Path(s, "small1"), 1000));
      t.call("second", () -> write(fs, new Path(s, "small2"), 1000));
      t.call("third: its block does not fit", () -> write(fs, new Path(s, "small3"), 1000));
      t.step("it was created", () -> fs.exists(new Path(s, "small3")));
      shell(side, t, "-count", "-q", s);
      t.step("usage", () -> fs.getQuotaUsage(new Path(s)));
      t.step("delete frees", () -> fs.delete(new Path(s, "small1"), false));
      t.call("fits again", () -> write(fs, new Path(s, "again"), 10));
      t.step("more replicas than HDFS allows", () -> fs.setReplication(new Path(s, "small2"), (short) 600));
      t.call("a mid-sized file", () -> write(fs, new Path(s, "mid"), 5000));
      t.step("more replicas than fit", () -> fs.setReplication(new Path(s, "mid"), (short) 300));
      t.step("a few more do", () -> fs.setReplication(new Path(s, "mid"), (short) 3));
      shell(side, t, "-count", "-q", s);
      admin(side, t, null, "-setSpaceQuota", "0", s);
      t.call("an empty file needs no space", () -> write(fs, new Path(s, "empty"), 0));
      t.call("a byte does", () -> write(fs, new Path(s, "byte"), 1));
      admin(side, t, null, "-clrSpaceQuota", s);
      t.call("no quota", () -> write(fs, new Path(s, "free"), 5000));
      shell(side, t, "-count", "-q", s);
      admin(side, t, null, "-setSpaceQuota", "1m", s);
      shell(side, t, "-count", "-q", "-h", s);
    });
  }

  @Test
  void adminCommandsAndTheirErrors() throws Exception {
    clusters.compare("quotaAdmin", (side, base, t) -> {
      FileSystem fs = side.fs();
      fs.mkdirs(new Path(base, "d1"));
      fs.mkdirs(new Path(base, "d2"));
      fs.createNewFile(new Path(base, "file"));
      admin(side, t, null, "-setQuota", "5", base + "/d1", base + "/d2");
      admin(side, t, null, "-setSpaceQuota", "1g", base + "/d1");
      shell(side, t, "-count", "-q", base + "/d1", base + "/d2");
      admin(side, t, null, "-setQuota", "5", base + "/missing", base + "/d2");
      admin(side, t, null, "-setQuota", "5", base + "/file");
      admin(side, t, null, "-setQuota", "0", base + "/d1");
      admin(side, t, null, "-setQuota", "-5", base + "/d1");
      admin(side, t, null, "-setQuota", "abc", base + "/d1");
      admin(side, t, null, "-setQuota", "5");
      admin(side, t, null, "-clrQuota");
      admin(side, t, null, "-setSpaceQuota", "x1", base + "/d1");
      admin(side, t, null, "-clrQuota", base + "/file");
      admin(side, t, null, "-clrQuota", "/");
      admin(side, t, ALICE, "-setQuota", "5", base + "/d1");
      admin(side, t, ALICE, "-clrSpaceQuota", base + "/d1");
      admin(side, t, null, "-clrQuota", base + "/d1", base + "/d2");
      admin(side, t, null, "-clrSpaceQuota", base + "/d1");
      shell(side, t, "-count", "-q", base + "/d1", base + "/d2");
    });
  }
}
