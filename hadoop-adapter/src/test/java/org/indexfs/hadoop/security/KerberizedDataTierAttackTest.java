package org.indexfs.hadoop.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.hadoop.IndexFileSystem;
import org.indexfs.proto.Code;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 31, items 1, 2, 3 and 6 again with Kerberos everywhere (MiniKdc; a Kerberized
 * MiniDFSCluster as the data tier, its superuser's principal the servers'; the journal on): bob,
 * authenticated as himself, reads nothing of the journal, rearranges nothing in the data root,
 * makes the servers read no file of his choosing through a publish, and spoils no publish of
 * alice's, who — no superuser — publishes with the journal on.
 */
class KerberizedDataTierAttackTest {
  private static TestKdc kdc;
  private static String realm;
  private static MiniDFSCluster hdfs;
  private static LocalCluster cluster;
  private static Configuration conf;
  private static URI hdfsUri;
  private static final String ROOT = "/indexfs-kerb-sec";
  /** The data root of a second cluster with the journal off (the default), where item 3 was found. */
  private static final String PLAIN_ROOT = "/indexfs-kerb-sec-plain";
  private static LocalCluster plain;

  @BeforeAll
  static void start() throws Exception {
    kdc = TestKdc.start("kdc-sec", TestKdc.HDFS_PRINCIPAL, "HTTP/localhost", "alice", "bob");
    realm = kdc.realm;
    conf = new Configuration();
    hdfs = kdc.kerberizedHdfs(conf, KerberizedDataTierAttackTest.class);
    hdfsUri = URI.create("hdfs://localhost:" + hdfs.getNameNodePort());

    cluster = kerberized("kerbsec", ROOT).set(IndexFsConfig.JOURNAL_ENABLED.name(), "true")
        .set(IndexFsConfig.JOURNAL_CHECKPOINT_INTERVAL_MS.name(), "500").start();
    plain = kerberized("kerbsecplain", PLAIN_ROOT).start();
    cluster.clientConf().forEach(conf::set);
    conf.set(IndexFsConfig.SERVER_KERBEROS_PRINCIPAL.name(), "hdfs/_HOST@" + realm);
    try (FileSystem admin = as(UserGroupInformation.getLoginUser(), () -> FileSystem.newInstance(indexfs(), conf))) {
      for (String home : new String[] {"alice", "bob"}) {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/" + home);
        admin.mkdirs(p);
        admin.setOwner(p, home, home);
      }
    }
  }

  /** A Kerberos IndexFS cluster (one slot) whose data tier is the Kerberized HDFS under {@code root}. */
  private static LocalCluster.Builder kerberized(String name, String root) throws IOException {
    return kdc.clusterOver(hdfs, name, 1, root);
  }

  @AfterAll
  static void stop() throws Exception {
    if (plain != null) {
      plain.close();
    }
    if (cluster != null) {
      cluster.close();
    }
    if (hdfs != null) {
      hdfs.shutdown();
    }
    if (kdc != null) {
      kdc.close();
    }
  }

  private static URI indexfs() {
    return URI.create(cluster.defaultFs());
  }

  private static UserGroupInformation login(String user) throws IOException {
    return kdc.login(user);
  }

  private static <T> T as(UserGroupInformation ugi, PrivilegedExceptionAction<T> action) throws Exception {
    return ugi.doAs(action);
  }

  private static FileSystem fs(UserGroupInformation ugi, URI uri) throws Exception {
    return as(ugi, () -> FileSystem.newInstance(uri, new Configuration(conf)));
  }

  private static org.apache.hadoop.fs.Path data(String rel) {
    return new org.apache.hadoop.fs.Path(hdfsUri + ROOT + (rel.isEmpty() ? "" : "/" + rel));
  }

  /** The journal's files, once a checkpoint is there, as the servers' principal sees them. */
  /** An SST file of a finished checkpoint (not one being written under {@code <checkpoint>.tmp/}). */
  private static boolean settledSst(FileStatus f) {
    org.apache.hadoop.fs.Path p = f.getPath();
    return p.getName().endsWith(".sst") && p.getParent().getParent() != null
        && p.getParent().getParent().getName().equals("checkpoints") && !p.getParent().getName().endsWith(".tmp");
  }

  private static List<FileStatus> journalFiles() throws Exception {
    try (FileSystem superuser = fs(UserGroupInformation.getLoginUser(), hdfsUri)) {
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (true) {
        List<FileStatus> out = new ArrayList<>();
        var it = superuser.listFiles(data(".journal"), true);
        while (it.hasNext()) {
          out.add(it.next());
        }
        if (out.stream().anyMatch(KerberizedDataTierAttackTest::settledSst) || System.nanoTime() > deadline) {
          return out;
        }
        Thread.sleep(200);
      }
    }
  }

