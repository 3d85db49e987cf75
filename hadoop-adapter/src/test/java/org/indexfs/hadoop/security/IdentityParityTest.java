package org.indexfs.hadoop.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.ProxyUsers;
import org.indexfs.client.IndexFsClient;
import org.indexfs.common.IndexFsException;
import org.indexfs.client.ClusterConnection;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.indexfs.proto.Code;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Who a caller is, decided by the server as HDFS's NameNode decides it (issue 15, findings 1, 2, 4
 * and 7), each case run on the shared MiniDFSCluster and on IndexFS and compared outcome by outcome:
 * groups come from the server's mapping, proxy pairs follow {@code hadoop.proxyuser.*}, {@code access}
 * is answered by the server, and reserved names are refused in HDFS's words.
 */
class IdentityParityTest {
  private static final String ROOT = "/identity";
  private static FileSystem hdfsAdmin;
  private static FileSystem indexAdmin;
  private static final List<FileSystem> opened = new ArrayList<>();

  @BeforeAll
  static void setUp() throws IOException {
    hdfsAdmin = IndexFsTestCluster.hdfs().fileSystem();
    indexAdmin = track(FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf()));
    for (FileSystem fs : List.of(hdfsAdmin, indexAdmin)) {
      fs.mkdirs(new Path(ROOT));
      fs.setPermission(new Path(ROOT), new FsPermission((short) 0777));
      fs.create(new Path(ROOT + "/zero")).close();
      fs.setPermission(new Path(ROOT + "/zero"), new FsPermission((short) 0));
      fs.create(new Path(ROOT + "/rootonly")).close();
      fs.setPermission(new Path(ROOT + "/rootonly"), new FsPermission((short) 0600));
      fs.mkdirs(new Path(ROOT + "/closed"));
      fs.setPermission(new Path(ROOT + "/closed"), new FsPermission((short) 0700));
      fs.create(new Path(ROOT + "/closed/f")).close();
      fs.mkdirs(new Path(ROOT + "/alices"));
      fs.setOwner(new Path(ROOT + "/alices"), "alice", "alicegroup");
      fs.setPermission(new Path(ROOT + "/alices"), new FsPermission((short) 0750));
      fs.create(new Path(ROOT + "/alices/f")).close();
      fs.setOwner(new Path(ROOT + "/alices/f"), "alice", "alicegroup");
      fs.setPermission(new Path(ROOT + "/alices/f"), new FsPermission((short) 0640));
    }
  }

  @AfterAll
  static void tearDown() throws IOException {
    for (FileSystem fs : opened) {
      fs.close();
    }
    hdfsAdmin.delete(new Path(ROOT), true);
  }

  private static FileSystem track(FileSystem fs) {
    opened.add(fs);
    return fs;
  }

  private static FileSystem as(UserGroupInformation ugi, FileSystem like) throws Exception {
    Configuration conf = new Configuration(like.getConf());
    return track(ugi.doAs((PrivilegedExceptionAction<FileSystem>) () -> FileSystem.newInstance(like.getUri(), conf)));
  }

  /** Runs {@code cases} on HDFS then IndexFS (each FileSystem made by {@code open}) and compares. */
  private static void assertSameOnBoth(Opener open, Map<String, Case> cases) throws Exception {
    // Opened lazily, inside each case: IndexFS asks a server when a FileSystem opens, HDFS at its first call.
    FileSystem[] fs = new FileSystem[2];
    Map<String, String> onHdfs = new LinkedHashMap<>();
    Map<String, String> onIndexFs = new LinkedHashMap<>();
    for (Map.Entry<String, Case> c : cases.entrySet()) {
      onHdfs.put(c.getKey(), Outcomes.of(() -> c.getValue().run(fs[0] != null ? fs[0] : (fs[0] = open.open(hdfsAdmin)))));
      onIndexFs.put(c.getKey(), Outcomes.of(() -> c.getValue().run(fs[1] != null ? fs[1] : (fs[1] = open.open(indexAdmin)))));
    }
    assertEquals(onHdfs, onIndexFs);
  }

  interface Opener {
    FileSystem open(FileSystem like) throws Exception;
  }

  interface Case {
    Object run(FileSystem fs) throws Exception;
  }

  private static Case access(String path, FsAction mode) {
    return fs -> {
      fs.access(new Path(path), mode);
      return null;
    };
  }

  @Test
  void accessIsAnsweredAsHdfsAnswersIt() throws Exception {
    Map<String, Case> cases = new LinkedHashMap<>();
    cases.put("READ on a 0000 file", access(ROOT + "/zero", FsAction.READ));
    cases.put("WRITE on root's 0600 file", access(ROOT + "/rootonly", FsAction.WRITE));
    cases.put("missing", access(ROOT + "/none", FsAction.READ));
    cases.put("below a closed directory", access(ROOT + "/closed/f", FsAction.READ));
    cases.put("missing below a closed directory", access(ROOT + "/closed/none", FsAction.READ));
    cases.put("ALL on a directory", access(ROOT, FsAction.ALL));
    cases.put("READ through group", access(ROOT + "/alices/f", FsAction.READ));
    cases.put("WRITE through group", access(ROOT + "/alices/f", FsAction.WRITE));
    // The superuser passes everything, a 0000 file included (Hadoop's client-side default refuses).
    assertSameOnBoth(like -> like, cases);
    // A FileSystem opened as erin answers for erin, whatever thread calls it (here: the superuser's).
    UserGroupInformation erin = UserGroupInformation.createUserForTesting("erin", new String[] {"erins"});
    assertSameOnBoth(like -> as(erin, like), cases);
  }

  @Test
  void groupsAClientAssertsAreIgnored() throws Exception {
    // mallory's own configuration claims supergroup (-D hadoop.user.group.static.mapping.overrides=mallory=supergroup
    // does exactly this); the server maps mallory to malloryg.
    UserGroupInformation mallory = UserGroupInformation.createUserForTesting("mallory", new String[] {"supergroup"});
    FileSystem fs = as(mallory, indexAdmin);
    AccessControlException e = assertThrows(AccessControlException.class,
        () -> fs.setPermission(new Path(ROOT + "/rootonly"), new FsPermission((short) 0777)));
    assertEquals("Permission denied. user=mallory is not the owner of inode=" + ROOT + "/rootonly", e.getMessage());
    assertThrows(AccessControlException.class, () -> fs.delete(new Path(ROOT + "/closed/f"), false));
    // (HDFS in this JVM shares the client's test group registry, so only IndexFS is asked here.)
    UserGroupInformation bob = UserGroupInformation.createUserForTesting("bob", new String[] {"alicegroup"});
    FileSystem bobs = as(bob, indexAdmin);
    assertEquals("org.apache.hadoop.security.AccessControlException: Permission denied: user=bob, access=EXECUTE,"
        + " inode=\"" + ROOT + "/alices\":alice:alicegroup:drwxr-x---",
        Outcomes.of(() -> {
          bobs.access(new Path(ROOT + "/alices/f"), FsAction.READ);
          return null;
        }));
    // The raw client, with any groups in its requests: the same.
    LocalCluster cluster = IndexFsTestCluster.get();
    try (IndexFsClient forged = new IndexFsClient(ClusterConnection.openUnshared(cluster.zookeeperConnect(),
        cluster.clusterName(), IndexFsConfig.RPC_MAX_FRAME_BYTES.defaultValue(), 10_000), IndexFsClient.caller("dora", List.of("supergroup", "alicegroup"), "forged"), 30_000)) {
      IndexFsException denied = assertThrows(IndexFsException.class, () -> forged.open(ROOT + "/alices/f"));
      assertEquals(Code.ACCESS_DENIED, denied.code());
    }
  }

  @Test
  void proxyPairsFollowHadoopProxyuserSettings() throws Exception {
    // Hadoop keeps proxy-user rules in one static table per JVM, which every NameNode started in
    // this test JVM replaces (the Kerberized and parity ones too): the shared HDFS's rules again.
    Configuration rules = new Configuration(false);
    rules.set("hadoop.proxyuser." + IndexFsTestCluster.PROXY_USER + ".users", "alice");
    rules.set("hadoop.proxyuser." + IndexFsTestCluster.PROXY_USER + ".hosts", "*");
    ProxyUsers.refreshSuperUserGroupsConfiguration(rules);
    UserGroupInformation oozie = UserGroupInformation.createUserForTesting(IndexFsTestCluster.PROXY_USER, new String[] {"o"});
    UserGroupInformation mallory = UserGroupInformation.createUserForTesting("mallory", new String[] {"supergroup"});
    Map<String, Case> cases = new LinkedHashMap<>();
    cases.put("stat", fs -> fs.getFileStatus(new Path(ROOT + "/alices/f")).getOwner());
    cases.put("mkdirs", fs -> fs.mkdirs(new Path(ROOT + "/alices/by-proxy")));
    cases.put("delete", fs -> fs.delete(new Path(ROOT + "/alices/by-proxy"), true));
    // Allowed: oozie may act for alice.
    assertSameOnBoth(like -> as(UserGroupInformation.createProxyUser("alice", oozie), like), cases);
    // Refused: oozie for bob, mallory for alice (nothing configured for mallory).
    assertSameOnBoth(like -> as(UserGroupInformation.createProxyUser("bob", oozie), like), cases);
    assertSameOnBoth(like -> as(UserGroupInformation.createProxyUser("alice", mallory), like), cases);
  }

  @Test
  void reservedNamesAreRefusedAsHdfsRefusesThem() throws Exception {
    hdfsAdmin.mkdirs(new Path(ROOT + "/r/d"));
    indexAdmin.mkdirs(new Path(ROOT + "/r/d"));
    Map<String, Case> cases = new LinkedHashMap<>();
    cases.put("mkdirs .snapshot", fs -> fs.mkdirs(new Path(ROOT + "/r/.snapshot")));
    cases.put("mkdirs below .snapshot", fs -> fs.mkdirs(new Path(ROOT + "/r/.snapshot/x")));
    cases.put("create .snapshot", fs -> {
      fs.create(new Path(ROOT + "/r/.snapshot")).close();
      return null;
    });
    cases.put("rename onto .snapshot", fs -> fs.rename(new Path(ROOT + "/r/d"), new Path(ROOT + "/r/.snapshot")));
    cases.put("stat .snapshot", fs -> fs.exists(new Path(ROOT + "/r/.snapshot")));
    cases.put("mkdirs /.reserved", fs -> fs.mkdirs(new Path("/.reserved")));
    cases.put("mkdirs below /.reserved", fs -> fs.mkdirs(new Path("/.reserved/x")));
    cases.put("create /.reserved", fs -> {
      fs.create(new Path("/.reserved")).close();
      return null;
    });
    cases.put("rename to /.reserved", fs -> fs.rename(new Path(ROOT + "/r/d"), new Path("/.reserved")));
    cases.put("delete /.reserved", fs -> fs.delete(new Path("/.reserved"), true));
    cases.put(".reserved below the root is an ordinary name", fs -> fs.mkdirs(new Path(ROOT + "/r/.reserved")));
    assertSameOnBoth(like -> like, cases);
  }
}
