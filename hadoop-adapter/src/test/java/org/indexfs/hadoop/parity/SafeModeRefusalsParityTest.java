package org.indexfs.hadoop.parity;

import static org.apache.hadoop.fs.permission.AclEntryScope.ACCESS;
import static org.apache.hadoop.fs.permission.AclEntryType.USER;

import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.SafeMode;
import org.apache.hadoop.fs.SafeModeAction;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.indexfs.hadoop.IndexFileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The namespace mutations refused in safe mode with HDFS's SafeModeException words. */
class SafeModeRefusalsParityTest {
  private static SideBySideClusters clusters;

  @BeforeAll
  static void start() throws Exception {
    clusters = new SideBySideClusters("safe", Map.of(), Map.of(), 1, 4);
  }

  @AfterAll
  static void stop() {
    if (clusters != null) {
      clusters.close();
    }
  }

  private static void setQuota(FileSystem fs, Path p, long ns, long ds) throws Exception {
    if (fs instanceof DistributedFileSystem dfs) {
      dfs.setQuota(p, ns, ds);
    } else {
      ((IndexFileSystem) fs).setQuota(p, ns, ds);
    }
  }

  @Test
  void xattrAclAndQuotaChangesAreRefusedInSafeMode() throws Exception {
    clusters.compare("safeMode", (side, base, t) -> {
      FileSystem fs = side.fs();
      Path f = new Path(base, "f");
      fs.createNewFile(f);
      fs.setXAttr(f, "user.a", new byte[] {1});
      List<AclEntry> spec = List.of(new AclEntry.Builder().setScope(ACCESS).setType(USER).setName("x")
          .setPermission(FsAction.READ).build());
      ((SafeMode) fs).setSafeMode(SafeModeAction.ENTER);
      try {
        t.call("setXAttr", () -> fs.setXAttr(f, "user.b", new byte[] {2}));
        t.call("removeXAttr", () -> fs.removeXAttr(f, "user.a"));
        t.step("getXAttrs still works", () -> fs.getXAttrs(f));
        t.call("modifyAclEntries", () -> fs.modifyAclEntries(f, spec));
        t.call("removeAclEntries", () -> fs.removeAclEntries(f, spec));
        t.call("removeDefaultAcl", () -> fs.removeDefaultAcl(f));
        t.call("removeAcl", () -> fs.removeAcl(f));
        t.call("setAcl", () -> fs.setAcl(f, AclEntry.parseAclSpec("user::rw-,group::r--,other::r--", true)));
        t.step("getAclStatus still works", () -> fs.getAclStatus(f));
        t.call("setQuota", () -> setQuota(fs, base, 10, Long.MAX_VALUE));
        t.call("setStoragePolicy", () -> fs.setStoragePolicy(f, "COLD"));
        t.call("unsetStoragePolicy", () -> fs.unsetStoragePolicy(f));
        t.step("getStoragePolicy still works", () -> fs.getStoragePolicy(f).getName());
      } finally {
        ((SafeMode) fs).setSafeMode(SafeModeAction.LEAVE);
      }
    });
  }

  private static void allowSnapshot(FileSystem fs, Path p, boolean allow) throws Exception {
    if (fs instanceof DistributedFileSystem dfs) {
      if (allow) {
        dfs.allowSnapshot(p);
      } else {
        dfs.disallowSnapshot(p);
      }
    } else if (allow) {
      ((IndexFileSystem) fs).allowSnapshot(p);
    } else {
      ((IndexFileSystem) fs).disallowSnapshot(p);
    }
  }

  /** FSNamesystem refuses every snapshot change in safe mode (IndexFS did not before its operation table). */
  @Test
  void snapshotChangesAreRefusedInSafeMode() throws Exception {
    clusters.compare("snapshotsInSafeMode", (side, base, t) -> {
      FileSystem fs = side.fs();
      Path d = new Path(base, "d");
      Path e = new Path(base, "e");
      fs.mkdirs(d);
      fs.mkdirs(e);
      fs.createNewFile(new Path(d, "f"));
      allowSnapshot(fs, d, true);
      fs.createSnapshot(d, "s1");
      ((SafeMode) fs).setSafeMode(SafeModeAction.ENTER);
      try {
        t.call("allowSnapshot", () -> allowSnapshot(fs, e, true));
        t.call("disallowSnapshot", () -> allowSnapshot(fs, d, false));
        t.call("createSnapshot", () -> fs.createSnapshot(d, "s2"));
        t.call("renameSnapshot", () -> fs.renameSnapshot(d, "s1", "s3"));
        t.call("deleteSnapshot", () -> fs.deleteSnapshot(d, "s1"));
        t.step("a snapshot is still read", () -> fs.getFileStatus(new Path(d, ".snapshot/s1/f")).getLen());
      } finally {
        ((SafeMode) fs).setSafeMode(SafeModeAction.LEAVE);
      }
      t.call("createSnapshot after safe mode", () -> fs.createSnapshot(d, "s2"));
      fs.deleteSnapshot(d, "s2");
      fs.deleteSnapshot(d, "s1");
      allowSnapshot(fs, d, false);
    });
  }
}
