package org.indexfs.hadoop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.BlockStoragePolicySpi;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.hadoop.parity.Shell;
import org.indexfs.hadoop.parity.Side;
import org.indexfs.hadoop.parity.SideBySideClusters;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Storage policies as HDFS has them, compared call by call with a MiniDFSCluster on IndexFS with
 * one slot and with four: the list of policies, set/get/unset on files and directories, what a
 * directory's policy means for the entries under it, the refusals (unknown name, LAZY_PERSIST on an
 * existing file, missing paths, permissions) with HDFS's exceptions and messages, and the shell's
 * {@code hdfs storagepolicies} equivalents. On IndexFS a file with a data object has the policy on
 * its object too, so the data tier's NameNode places its blocks by it.
 */
class StoragePolicyParityTest {
  private static final UserGroupInformation USER =
      UserGroupInformation.createUserForTesting("user", new String[] {"mygroup"});
  private static SideBySideClusters clusters;

  @BeforeAll
  static void start() throws Exception {
    clusters = new SideBySideClusters("storagepolicy", Map.of(), Map.of(), 1, 4);
  }

  @AfterAll
  static void stop() {
    if (clusters != null) {
      clusters.close();
    }
  }

  private static void write(FileSystem fs, Path p, int length) throws Exception {
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(new byte[length]);
    }
  }

  private static String name(BlockStoragePolicySpi p) {
    return p.getName();
  }

  /** The policy the bytes of {@code file} are placed by: on HDFS the file's; on IndexFS its data object's on the data tier. */
  private static String bytesPolicy(Side side, FileSystem fs, Path file) throws Exception {
    if (side.name().equals("hdfs")) {
      return fs.getStoragePolicy(file).getName();
    }
    String object = ((IndexFileStatus) fs.getFileStatus(file)).dataObject();
    assertThat(object).as("data object of %s", file).isNotNull();
    int slots = Integer.parseInt(side.name().substring("indexfs-".length()));
    Path onDataTier = new Path(IndexFsTestCluster.hdfs().uri() + "/storagepolicy" + slots + "-data/" + object);
    return IndexFsTestCluster.hdfs().fileSystem().getStoragePolicy(onDataTier).getName();
  }

  @Test
  void policiesOnFilesAndDirectories() throws Exception {
    clusters.compare("storagePolicies", (side, base, t) -> {
      FileSystem fs = side.fs();
      Path dir = new Path(base, "dir");
      Path sub = new Path(dir, "sub/deeper");
      Path small = new Path(dir, "small");
      Path large = new Path(sub, "large");
      fs.mkdirs(sub);
      write(fs, small, 100);
      write(fs, large, 300_000);
      t.step("capability", () -> fs.hasPathCapability(dir, CommonPathCapabilities.FS_STORAGEPOLICY));
      t.step("all policies", () -> {
        List<String> all = new ArrayList<>();
        for (BlockStoragePolicySpi p : fs.getAllStoragePolicies()) {
          all.add(p.toString());
        }
        return all;
      });
      t.step("default of a directory", () -> name(fs.getStoragePolicy(dir)));
      t.step("default of a file", () -> name(fs.getStoragePolicy(small)));
      t.call("set COLD on the directory", () -> fs.setStoragePolicy(dir, "COLD"));
      t.step("directory", () -> name(fs.getStoragePolicy(dir)));
      t.step("file under it inherits", () -> name(fs.getStoragePolicy(small)));
      t.step("two levels down inherits", () -> name(fs.getStoragePolicy(large)));
      t.call("set warm (lower case) on the large file", () -> fs.setStoragePolicy(large, "warm"));
      t.step("large file", () -> name(fs.getStoragePolicy(large)));
      t.step("its bytes", () -> bytesPolicy(side, fs, large));
      t.call("set ALL_SSD on the inline-sized file", () -> fs.setStoragePolicy(small, "ALL_SSD"));
      t.step("small file", () -> name(fs.getStoragePolicy(small)));
      Path grows = new Path(base, "grows");
      write(fs, grows, 100);
      t.call("set COLD on a small file that grows later", () -> fs.setStoragePolicy(grows, "COLD"));
      try (FSDataOutputStream out = fs.append(grows)) {
        out.write(new byte[300_000]);
      }
      t.step("its bytes once it outgrew the inline limit", () -> bytesPolicy(side, fs, grows));
      t.call("unknown name", () -> fs.setStoragePolicy(dir, "NOPE"));
      t.call("unknown name on a missing path", () -> fs.setStoragePolicy(new Path(base, "missing"), "NOPE"));
      t.call("LAZY_PERSIST on an existing file", () -> fs.setStoragePolicy(small, "LAZY_PERSIST"));
      t.call("LAZY_PERSIST on a directory", () -> fs.setStoragePolicy(sub, "LAZY_PERSIST"));
      t.step("directory with LAZY_PERSIST", () -> name(fs.getStoragePolicy(sub)));
      t.call("set on a missing path", () -> fs.setStoragePolicy(new Path(base, "missing"), "HOT"));
      t.step("get of a missing path", () -> fs.getStoragePolicy(new Path(base, "missing")));
      t.call("unset on a missing path", () -> fs.unsetStoragePolicy(new Path(base, "missing")));
      t.call("unset the directory", () -> fs.unsetStoragePolicy(dir));
      t.step("directory after unset", () -> name(fs.getStoragePolicy(dir)));
      t.step("small file keeps its own", () -> name(fs.getStoragePolicy(small)));
      t.call("unset the small file", () -> fs.unsetStoragePolicy(small));
      t.step("small file after unset", () -> name(fs.getStoragePolicy(small)));
      t.call("unset a directory that has none", () -> fs.unsetStoragePolicy(dir));
      t.step("no xattr shows", () -> fs.getXAttrs(small));
      t.step("listXAttrs of the directory", () -> fs.listXAttrs(sub));
      t.call("rename keeps the policy", () -> fs.rename(sub, new Path(base, "moved")));
      t.step("moved directory", () -> name(fs.getStoragePolicy(new Path(base, "moved"))));
      t.step("moved file", () -> name(fs.getStoragePolicy(new Path(base, "moved/large"))));
    });
  }

  /**
   * HDFS places a new file's blocks by its nearest ancestor's policy from the first block on; on
   * IndexFS the file's data object is created with that policy. Nested directories spread over the
   * slots on four, so the policy of an ancestor on another slot must reach the file's slot.
   * (Policies whose blocks can be placed on the DataNodes' plain disks: COLD's cannot, on either.)
   */
  @Test
  void newFilesTakeTheirAncestorsPolicy() throws Exception {
    clusters.compare("inheritedByNewFiles", (side, base, t) -> {
      FileSystem fs = side.fs();
      Path top = new Path(base, "warm");
      Path mid = new Path(top, "a");
      Path deep = new Path(mid, "b/c");
      fs.mkdirs(deep);
      t.call("set WARM on the top directory", () -> fs.setStoragePolicy(top, "WARM"));
      write(fs, new Path(deep, "big"), 300_000);
      t.step("a new large file three levels down", () -> name(fs.getStoragePolicy(new Path(deep, "big"))));
      t.step("its bytes", () -> bytesPolicy(side, fs, new Path(deep, "big")));
      Path grows = new Path(mid, "grows");
      write(fs, grows, 100);
      try (FSDataOutputStream out = fs.append(grows)) {
        out.write(new byte[300_000]);
      }
      t.step("the bytes of a small file that outgrew the inline limit", () -> bytesPolicy(side, fs, grows));
      t.call("set ALL_SSD nearer", () -> fs.setStoragePolicy(mid, "ALL_SSD"));
      write(fs, new Path(deep, "nearer"), 300_000);
      t.step("the nearest ancestor's wins", () -> bytesPolicy(side, fs, new Path(deep, "nearer")));
      // Reported as the new one; its object keeps the policy it was made with (README: HDFS would
      // place the file's later blocks by the new one).
      t.step("a file written before reports the nearer one", () -> name(fs.getStoragePolicy(new Path(deep, "big"))));
      t.call("unset both", () -> {
        fs.unsetStoragePolicy(mid);
        fs.unsetStoragePolicy(top);
      });
      write(fs, new Path(deep, "after"), 300_000);
      t.step("after unset: the default", () -> bytesPolicy(side, fs, new Path(deep, "after")));
      Path renamed = new Path(base, "ssddir");
      fs.mkdirs(renamed);
      t.call("set ONE_SSD on another directory", () -> fs.setStoragePolicy(renamed, "ONE_SSD"));
      t.call("move the tree under it", () -> fs.rename(mid, new Path(renamed, "a")));
      write(fs, new Path(renamed, "a/b/c/moved"), 300_000);
      t.step("a file made after the move", () -> bytesPolicy(side, fs, new Path(renamed, "a/b/c/moved")));
    });
  }

  @Test
  void permissions() throws Exception {
    clusters.compare("storagePolicyPermissions", (side, base, t) -> {
      FileSystem fs = side.fs();
      Path open = new Path(base, "open");
      Path closed = new Path(base, "closed");
      FileSystem.mkdirs(fs, open, FsPermission.createImmutable((short) 0755));
      FileSystem.mkdirs(fs, closed, FsPermission.createImmutable((short) 0700));
      write(fs, new Path(open, "f"), 10);
      fs.setPermission(new Path(open, "f"), FsPermission.createImmutable((short) 0640));
      fs.setStoragePolicy(open, "COLD");
      FileSystem user = side.as(USER);
      t.step("user gets a readable directory's", () -> name(user.getStoragePolicy(open)));
      t.step("user gets an unreadable file's", () -> user.getStoragePolicy(new Path(open, "f")));
      t.call("user sets without write", () -> user.setStoragePolicy(open, "HOT"));
      t.call("user unsets without write", () -> user.unsetStoragePolicy(open));
      t.step("user gets under an untraversable directory", () -> user.getStoragePolicy(new Path(closed, "x")));
      t.step("user lists the policies", () -> user.getAllStoragePolicies().size());
    });
  }

  /**
   * Hadoop's {@code hdfs storagepolicies} tool: listing, setting and unsetting behave as on HDFS.
   * Its {@code -getStoragePolicy} reads the policy id from an {@code HdfsFileStatus}, which IndexFS's
   * statuses are not: it prints its own "not supported for filesystem indexfs" line (README, "Not
   * yet"); {@code FileSystem.getStoragePolicy} answers it.
   */
  @Test
  void theStoragePoliciesShell() throws Exception {
    clusters.compare("storagePoliciesShell", (side, base, t) -> {
      Path dir = new Path(base, "d");
      side.fs().mkdirs(dir);
      String path = dir.toUri().getPath();
      for (String[] args : new String[][] {
          {"-listPolicies"},
          {"-setStoragePolicy", "-path", path, "-policy", "ONE_SSD"},
          {"-setStoragePolicy", "-path", path, "-policy", "NOPE"},
          {"-setStoragePolicy", "-path", path + "/missing", "-policy", "COLD"},
          {"-unsetStoragePolicy", "-path", path},
          {"-unsetStoragePolicy", "-path", path + "/missing"}}) {
        Shell.Output o = Shell.storagePolicies(side.conf(), side.uri(), args);
        t.note(String.join(" ", args) + " -> exit " + o.code() + "\n" + o.out() + o.err());
      }
      t.step("policy after the shell's set and unset", () -> side.fs().getStoragePolicy(dir).getName());
    });
    for (Side side : clusters.sides().values()) {
      if (!side.name().equals("hdfs")) {
        Shell.Output o = Shell.storagePolicies(side.conf(), side.uri(), "-getStoragePolicy", "-path", "/parity");
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.out() + o.err()).contains("-getStoragePolicy is not supported for filesystem indexfs");
      }
    }
  }
}
