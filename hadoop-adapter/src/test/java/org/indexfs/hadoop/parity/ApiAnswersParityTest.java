package org.indexfs.hadoop.parity;

import java.util.Map;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a Java program can see through the FileSystem API besides the namespace itself (issue 37),
 * against a MiniDFSCluster on 1 and 4 slots: server defaults, canonical service name, enclosing
 * root, exception types of concat and bad names, the non-empty delete's message, create options
 * HDFS accepts, snapshots of a directory not snapshottable, paths below a file as a plain user.
 */
class ApiAnswersParityTest {
  private static SideBySideClusters clusters;

  @BeforeAll
  static void start() throws Exception {
    clusters = new SideBySideClusters("apianswers", Map.of(), Map.of(), 1, 4);
  }

  @AfterAll
  static void stop() {
    if (clusters != null) {
      clusters.close();
    }
  }

  private static void write(FileSystem fs, Path p, int bytes) throws Exception {
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(new byte[bytes]);
    }
  }

  @Test
  void serverDefaultsAndNames() throws Exception {
    clusters.compare("api-defaults", (side, base, t) -> {
      FileSystem fs = side.fs();
      fs.mkdirs(base);
      FsServerDefaults d = fs.getServerDefaults(base);
      t.step("key provider uri", () -> "[" + d.getKeyProviderUri() + "]");
      t.step("default storage policy id", d::getDefaultStoragePolicyId);
      t.step("canonical service name is set", () -> fs.getCanonicalServiceName() != null);
      t.step("enclosing root of base", () -> fs.getEnclosingRoot(base));
    });
  }

  @Test
  void refusalsAndMessages() throws Exception {
    clusters.compare("api-refusals", (side, base, t) -> {
      FileSystem fs = side.fs();
      fs.mkdirs(new Path(base, "full/x"));
      write(fs, new Path(base, "a"), 10);
      write(fs, new Path(base, "b"), 10);
      t.call("concat of small files", () -> fs.concat(new Path(base, "a"), new Path[] {new Path(base, "b")}));
      t.call("concat onto itself", () -> fs.concat(new Path(base, "a"), new Path[] {new Path(base, "a")}));
      t.call("concat of a missing source", () -> fs.concat(new Path(base, "a"), new Path[] {new Path(base, "none")}));
      t.step("mkdirs of a name with a colon", () -> fs.mkdirs(new Path(base, "x:y")));
      t.call("create of a name with a colon", () -> fs.create(new Path(base, "c:d")).close());
      t.step("delete non-recursive of a non-empty directory", () -> fs.delete(new Path(base, "full"), false));
      t.call("createFile with an unknown must() key", () -> {
        org.apache.hadoop.fs.FSDataOutputStreamBuilder<?, ?> b = fs.createFile(new Path(base, "must"));
        b.must("fs.unknown.option.key", "x");
        b.build().close();
      });
      t.call("createFile with an unknown opt() key", () -> {
        org.apache.hadoop.fs.FSDataOutputStreamBuilder<?, ?> b = fs.createFile(new Path(base, "opt"));
        b.opt("fs.unknown.option.key", "x");
        b.build().close();
      });
      write(fs, new Path(base, "t"), 1000);
      t.step("truncate inside the (only) block", () -> fs.truncate(new Path(base, "t"), 400));
      // HDFS recovers the last block in the background; wait for it as `fs -truncate -w` does.
      org.apache.hadoop.fs.LeaseRecoverable recoverable = (org.apache.hadoop.fs.LeaseRecoverable) fs;
      for (int i = 0; i < 600 && !recoverable.isFileClosed(new Path(base, "t")); i++) {
        Thread.sleep(100);
      }
      t.step("closed after", () -> recoverable.isFileClosed(new Path(base, "t")));
      t.step("length after", () -> fs.getFileStatus(new Path(base, "t")).getLen());
      t.step("truncate to the same length", () -> fs.truncate(new Path(base, "t"), 400));
      t.step("truncate to 0", () -> fs.truncate(new Path(base, "t"), 0));
      t.call("createSnapshot of a directory not snapshottable", () -> fs.createSnapshot(new Path(base, "full"), "s"));
      t.call("deleteSnapshot of a directory not snapshottable", () -> fs.deleteSnapshot(new Path(base, "full"), "s"));
    });
  }

  @Test
  void pathBelowAFileAsAPlainUser() throws Exception {
    UserGroupInformation bob = UserGroupInformation.createUserForTesting("bob", new String[] {"groupY"});
    clusters.compare("api-below-file", (side, base, t) -> {
      FileSystem admin = side.fs();
      admin.mkdirs(base);
      admin.setPermission(base, new FsPermission((short) 0777));
      Path dir = new Path(base, "dir");
      admin.mkdirs(dir);
      write(admin, new Path(dir, "file.txt"), 3);
      Path below = new Path(dir, "file.txt/x");
      write(admin, new Path(base, "mine"), 1);
      admin.setOwner(new Path(base, "mine"), "bob", "groupY");
      for (String who : new String[] {"bob", "the superuser"}) {
        FileSystem fs = who.equals("bob") ? side.as(bob) : admin;
        t.step(who + ": getFileStatus", () -> fs.getFileStatus(below));
        t.step(who + ": listStatus", () -> fs.listStatus(below).length);
        t.step(who + ": exists", () -> fs.exists(below));
        t.call(who + ": open", () -> fs.open(below).close());
        t.step(who + ": mkdirs", () -> fs.mkdirs(new Path(below, "y")));
        t.call(who + ": create", () -> fs.create(below).close());
        t.step(who + ": delete", () -> fs.delete(below, true));
        t.step(who + ": rename from below", () -> fs.rename(below, new Path(base, "z")));
        t.step(who + ": rename to below", () -> fs.rename(new Path(base, "mine"), new Path(below, "z")));
        t.call(who + ": setPermission", () -> fs.setPermission(below, new FsPermission((short) 0700)));
        t.call(who + ": setTimes", () -> fs.setTimes(below, 1L, 1L));
        t.step(who + ": getContentSummary", () -> fs.getContentSummary(below).getLength());
        t.step(who + ": getXAttrs", () -> fs.getXAttrs(below));
        t.step(who + ": getAclStatus", () -> fs.getAclStatus(below));
      }
    });
  }
}