  @Test
  void bobReadsNothingOfTheJournal() throws Exception {
    List<FileStatus> journal = journalFiles();
    assertThat(journal).isNotEmpty();
    try (FileSystem bob = fs(login("bob"), hdfsUri)) {
      for (FileStatus f : journal) {
        assertThrows(AccessControlException.class, () -> bob.open(f.getPath()).read(), "bob reads " + f.getPath());
      }
      assertThrows(AccessControlException.class, () -> bob.listStatus(data(".journal")));
      assertThrows(AccessControlException.class, () -> bob.listStatus(data("")));
      assertThrows(AccessControlException.class, () -> bob.setPermission(data(".publish"),
          new FsPermission((short) 0777)));
    }
  }

  @Test
  void bobRearrangesNothingInTheDataRoot() throws Exception {
    org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(hdfsUri + PLAIN_ROOT);
    try (FileSystem bob = fs(login("bob"), hdfsUri)) {
      assertThrows(AccessControlException.class, () -> bob.rename(new org.apache.hadoop.fs.Path(root, "0"),
          new org.apache.hadoop.fs.Path(root, "0-moved")));
      assertThrows(AccessControlException.class, () -> bob.mkdirs(new org.apache.hadoop.fs.Path(root, "0-bob")));
      assertThrows(AccessControlException.class, () -> bob.delete(new org.apache.hadoop.fs.Path(root, "0"), true));
      assertThrows(AccessControlException.class, () -> bob.listStatus(new org.apache.hadoop.fs.Path(root, "0")));
    }
    try (FileSystem superuser = fs(UserGroupInformation.getLoginUser(), hdfsUri)) {
      assertThat(superuser.getFileStatus(new org.apache.hadoop.fs.Path(root, "0")).getOwner()).isEqualTo("hdfs");
    }
  }

  @Test
  void bobsPublishNamingAJournalFileIsRefusedAndTheFileStays() throws Exception {
    // The newest finished checkpoint's file: the journal renames a checkpoint out of its .tmp directory
    // when done and deletes only checkpoints older than the ones it keeps, so this one outlives the test.
    FileStatus target = journalFiles().stream().filter(KerberizedDataTierAttackTest::settledSst)
        .max(java.util.Comparator.comparing((FileStatus f) -> f.getPath().getParent().getName())).orElseThrow();
    String rel = target.getPath().toUri().getPath().substring(ROOT.length() + 1);
    IndexFsException refused = as(login("bob"), () -> {
      try (IndexFileSystem bob = (IndexFileSystem) FileSystem.newInstance(indexfs(), new Configuration(conf))) {
        org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path("/bob/pub");
        bob.localize(root, false);
        return assertThrows(IndexFsException.class, () -> bob.client().publish(root.toString(), rel, false));
      }
    });
    assertThat(refused.code()).isEqualTo(Code.ACCESS_DENIED);
    try (FileSystem superuser = fs(UserGroupInformation.getLoginUser(), hdfsUri)) {
      assertThat(superuser.getFileStatus(target.getPath()).getLen()).isEqualTo(target.getLen());
    }
  }

  @Test
  void aliceWithNoPrivilegePublishesWithTheJournalOn() throws Exception {
    byte[] large = new byte[150_000];
    new java.util.Random(31).nextBytes(large);
    as(login("alice"), () -> {
      try (IndexFileSystem alice = (IndexFileSystem) FileSystem.newInstance(indexfs(), new Configuration(conf))) {
        org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path("/alice/pub");
        alice.localize(root, false);
        try (FSDataOutputStream out = alice.create(new org.apache.hadoop.fs.Path(root, "small"))) {
          out.write(1);
        }
        try (FSDataOutputStream out = alice.create(new org.apache.hadoop.fs.Path(root, "large"))) {
          out.write(large);
        }
        assertThat(alice.publish(root)).isEmpty();
        try (FSDataInputStream in = alice.open(new org.apache.hadoop.fs.Path(root, "large"))) {
          assertThat(in.readAllBytes()).isEqualTo(large);
        }
      }
      return null;
    });
    try (FileSystem superuser = fs(UserGroupInformation.getLoginUser(), hdfsUri)) {
      assertThat(superuser.getFileStatus(data(".publish")).getOwner()).isEqualTo("hdfs");
      assertThat(superuser.getFileStatus(data("")).getPermission()).isEqualTo(new FsPermission((short) 0711));
    }
  }
}
