package org.indexfs.hadoop.parity;

import static org.apache.hadoop.fs.permission.AclEntryScope.ACCESS;
import static org.apache.hadoop.fs.permission.AclEntryType.USER;

import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.common.IndexFsConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cases of HDFS's own FSXAttrBaseTest (hadoop-hdfs test jar), run as comparisons: each
 * scenario on a MiniDFSCluster set up as that test sets it up (at most 3 user-visible xattrs per
 * inode, 37 bytes per name and value) and on IndexFS with the same limits on one slot and on four;
 * results and messages must be identical. Its /.reserved/raw cases have no IndexFS counterpart
 * (there are no reserved paths): the raw namespace is refused on ordinary paths on both.
 */
class XAttrParityTest {
  private static final String NAME1 = "user.a1";
  private static final byte[] VALUE1 = {0x31, 0x32, 0x33};
  private static final byte[] NEW_VALUE1 = {0x31, 0x31, 0x31};
  private static final String NAME2 = "user.a2";
  private static final byte[] VALUE2 = {0x37, 0x38, 0x39};
  private static final String NAME3 = "user.a3";
  private static final String NAME4 = "user.a4";
  private static final String SECURITY1 = "security.hdfs.unreadable.by.superuser";
  private static final int MAX_SIZE = SECURITY1.length();
  private static final EnumSet<XAttrSetFlag> CREATE = EnumSet.of(XAttrSetFlag.CREATE);
  private static final EnumSet<XAttrSetFlag> REPLACE = EnumSet.of(XAttrSetFlag.REPLACE);
  private static final EnumSet<XAttrSetFlag> BOTH = EnumSet.of(XAttrSetFlag.CREATE, XAttrSetFlag.REPLACE);

  private static final UserGroupInformation PLAIN_USER =
      UserGroupInformation.createUserForTesting("user", new String[] {"mygroup"});
  private static final UserGroupInformation BRUCE = UserGroupInformation.createUserForTesting("bruce", new String[] {});
  private static final UserGroupInformation DIANA = UserGroupInformation.createUserForTesting("diana", new String[] {});

  private static SideBySideClusters clusters;

  @BeforeAll
  static void start() throws Exception {
    clusters = new SideBySideClusters("xattr",
        Map.of("dfs.namenode.xattrs.enabled", "true", "dfs.namenode.acls.enabled", "true",
            "dfs.namenode.fs-limits.max-xattrs-per-inode", "3",
            "dfs.namenode.fs-limits.max-xattr-size", String.valueOf(MAX_SIZE)),
        Map.of(IndexFsConfig.MAX_XATTRS_PER_INODE.name(), "3",
            IndexFsConfig.MAX_XATTR_SIZE.name(), String.valueOf(MAX_SIZE)),
        1, 4);
  }

  @AfterAll
  static void stop() {
    if (clusters != null) {
      clusters.close();
    }
  }

