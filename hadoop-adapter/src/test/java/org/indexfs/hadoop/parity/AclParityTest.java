package org.indexfs.hadoop.parity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cases of HDFS's own FSAclBaseTest (hadoop-hdfs test jar) as comparisons: every ACL change
 * and its variants (access only, default only, minimal, custom mask, sticky bit, missing path,
 * default ACL on a file), setPermission on entries with ACLs, default ACLs handed to new files and
 * directories with and without an umask and a mode, who may change and read ACLs, and the
 * permission checks ACLs decide (FileSystem.access, reads, traversal) — on a MiniDFSCluster with
 * ACLs on and on IndexFS on one and four slots, results and messages identical. (Its dedup and
 * restart cases look at the NameNode's memory and have no counterpart.)
 */
class AclParityTest {
  private static final UserGroupInformation BRUCE = UserGroupInformation.createUserForTesting("bruce", new String[] {});
  private static final UserGroupInformation DIANA = UserGroupInformation.createUserForTesting("diana", new String[] {});
  private static final UserGroupInformation SUPER =
      UserGroupInformation.createUserForTesting("super", new String[] {"supergroup"});
  private static final UserGroupInformation BOB =
      UserGroupInformation.createUserForTesting("bob", new String[] {"groupY", "groupZ"});

  private static SideBySideClusters clusters;

  @BeforeAll
  static void start() throws Exception {
    clusters = new SideBySideClusters("acl", Map.of("dfs.namenode.acls.enabled", "true"), Map.of(), 1, 4);
  }

  @AfterAll
  static void stop() {
    if (clusters != null) {
      clusters.close();
    }
  }

  static List<AclEntry> acl(String spec) {
    return new ArrayList<>(AclEntry.parseAclSpec(spec, true));
  }

  static List<AclEntry> names(String spec) {
    return new ArrayList<>(AclEntry.parseAclSpec(spec, false));
  }

  /** What a test looks at after each change: the ACL status and the file status (mode, "+"). */
  static void state(Transcript t, FileSystem fs, Path p) {
    t.step("  acl of " + p.getName(), () -> fs.getAclStatus(p));
    t.step("  stat of " + p.getName(), () -> fs.getFileStatus(p));
  }

  static Path dir(FileSystem fs, Path base, String name, int mode) throws Exception {
    Path p = new Path(base, name);
    FileSystem.mkdirs(fs, p, new FsPermission((short) mode));
    return p;
  }

  static Path file(FileSystem fs, Path base, String name, int mode) throws Exception {
    Path p = new Path(base, name);
    fs.create(p).close();
    fs.setPermission(p, new FsPermission((short) mode));
    return p;
  }

  private static final String FULL = "user::rwx,user:foo:rwx,group::r-x,other::---,default:user:foo:rwx";

  @Test
  void modifyAclEntries() throws Exception {
    clusters.compare("modify", (side, base, t) -> {
      FileSystem fs = side.fs();
      Path d = dir(fs, base, "dir", 0750);
      t.call("set", () -> fs.setAcl(d, acl(FULL)));
      t.call("modify", () -> fs.modifyAclEntries(d, acl("user:foo:r-x,default:user:foo:r-x")));
      state(t, fs, d);
      Path f = file(fs, base, "onlyAccess", 0640);
      t.call("set access", () -> fs.setAcl(f, acl("user::rwx,user:foo:rwx,group::r-x,other::---")));
      t.call("modify access", () -> fs.modifyAclEntries(f, acl("user:foo:r-x")));
      state(t, fs, f);
      Path od = dir(fs, base, "onlyDefault", 0750);
      t.call("set default", () -> fs.setAcl(od, acl("default:user:foo:rwx")));
      t.call("modify default", () -> fs.modifyAclEntries(od, acl("default:user:foo:r-x")));
      state(t, fs, od);
      Path m = file(fs, base, "minimal", 0640);
      t.call("modify minimal", () -> fs.modifyAclEntries(m, acl("user:foo:rw-")));
      state(t, fs, m);
      Path md = dir(fs, base, "minimalDefault", 0750);
      t.call("modify minimal default", () -> fs.modifyAclEntries(md, acl("default:user::rwx,default:group::r-x,default:other::---")));
      state(t, fs, md);
      Path cm = file(fs, base, "customMask", 0640);
      t.call("custom mask", () -> fs.modifyAclEntries(cm, acl("user:foo:rwx,mask::---")));
      state(t, fs, cm);
      Path sb = dir(fs, base, "sticky", 01750);
      t.call("set sticky", () -> fs.setAcl(sb, acl(FULL)));
      t.call("modify sticky", () -> fs.modifyAclEntries(sb, acl("user:foo:r-x,default:user:foo:r-x")));
      state(t, fs, sb);
      t.call("missing path", () -> fs.modifyAclEntries(new Path(base, "missing"), acl("user::rwx,user:foo:rwx,group::r-x,other::---")));
      Path df = file(fs, base, "defaultOnFile", 0640);
      t.call("default on a file", () -> fs.modifyAclEntries(df, acl("default:user:foo:rwx")));
      state(t, fs, df);
    });
  }

  @Test
  void removeAclEntries() throws Exception {
    clusters.compare("removeEntries", (side, base, t) -> {
      FileSystem fs = side.fs();
      Path d = dir(fs, base, "dir", 0750);
      fs.setAcl(d, acl(FULL));
      t.call("remove", () -> fs.removeAclEntries(d, names("user:foo,default:user:foo")));
      state(t, fs, d);
      Path f = file(fs, base, "onlyAccess", 0640);
      fs.setAcl(f, acl("user::rwx,user:foo:rwx,user:bar:rw-,group::rw-,other::---"));
      t.call("remove access", () -> fs.removeAclEntries(f, names("user:foo")));
      state(t, fs, f);
      Path od = dir(fs, base, "onlyDefault", 0750);
      fs.setAcl(od, acl("user::rwx,group::r-x,other::---,default:user:foo:rwx,default:user:bar:r-x"));
      t.call("remove default", () -> fs.removeAclEntries(od, names("default:user:foo")));
      state(t, fs, od);
      Path m = file(fs, base, "minimal", 0760);
      fs.setAcl(m, acl("user::rwx,user:foo:rwx,group::rw-,other::---"));
      t.call("remove to minimal", () -> fs.removeAclEntries(m, names("user:foo,mask::")));
      state(t, fs, m);
      Path md = dir(fs, base, "minimalDefault", 0750);
      fs.setAcl(md, acl(FULL));
      t.call("remove to minimal default", () -> fs.removeAclEntries(md, names("user:foo,mask::,default:user:foo,default:mask::")));
      state(t, fs, md);
      Path sb = dir(fs, base, "sticky", 01750);
      fs.setAcl(sb, acl(FULL));
      t.call("remove sticky", () -> fs.removeAclEntries(sb, names("user:foo,default:user:foo")));
      state(t, fs, sb);
      Path mask = file(fs, base, "maskNeeded", 0640);
      fs.setAcl(mask, acl("user::rwx,user:foo:rwx,group::r--,other::---"));
      t.call("remove a needed mask", () -> fs.removeAclEntries(mask, names("mask::")));
      t.call("missing path", () -> fs.removeAclEntries(new Path(base, "missing"), names("user:foo")));
    });
  }

  @Test
  void removeDefaultAclAndRemoveAcl() throws Exception {
    clusters.compare("removeDefault", (side, base, t) -> {
      FileSystem fs = side.fs();
      Path d = dir(fs, base, "dir", 0750);
      fs.setAcl(d, acl(FULL));
      t.call("remove default", () -> fs.removeDefaultAcl(d));
      state(t, fs, d);
      Path f = file(fs, base, "onlyAccess", 0640);
      fs.setAcl(f, acl("user::rwx,user:foo:rwx,group::r-x,other::---"));
      t.call("remove default of access only", () -> fs.removeDefaultAcl(f));
      state(t, fs, f);
      Path od = dir(fs, base, "onlyDefault", 0750);
      fs.setAcl(od, acl("default:user:foo:rwx"));
      t.call("remove default of default only", () -> fs.removeDefaultAcl(od));
      state(t, fs, od);
      Path m = file(fs, base, "minimal", 0640);
      t.call("remove default of minimal", () -> fs.removeDefaultAcl(m));
      state(t, fs, m);
      Path sb = dir(fs, base, "sticky", 01750);
      fs.setAcl(sb, acl(FULL));
      t.call("remove default sticky", () -> fs.removeDefaultAcl(sb));
      state(t, fs, sb);
      t.call("remove default of missing", () -> fs.removeDefaultAcl(new Path(base, "missing")));

      Path r = dir(fs, base, "removeAcl", 0750);
      fs.setAcl(r, acl(FULL));
      t.call("remove acl", () -> fs.removeAcl(r));
      state(t, fs, r);
      Path rm = file(fs, base, "removeMinimal", 0760);
      fs.setAcl(rm, acl("user::rwx,group::rw-,other::---"));
      t.call("remove acl minimal", () -> fs.removeAcl(rm));
      state(t, fs, rm);
      Path rs = dir(fs, base, "removeSticky", 01750);
      fs.setAcl(rs, acl(FULL));
      t.call("remove acl sticky", () -> fs.removeAcl(rs));
      state(t, fs, rs);
      Path ro = dir(fs, base, "removeOnlyDefault", 0750);
      fs.setAcl(ro, acl("user::rwx,group::r-x,other::---,default:user:foo:rwx"));
      t.call("remove acl only default", () -> fs.removeAcl(ro));
      state(t, fs, ro);
      t.call("remove acl of missing", () -> fs.removeAcl(new Path(base, "missing")));
    });
  }

  @Test
  void setAclAndItsValidation() throws Exception {
    clusters.compare("setAcl", (side, base, t) -> {
      FileSystem fs = side.fs();
      Path d = dir(fs, base, "dir", 0750);
      t.call("set", () -> fs.setAcl(d, acl(FULL)));
      state(t, fs, d);
      Path f = file(fs, base, "onlyAccess", 0640);
      t.call("set access", () -> fs.setAcl(f, acl("user::rw-,user:foo:r--,group::r--,other::---")));
      state(t, fs, f);
      Path od = dir(fs, base, "onlyDefault", 0750);
      t.call("set default", () -> fs.setAcl(od, acl("default:user:foo:rwx")));
      state(t, fs, od);
      Path m = file(fs, base, "minimal", 0644);
      fs.setAcl(m, acl("user::rw-,user:foo:r--,group::r--,other::---"));
      t.call("set minimal", () -> fs.setAcl(m, acl("user::rwx,group::r--,other::---")));
      state(t, fs, m);
      Path md = dir(fs, base, "minimalDefault", 0750);
      t.call("set minimal default", () -> fs.setAcl(md, acl("default:user::rwx,default:group::r-x,default:other::---")));
      state(t, fs, md);
      Path cm = file(fs, base, "customMask", 0640);
      t.call("custom mask", () -> fs.setAcl(cm, acl("user::rw-,user:foo:r--,group::r--,mask::rwx,other::---")));
      state(t, fs, cm);
      Path sb = dir(fs, base, "sticky", 01750);
      t.call("set sticky", () -> fs.setAcl(sb, acl(FULL)));
      state(t, fs, sb);
      t.call("missing path", () -> fs.setAcl(new Path(base, "missing"), acl("user::rw-,group::r--,other::---")));
      Path df = file(fs, base, "defaultOnFile", 0640);
      t.call("default on a file", () -> fs.setAcl(df, acl("user::rwx,group::r-x,other::---,default:user:foo:rwx")));
      Path v = file(fs, base, "invalid", 0640);
      t.call("no base entries", () -> fs.setAcl(v, acl("user:foo:rwx")));
      t.call("twice the same", () -> fs.setAcl(v, acl("user::rwx,user:foo:rwx,user:foo:r--,group::r--,other::---")));
      t.call("named mask", () -> fs.setAcl(v, acl("user::rwx,group::r--,mask:x:r--,other::---")));
      t.call("named other", () -> fs.setAcl(v, acl("user::rwx,group::r--,other:x:---")));
      List<AclEntry> many = acl("user::rwx,group::r--,other::---");
      for (int i = 0; i < 30; i++) {
        many.add(acl("user:u" + i + ":r--").get(0));
      }
      t.call("too many", () -> fs.setAcl(v, many));
      t.call("default without base entries", () -> fs.setAcl(d, acl("user::rwx,group::r-x,other::---,default:mask::r--")));
      state(t, fs, v);
    });
  }

  @Test
  void setPermissionOnEntriesWithAcls() throws Exception {
    clusters.compare("setPermission", (side, base, t) -> {
      FileSystem fs = side.fs();
      Path d = dir(fs, base, "dir", 0750);
      fs.setAcl(d, acl(FULL));
      t.call("chmod 700", () -> fs.setPermission(d, new FsPermission((short) 0700)));
      state(t, fs, d);
      Path f = file(fs, base, "onlyAccess", 0640);
      fs.setAcl(f, acl("user::rw-,user:foo:rw-,group::r--,other::---"));
      t.call("chmod 600", () -> fs.setPermission(f, new FsPermission((short) 0600)));
      state(t, fs, f);
      Path od = dir(fs, base, "onlyDefault", 0750);
      fs.setAcl(od, acl("default:user:foo:rwx"));
      t.call("chmod 700 default only", () -> fs.setPermission(od, new FsPermission((short) 0700)));
      state(t, fs, od);
      Path bit = file(fs, base, "aclBit", 0600);
      t.call("chmod with the old ACL bit", () -> fs.setPermission(bit, FsPermission.createImmutable((short) 010700)));
      state(t, fs, bit);
    });
  }

  @Test
  void defaultAclsReachNewEntries() throws Exception {
    clusters.compare("inherit", (side, base, t) -> {
      FileSystem fs = side.fs();
      Configuration umask027 = new Configuration(side.conf());
      umask027.set("fs.permissions.umask-mode", "027");
      FileSystem masked = side.as(UserGroupInformation.getCurrentUser(), umask027);

      Path a = dir(fs, base, "a", 0750);
      fs.setAcl(a, acl("default:user:foo:rwx"));
      fs.create(new Path(a, "file1")).close();
      state(t, fs, new Path(a, "file1"));
      fs.mkdirs(new Path(a, "dir1"));
      state(t, fs, new Path(a, "dir1"));
      fs.create(new Path(a, "dir2/file2")).close();
      state(t, fs, new Path(a, "dir2"));
      state(t, fs, new Path(a, "dir2/file2"));
      fs.mkdirs(new Path(a, "dir3/subdir3"));
      state(t, fs, new Path(a, "dir3"));
      state(t, fs, new Path(a, "dir3/subdir3"));
      fs.create(new Path(a, "withMode"), new FsPermission((short) 0740), false, 4096, (short) 1, 1 << 20, null).close();
      state(t, fs, new Path(a, "withMode"));
      fs.mkdirs(new Path(a, "dirWithMode"), new FsPermission((short) 0740));
      state(t, fs, new Path(a, "dirWithMode"));

      Path u = dir(fs, base, "umask", 0750);
      fs.setAcl(u, acl("default:group::rw-,default:user:foo:rwx"));
      masked.create(new Path(u, "file")).close();
      state(t, fs, new Path(u, "file"));
      fs.setAcl(u, acl("default:group::rwx,default:user:foo:rwx"));
      masked.mkdirs(new Path(u, "dir"));
      state(t, fs, new Path(u, "dir"));
      masked.mkdirs(new Path(u, "deep/er"));
      state(t, fs, new Path(u, "deep"));
      state(t, fs, new Path(u, "deep/er"));

      Path o = dir(fs, base, "onlyAccess", 0750);
      fs.modifyAclEntries(o, acl("user:foo:rwx"));
      fs.create(new Path(o, "file")).close();
      fs.mkdirs(new Path(o, "dir"));
      state(t, fs, new Path(o, "file"));
      state(t, fs, new Path(o, "dir"));

      Path mn = dir(fs, base, "minimalDefault", 0750);
      fs.setAcl(mn, acl("default:user::rwx,default:group::r-x,default:other::---"));
      fs.create(new Path(mn, "file")).close();
      fs.mkdirs(new Path(mn, "dir"));
      state(t, fs, new Path(mn, "file"));
      state(t, fs, new Path(mn, "dir"));

      Path rd = dir(fs, base, "renameInto", 0750);
      fs.setAcl(rd, acl("default:user:foo:rwx"));
      Path moved = file(fs, base, "movedFile", 0640);
      fs.rename(moved, new Path(rd, "movedFile"));
      state(t, fs, new Path(rd, "movedFile"));
      Path movedDir = dir(fs, base, "movedDir", 0750);
      fs.rename(movedDir, new Path(rd, "movedDir"));
      state(t, fs, new Path(rd, "movedDir"));
    });
  }

  @Test
  void whoMayChangeAndReadAcls() throws Exception {
    clusters.compare("owners", (side, base, t) -> {
      FileSystem fs = side.fs();
      FileSystem bruce = side.as(BRUCE);
      FileSystem diana = side.as(DIANA);
      FileSystem superMember = side.as(SUPER);
      Path bruceDir = new Path(base, "bruce");
      Path bruceFile = new Path(bruceDir, "file");
      fs.mkdirs(bruceDir);
      fs.setOwner(bruceDir, "bruce", null);
      bruce.create(bruceFile).close();
      List<AclEntry> spec = acl("user:diana:rwx");
      for (FileSystem who : List.of(bruce, fs, superMember, diana)) {
        String as = who == bruce ? "bruce" : who == fs ? "superuser" : who == diana ? "diana" : "supergroup member";
        t.call(as + " modifies", () -> who.modifyAclEntries(bruceFile, spec));
        t.call(as + " removes entries", () -> who.removeAclEntries(bruceFile, names("user:diana")));
        t.call(as + " removes the default", () -> who.removeDefaultAcl(bruceFile));
        t.call(as + " removes the ACL", () -> who.removeAcl(bruceFile));
        t.call(as + " sets", () -> who.setAcl(bruceFile, acl("user::rw-,user:diana:rw-,group::r--,other::r--")));
      }
      bruce.setAcl(bruceDir, acl("user::rwx,user:diana:r--,group::---,other::---"));
      for (FileSystem who : List.of(bruce, fs, superMember, diana)) {
        t.step("acl status", () -> who.getAclStatus(bruceFile));
      }
      bruce.modifyAclEntries(bruceFile, acl("user:diana:---"));
      bruce.setAcl(bruceDir, acl("user::rwx,group::r-x,other::r-x"));
      for (FileSystem who : List.of(bruce, fs, superMember, diana)) {
        t.step("read", () -> {
          try (FSDataInputStream in = who.open(bruceFile)) {
            return in.read();
          }
        });
      }
      t.step("ls of a file with an ACL", () -> fs.listStatus(bruceDir)[0]);
    });
  }

  @Test
  void accessIsDecidedByTheAcl() throws Exception {
    clusters.compare("access", (side, base, t) -> {
      FileSystem fs = side.fs();
      FileSystem bruce = side.as(BRUCE);
      FileSystem bob = side.as(BOB);
      Path p1 = new Path(base, "p1");
      fs.mkdirs(p1);
      fs.setOwner(p1, "bruce", "groupX");
      t.call("set", () -> bruce.setAcl(p1, acl("user::r--,user:bruce:r--,group::---,other::---")));
      t.call("bruce read", () -> bruce.access(p1, FsAction.READ));
      t.call("bruce write", () -> bruce.access(p1, FsAction.WRITE));
      t.call("missing path", () -> bruce.access(new Path(base, "bad/bad"), FsAction.READ));
      t.call("groupY reads", () -> bruce.modifyAclEntries(p1, acl("group:groupY:r--")));
      t.call("bob read", () -> bob.access(p1, FsAction.READ));
      t.call("bob write", () -> bob.access(p1, FsAction.WRITE));
      t.call("groupZ writes", () -> bruce.modifyAclEntries(p1, acl("group:groupZ:-w-")));
      t.call("bob write now", () -> bob.access(p1, FsAction.WRITE));
      t.call("bob read and write at once", () -> bob.access(p1, FsAction.READ_WRITE));
      t.call("deny bob by name", () -> bruce.modifyAclEntries(p1, acl("user:bob:---")));
      t.call("bob read denied", () -> bob.access(p1, FsAction.READ));

      Path p2 = new Path(base, "effective");
      fs.mkdirs(p2);
      fs.setPermission(p2, FsPermission.valueOf("-rwxrwxrwx"));
      t.step("no entries", () -> fs.getAclStatus(p2));
      fs.modifyAclEntries(p2, acl("user:bruce:rwx,group:groupY:rwx"));
      t.step("named entries", () -> fs.getAclStatus(p2));
      fs.setPermission(p2, FsPermission.valueOf("-rwxr-----"));
      t.step("restricted", () -> {
        org.apache.hadoop.fs.permission.AclStatus s = fs.getAclStatus(p2);
        List<String> effective = new ArrayList<>();
        for (AclEntry e : s.getEntries()) {
          effective.add(e + " -> " + s.getEffectivePermission(e));
        }
        return effective;
      });
      t.call("bruce read", () -> bruce.access(p2, FsAction.READ));
      t.call("bruce write", () -> bruce.access(p2, FsAction.WRITE));
      t.call("bob read", () -> bob.access(p2, FsAction.READ));
      t.call("bob write", () -> bob.access(p2, FsAction.WRITE));
    });
  }

  @Test
  void directoryAclsDecideTraversalEverywhere() throws Exception {
    clusters.compare("traverse", (side, base, t) -> {
      FileSystem fs = side.fs();
      FileSystem diana = side.as(DIANA);
      FileSystem bruce = side.as(BRUCE);
      Path top = dir(fs, base, "top", 0700);
      fs.create(new Path(top, "a/b/c/file")).close();
      for (int i = 0; i < 6; i++) {
        fs.mkdirs(new Path(top, "a/b/c/d" + i));
      }
      t.step("diana cannot get in", () -> diana.getFileStatus(new Path(top, "a/b/c/file")));
      t.call("let diana through", () -> fs.modifyAclEntries(top, acl("user:diana:--x")));
      t.step("diana gets in", () -> diana.getFileStatus(new Path(top, "a/b/c/file")));
      t.step("diana lists deep", () -> diana.listStatus(new Path(top, "a/b/c")).length);
      t.step("bruce does not", () -> bruce.getFileStatus(new Path(top, "a/b/c/file")));
      t.step("diana cannot list the top", () -> diana.listStatus(top));
      t.call("mask it off", () -> fs.setPermission(top, new FsPermission((short) 0700)));
      t.step("diana is out again", () -> diana.getFileStatus(new Path(top, "a/b/c/file")));
      t.call("mask back", () -> fs.setPermission(top, new FsPermission((short) 0710)));
      t.step("diana is back", () -> diana.getFileStatus(new Path(top, "a/b/c/d3")));
      t.call("remove the ACL", () -> fs.removeAcl(top));
      t.step("diana is out", () -> diana.getFileStatus(new Path(top, "a/b/c/d3")));
      t.call("default for new directories", () -> fs.setAcl(new Path(top, "a"), acl("user::rwx,group::---,other::---,default:user:diana:rwx,default:group::---,default:other::---")));
      t.call("let diana through again", () -> fs.modifyAclEntries(top, acl("user:diana:--x")));
      fs.mkdirs(new Path(top, "a/new/deeper"));
      t.step("diana cannot pass a", () -> diana.mkdirs(new Path(top, "a/new/deeper/mine")));
      t.call("a lets diana pass", () -> fs.modifyAclEntries(new Path(top, "a"), acl("user:diana:--x")));
      t.step("diana makes a directory below", () -> diana.mkdirs(new Path(top, "a/new/deeper/mine")));
      state(t, fs, new Path(top, "a/new/deeper/mine"));
    });
  }
}