  static void createFile(FileSystem fs, Path p, int length) throws Exception {
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(new byte[length]);
    }
  }

  @Test
  void createXAttr() throws Exception {
    clusters.compare("createXAttr", (side, base, t) -> {
      FileSystem fs = side.fs();
      Path file = new Path(base, "file");
      createFile(fs, file, 8192);
      t.call("create", () -> fs.setXAttr(file, NAME1, VALUE1, CREATE));
      t.step("get all", () -> fs.getXAttrs(file));
      t.call("remove", () -> fs.removeXAttr(file, NAME1));
      t.step("get all after remove", () -> fs.getXAttrs(file));
      t.call("create again", () -> fs.setXAttr(file, NAME1, VALUE1, CREATE));
      t.call("create existing", () -> fs.setXAttr(file, NAME1, VALUE1, CREATE));
      t.call("remove", () -> fs.removeXAttr(file, NAME1));
      t.call("create a1", () -> fs.setXAttr(file, NAME1, VALUE1, CREATE));
      t.call("create a2 without value", () -> fs.setXAttr(file, NAME2, null, CREATE));
      t.call("create security", () -> fs.setXAttr(file, SECURITY1, null, CREATE));
      t.step("get all three", () -> fs.getXAttrs(file));
      t.call("raw on an ordinary path", () -> fs.setXAttr(file, "raw.a1", VALUE1, CREATE));
      t.call("system namespace", () -> fs.setXAttr(file, "system.a1", VALUE1, CREATE));
      t.step("delete", () -> fs.delete(file, false));
      createFile(fs, file, 10);
      t.step("a new file of the same name has none", () -> fs.getXAttrs(file));
    });
  }

  @Test
  void replaceXAttr() throws Exception {
    clusters.compare("replaceXAttr", (side, base, t) -> {
      FileSystem fs = side.fs();
      Path path = new Path(base, "p");
      FileSystem.mkdirs(fs, path, FsPermission.createImmutable((short) 0750));
      t.call("create", () -> fs.setXAttr(path, NAME1, VALUE1, CREATE));
      t.call("replace", () -> fs.setXAttr(path, NAME1, NEW_VALUE1, REPLACE));
      t.step("get", () -> fs.getXAttrs(path));
      t.call("remove", () -> fs.removeXAttr(path, NAME1));
      t.call("replace missing", () -> fs.setXAttr(path, NAME1, VALUE1, REPLACE));
      t.call("create a1", () -> fs.setXAttr(path, NAME1, VALUE1, CREATE));
      t.call("create a2", () -> fs.setXAttr(path, NAME2, VALUE2, CREATE));
      t.call("replace a2 with no value", () -> fs.setXAttr(path, NAME2, null, REPLACE));
      t.step("get", () -> fs.getXAttrs(path));
      t.step("get a2 alone", () -> fs.getXAttr(path, NAME2));
    });
  }

  @Test
  void setXAttrFlagsNamesAndLimits() throws Exception {
    clusters.compare("setXAttr", (side, base, t) -> {
      FileSystem fs = side.fs();
      Path path = new Path(base, "p");
      FileSystem.mkdirs(fs, path, FsPermission.createImmutable((short) 0750));
      t.call("create|replace", () -> fs.setXAttr(path, NAME1, VALUE1, BOTH));
      t.step("get", () -> fs.getXAttrs(path));
      t.call("remove", () -> fs.removeXAttr(path, NAME1));
      t.call("null name", () -> fs.setXAttr(path, null, VALUE1, BOTH));
      t.call("empty name", () -> fs.setXAttr(path, "user.", VALUE1, BOTH));
      t.call("no prefix", () -> fs.setXAttr(path, "a1", VALUE1, BOTH));
      t.call("no flag given", () -> fs.setXAttr(path, NAME1, VALUE1));
      t.call("empty flag set", () -> fs.setXAttr(path, NAME2, VALUE1, EnumSet.noneOf(XAttrSetFlag.class)));
      t.step("get", () -> fs.getXAttrs(path));
      t.call("remove", () -> fs.removeXAttr(path, NAME1));
      t.call("create", () -> fs.setXAttr(path, NAME1, VALUE1, CREATE));
      t.call("create|replace existing", () -> fs.setXAttr(path, NAME1, NEW_VALUE1, BOTH));
      t.step("get", () -> fs.getXAttrs(path));
      t.call("remove", () -> fs.removeXAttr(path, NAME1));
      t.call("a1", () -> fs.setXAttr(path, NAME1, VALUE1));
      t.call("a2", () -> fs.setXAttr(path, NAME2, VALUE2));
      t.call("a3", () -> fs.setXAttr(path, NAME3, null));
      t.call("a4 over the limit", () -> fs.setXAttr(path, NAME4, null));
      t.call("trusted over the limit", () -> fs.setXAttr(path, "trusted.t", null));
      t.call("security does not count", () -> fs.setXAttr(path, SECURITY1, null));
      t.call("replacing within the limit", () -> fs.setXAttr(path, NAME3, VALUE1));
      t.call("remove a1", () -> fs.removeXAttr(path, NAME1));
      t.call("remove a2", () -> fs.removeXAttr(path, NAME2));
      t.call("remove a3", () -> fs.removeXAttr(path, NAME3));
      t.call("name too long", () -> fs.setXAttr(path, "user.0123456789abcdefX0123456789abcdefX0123456789abcdef", null));
      t.call("value too long", () -> fs.setXAttr(path, "user.a", new byte[MAX_SIZE]));
      t.call("exactly the limit", () -> fs.setXAttr(path, "user.111", new byte[MAX_SIZE - 3]));
      t.step("get", () -> fs.getXAttrs(path));
    });
  }

  @Test
  void getXAttrsNamesAndPermissions() throws Exception {
    clusters.compare("getXAttrs", (side, base, t) -> {
      FileSystem fs = side.fs();
      FileSystem user = side.as(PLAIN_USER);
      Path path = new Path(base, "p");
      FileSystem.mkdirs(fs, path, FsPermission.createImmutable((short) 0750));
      fs.setXAttr(path, NAME1, VALUE1, CREATE);
      fs.setXAttr(path, NAME2, VALUE2, CREATE);
      t.step("namespace in capitals", () -> fs.getXAttr(path, "USER.a2"));
      t.step("missing one", () -> fs.getXAttr(path, NAME3));
      t.step("one of three missing", () -> fs.getXAttrs(path, List.of(NAME1, NAME2, NAME3)));
      t.step("two of them", () -> fs.getXAttrs(path, List.of(NAME1, NAME2)));
      t.step("no names", () -> fs.getXAttrs(path, List.of()));
      t.call("remove a1", () -> fs.removeXAttr(path, NAME1));
      t.call("remove a2", () -> fs.removeXAttr(path, NAME2));
      t.step("unknown namespace", () -> fs.getXAttr(path, "wackynamespace.foo"));
      fs.setXAttr(path, "trusted.foo", "1234".getBytes(StandardCharsets.UTF_8));
      fs.setPermission(path, new FsPermission((short) 0755));
      t.step("trusted for a user", () -> user.getXAttr(path, "trusted.foo"));
      t.step("trusted for the superuser", () -> fs.getXAttr(path, "trusted.foo"));
      t.step("user sees no trusted", () -> user.getXAttrs(path));
      fs.setXAttr(path, NAME1, "1234".getBytes(StandardCharsets.UTF_8));
      fs.setPermission(path, new FsPermission((short) 0700));
      t.step("owner only", () -> user.getXAttr(path, NAME1));
      Path child = new Path(path, "child");
      FileSystem.mkdirs(fs, child, FsPermission.createImmutable((short) 0700));
      fs.setXAttr(child, NAME1, "1234".getBytes(StandardCharsets.UTF_8));
      t.step("no search on the parent", () -> user.getXAttr(child, NAME1));
      fs.setPermission(path, new FsPermission((short) 0704));
      t.step("read on the parent is not enough", () -> user.getXAttr(child, NAME1));
      fs.setPermission(path, new FsPermission((short) 0701));
      fs.setPermission(child, new FsPermission((short) 0701));
      t.step("search on both is not enough", () -> user.getXAttr(child, NAME1));
      fs.setPermission(child, new FsPermission((short) 0704));
      t.step("search on the parent, read on it", () -> user.getXAttr(child, NAME1));
      t.step("missing path", () -> fs.getXAttrs(new Path(base, "nothing")));
      t.step("below a missing directory", () -> fs.getXAttrs(new Path(base, "nothing/below")));
    });
  }

  @Test
  void removeXAttrAndItsPermissions() throws Exception {
    clusters.compare("removeXAttr", (side, base, t) -> {
      FileSystem fs = side.fs();
      FileSystem user = side.as(PLAIN_USER);
      Path path = new Path(base, "p");
      FileSystem.mkdirs(fs, path, FsPermission.createImmutable((short) 0750));
      fs.setXAttr(path, NAME1, VALUE1, CREATE);
      fs.setXAttr(path, NAME2, VALUE2, CREATE);
      fs.setXAttr(path, NAME3, null, CREATE);
      t.call("remove a2", () -> fs.removeXAttr(path, NAME2));
      t.call("remove a2 again", () -> fs.removeXAttr(path, NAME2));
      t.call("unknown namespace", () -> fs.removeXAttr(path, "wackynamespace.foo"));
      fs.setXAttr(path, "trusted.foo", "1234".getBytes(StandardCharsets.UTF_8));
      fs.setPermission(path, new FsPermission((short) 0757));
      t.call("trusted by a user", () -> user.removeXAttr(path, "trusted.foo"));
      t.call("trusted by the superuser", () -> fs.removeXAttr(path, "trusted.foo"));
      fs.setPermission(path, new FsPermission((short) 0700));
      t.call("owner only", () -> user.removeXAttr(path, NAME1));
      Path child = new Path(path, "child");
      FileSystem.mkdirs(fs, child, FsPermission.createImmutable((short) 0700));
      fs.setXAttr(child, NAME1, "1234".getBytes(StandardCharsets.UTF_8));
      t.call("no search on the parent", () -> user.removeXAttr(child, NAME1));
      fs.setPermission(path, new FsPermission((short) 0704));
      t.call("read on the parent", () -> user.removeXAttr(child, NAME1));
      fs.setPermission(path, new FsPermission((short) 0701));
      fs.setPermission(child, new FsPermission((short) 0701));
      t.call("search only", () -> user.removeXAttr(child, NAME1));
      fs.setPermission(child, new FsPermission((short) 0706));
      t.call("search on the parent, write on it", () -> user.removeXAttr(child, NAME1));
      t.step("what is left", () -> fs.getXAttrs(path));
      fs.setPermission(child, new FsPermission((short) 01777));
      fs.setXAttr(child, NAME1, VALUE1);
      t.call("sticky directory, not its owner", () -> user.removeXAttr(child, NAME1));
      t.call("sticky directory, not its owner, set", () -> user.setXAttr(child, NAME2, VALUE1));
      fs.setOwner(child, "user", null);
      t.call("sticky directory, its owner", () -> user.removeXAttr(child, NAME1));
      t.call("missing path", () -> fs.removeXAttr(new Path(base, "nothing"), NAME1));
    });
  }

  @Test
  void renamesKeepXAttrs() throws Exception {
    clusters.compare("rename", (side, base, t) -> {
      FileSystem fs = side.fs();
      Path path = new Path(base, "p");
      FileSystem.mkdirs(fs, path, FsPermission.createImmutable((short) 0750));
      fs.setXAttr(path, NAME1, VALUE1, CREATE);
      fs.setXAttr(path, NAME2, VALUE2, CREATE);
      Path renamed = new Path(base, "p-rename");
      t.step("rename the directory", () -> fs.rename(path, renamed));
      t.step("its xattrs", () -> fs.getXAttrs(renamed));
      // Files into many directories: on four slots most of these moves cross slots.
      for (int i = 0; i < 6; i++) {
        Path dir = new Path(base, "d" + i);
        fs.mkdirs(dir);
        Path file = new Path(renamed, "f" + i);
        createFile(fs, file, i * 100);
        fs.setXAttr(file, NAME1, ("v" + i).getBytes(StandardCharsets.UTF_8));
        Path moved = new Path(dir, "g" + i);
        t.step("rename file " + i, () -> fs.rename(file, moved));
        t.step("its xattrs", () -> fs.getXAttrs(moved));
        t.step("the old name", () -> fs.exists(file));
      }
    });
  }

  @Test
  void listXAttrsAndItsPermissions() throws Exception {
    clusters.compare("listXAttrs", (side, base, t) -> {
      FileSystem fs = side.fs();
      FileSystem user = side.as(PLAIN_USER);
      Path path = new Path(base, "p");
      t.step("missing path", () -> fs.listXAttrs(path));
      FileSystem.mkdirs(fs, path, FsPermission.createImmutable((short) 0750));
      t.step("none", () -> fs.listXAttrs(path));
      fs.setXAttr(path, NAME1, VALUE1, CREATE);
      fs.setXAttr(path, NAME2, VALUE2, CREATE);
      t.step("two", () -> fs.listXAttrs(path));
      fs.setPermission(path, new FsPermission((short) 0704));
      Path child = new Path(path, "child");
      FileSystem.mkdirs(fs, child, FsPermission.createImmutable((short) 0700));
      fs.setXAttr(child, NAME1, "1234".getBytes(StandardCharsets.UTF_8));
      t.step("read on the parent", () -> user.listXAttrs(child));
      fs.setPermission(path, new FsPermission((short) 0702));
      t.step("write on the parent", () -> user.listXAttrs(child));
      fs.setPermission(path, new FsPermission((short) 0701));
      t.step("search on the parent", () -> user.listXAttrs(child));
      fs.setPermission(child, new FsPermission((short) 0704));
      fs.setXAttr(child, "trusted.myxattr", "1234".getBytes(StandardCharsets.UTF_8));
      t.step("user does not see trusted", () -> user.listXAttrs(child));
      t.step("superuser does", () -> fs.listXAttrs(child).size());
    });
  }

  @Test
  void cleanupAndRecreate() throws Exception {
    clusters.compare("cleanup", (side, base, t) -> {
      FileSystem fs = side.fs();
      Path path = new Path(base, "p");
      FileSystem.mkdirs(fs, path, FsPermission.createImmutable((short) 0750));
      for (int round = 0; round < 3; round++) {
        t.call("set a1", () -> fs.setXAttr(path, NAME1, VALUE1, CREATE));
        t.call("set a2", () -> fs.setXAttr(path, NAME2, VALUE2, CREATE));
        t.call("remove a1", () -> fs.removeXAttr(path, NAME1));
        t.call("remove a2", () -> fs.removeXAttr(path, NAME2));
        t.step("none", () -> fs.getXAttrs(path));
      }
      fs.setXAttr(path, NAME1, VALUE1, CREATE);
      fs.setXAttr(path, NAME2, VALUE2, CREATE);
      createFile(fs, new Path(path, "f"), 1);
      fs.setXAttr(new Path(path, "f"), NAME1, VALUE1, CREATE);
      t.step("recursive delete", () -> fs.delete(path, true));
      FileSystem.mkdirs(fs, path, FsPermission.createImmutable((short) 0750));
      createFile(fs, new Path(path, "f"), 1);
      t.step("a new directory of the same name has none", () -> fs.getXAttrs(path));
      t.step("nor its new file", () -> fs.getXAttrs(new Path(path, "f")));
    });
  }

  @Test
  void xattrsFollowAcls() throws Exception {
    clusters.compare("xattrAcl", (side, base, t) -> {
      FileSystem fs = side.fs();
      Path path = new Path(base, "p");
      FileSystem.mkdirs(fs, path, FsPermission.createImmutable((short) 0750));
      fs.setOwner(path, BRUCE.getUserName(), null);
      FileSystem bruce = side.as(BRUCE);
      FileSystem diana = side.as(DIANA);
      t.call("bruce sets", () -> bruce.setXAttr(path, NAME1, VALUE1));
      t.step("diana cannot read", () -> diana.getXAttrs(path));
      t.call("bruce lets diana read", () -> bruce.modifyAclEntries(path,
          List.of(new AclEntry.Builder().setScope(ACCESS).setType(USER).setName("diana").setPermission(FsAction.READ).build())));
      t.step("diana reads", () -> diana.getXAttrs(path));
      t.call("diana cannot remove", () -> diana.removeXAttr(path, NAME1));
      t.call("diana cannot set", () -> diana.setXAttr(path, NAME2, VALUE2));
      t.call("bruce lets diana do all", () -> bruce.modifyAclEntries(path,
          List.of(new AclEntry.Builder().setScope(ACCESS).setType(USER).setName("diana").setPermission(FsAction.ALL).build())));
      t.call("diana sets", () -> diana.setXAttr(path, NAME2, VALUE2));
      t.step("diana reads a2", () -> diana.getXAttrs(path).get(NAME2));
      t.call("diana removes a1", () -> diana.removeXAttr(path, NAME1));
      t.call("diana removes a2", () -> diana.removeXAttr(path, NAME2));
    });
  }

  @Test
  void unreadableBySuperuser() throws Exception {
    clusters.compare("unreadable", (side, base, t) -> {
      for (boolean asSuperuser : new boolean[] {true, false}) {
        FileSystem fs = side.fs();
        FileSystem userFs = asSuperuser ? fs : side.as(PLAIN_USER);
        Path path = new Path(base, "p" + asSuperuser);
        Path file = new Path(path, "file");
        FileSystem.mkdirs(fs, path, FsPermission.createImmutable((short) 0777));
        createFile(userFs, file, 8192);
        t.call("on a directory", () -> userFs.setXAttr(path, SECURITY1, null, CREATE));
        t.call("on the file", () -> userFs.setXAttr(file, SECURITY1, null, CREATE));
        t.step("read it", () -> userFs.getXAttrs(file));
        t.call("again, create|replace", () -> userFs.setXAttr(file, SECURITY1, null, BOTH));
        t.call("remove it", () -> userFs.removeXAttr(file, SECURITY1));
        t.call("give it a value", () -> userFs.setXAttr(file, SECURITY1, VALUE1, REPLACE));
        t.step("open", () -> {
          try (FSDataInputStream in = userFs.open(file)) {
            return in.read();
          }
        });
        t.step("list it", () -> userFs.listXAttrs(file));
        t.step("delete the file", () -> userFs.delete(file, false));
      }
    });
  }
}
