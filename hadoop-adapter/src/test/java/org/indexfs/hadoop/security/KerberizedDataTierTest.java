package org.indexfs.hadoop.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Kerberos end to end (issue 15): a Kerberized MiniDFSCluster (SASL data transfer, HTTPS, block
 * tokens) is the data tier of a Kerberos IndexFS cluster whose servers are the HDFS superuser's
 * principal. alice's large file lands in an object that is hers on HDFS; bob, with his own ticket,
 * is refused on it through plain HDFS; a process with no ticket and only the tokens alice's job
 * collected (IndexFS's and, through {@code getAdditionalTokenIssuers}, HDFS's) reads and writes large
 * files through IndexFS.
 */
class KerberizedDataTierTest {
  private static final int LARGE = 300_000;
  private static TestKdc kdc;
  private static String realm;
  private static MiniDFSCluster hdfs;
  private static LocalCluster cluster;
  private static Configuration conf;

  @BeforeAll
  static void start() throws Exception {
    kdc = TestKdc.start("kdc-hdfs", TestKdc.HDFS_PRINCIPAL, "HTTP/localhost", "alice", "bob");
    realm = kdc.realm;
    conf = new Configuration();
    hdfs = kdc.kerberizedHdfs(conf, KerberizedDataTierTest.class);

    cluster = kerberized("kerbhdfs", 2, "/indexfs-data").start();
    cluster.clientConf().forEach(conf::set);
    conf.set(IndexFsConfig.SERVER_KERBEROS_PRINCIPAL.name(), "hdfs/_HOST@" + realm);
    try (FileSystem admin = fs(UserGroupInformation.getLoginUser(), URI.create(cluster.defaultFs()))) {
      admin.mkdirs(new org.apache.hadoop.fs.Path("/k"));
      admin.setPermission(new org.apache.hadoop.fs.Path("/k"), new FsPermission((short) 0777));
    }
  }

  /** A Kerberos IndexFS cluster whose data tier is the Kerberized HDFS, under {@code dataDir}. */
  private static LocalCluster.Builder kerberized(String name, int servers, String dataDir) throws IOException {
    return kdc.clusterOver(hdfs, name, servers, dataDir);
  }

  @AfterAll
  static void stop() throws Exception {
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

  private static UserGroupInformation login(String user) throws IOException {
    return kdc.login(user);
  }

  private static FileSystem fs(UserGroupInformation ugi, URI uri) throws Exception {
    Configuration c = new Configuration(conf);
    return ugi.doAs((PrivilegedExceptionAction<FileSystem>) () -> FileSystem.newInstance(uri, c));
  }

  private static <T> T as(UserGroupInformation ugi, PrivilegedExceptionAction<T> action) throws Exception {
    return ugi.doAs(action);
  }

  @Test
  void objectsAreTheirOwnersOnKerberizedHdfsAndTokensReachThem() throws Exception {
    URI indexfs = URI.create(cluster.defaultFs());
    URI hdfsUri = URI.create("hdfs://localhost:" + hdfs.getNameNodePort());
    org.apache.hadoop.fs.Path secret = new org.apache.hadoop.fs.Path("/k/alice-secret");
    UserGroupInformation alice = login("alice");
    Credentials jobCredentials = new Credentials();
    String object = as(alice, () -> {
      try (FileSystem fs = FileSystem.newInstance(indexfs, new Configuration(conf))) {
        try (FSDataOutputStream out = fs.create(secret, new FsPermission((short) 0600), false, 4096, (short) 1,
            1 << 20, null)) {
          out.write(org.indexfs.hadoop.security.KerberizedDataTierTest.bytes());
        }
        fs.setPermission(secret, new FsPermission((short) 0600));
        Token<?>[] tokens = fs.addDelegationTokens("alice", jobCredentials);
        assertEquals(2, tokens.length, "IndexFS's token and the data tier's");
        return ((org.indexfs.hadoop.IndexFileSystem) fs).client().getFileStatus(secret.toString()).getDataObject();
      }
    });
    org.apache.hadoop.fs.Path objectPath = new org.apache.hadoop.fs.Path(hdfsUri + "/indexfs-data/" + object);
    try (FileSystem superuser = fs(UserGroupInformation.getLoginUser(), hdfsUri)) {
      FileStatus st = superuser.getFileStatus(objectPath);
      assertEquals("alice", st.getOwner());
      assertEquals(new FsPermission((short) 0600), st.getPermission());
    }
    try (FileSystem bob = fs(login("bob"), hdfsUri)) {
      assertThrows(AccessControlException.class, () -> bob.open(objectPath).read(), "bob reads alice's object");
      assertThrows(AccessControlException.class, () -> bob.delete(objectPath, false), "bob deletes it");
      assertThrows(AccessControlException.class, () -> bob.listStatus(objectPath.getParent()), "bob lists the slot");
    }
    UserGroupInformation task = UserGroupInformation.createRemoteUser("alice");
    task.addCredentials(jobCredentials);
    as(task, () -> {
      try (FileSystem fs = FileSystem.newInstance(indexfs, new Configuration(conf))) {
        try (FSDataInputStream in = fs.open(secret)) {
          assertArrayEquals(bytes(), in.readAllBytes());
        }
        Set<Integer> slots = new HashSet<>();
        for (int i = 0; i < 40 && (i < 3 || slots.size() < 2); i++) {
          org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/k/task-" + i);
          fs.mkdirs(dir);
          try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path(dir, "part"))) {
            out.write(bytes());
          }
          slots.add(((org.indexfs.hadoop.IndexFileSystem) fs).client().getFileStatus(dir.toString()).getZerothSlot());
        }
        assertEquals(2, slots.size());
      }
      return null;
    });
  }

  /**
   * The journal (issue 14) lives on the Kerberized data tier too: the active writes it, and a
   * standby follows it and takes the slot over, both as the server's principal with the server's
   * Hadoop settings (the data tier's SASL and TLS keys), whoever the process runs as.
   */
  @Test
  void theJournalAndAStandbyWorkOnKerberizedHdfs() throws Exception {
    URI hdfsUri = URI.create("hdfs://localhost:" + hdfs.getNameNodePort());
    try (LocalCluster journaled = kerberized("kerbjournal", 1, "/indexfs-journaled")
        .set(IndexFsConfig.JOURNAL_ENABLED.name(), "true").start()) {
      org.indexfs.server.SlotRunner standby = journaled.startStandby(0);
      Configuration c = new Configuration(conf);
      journaled.clientConf().forEach(c::set);
      URI uri = URI.create(journaled.defaultFs());
      UserGroupInformation alice = login("alice");
      try (FileSystem admin = as(UserGroupInformation.getLoginUser(), () -> FileSystem.newInstance(uri, new Configuration(c)))) {
        admin.mkdirs(new org.apache.hadoop.fs.Path("/j"));
        admin.setOwner(new org.apache.hadoop.fs.Path("/j"), "alice", "alice");
      }
      as(alice, () -> {
        try (FileSystem fs = FileSystem.newInstance(uri, new Configuration(c))) {
          for (int i = 0; i < 30; i++) {
            fs.create(new org.apache.hadoop.fs.Path("/j/f" + i)).close();
          }
        }
        return null;
      });
      try (FileSystem superuser = fs(UserGroupInformation.getLoginUser(), hdfsUri)) {
        var files = superuser.listFiles(new org.apache.hadoop.fs.Path("/indexfs-journaled/.journal/0"), true);
        long bytes = 0;
        while (files.hasNext()) {
          FileStatus f = files.next();
          assertEquals("hdfs", f.getOwner(), f.getPath() + " is written as the server's principal");
          bytes += f.getLen();
        }
        org.junit.jupiter.api.Assertions.assertTrue(bytes > 0, "the journal holds the changes");
      }
      journaled.stopServer(0);
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (standby.current() == null && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      org.junit.jupiter.api.Assertions.assertNotNull(standby.current(), "the standby serves the slot");
      Set<String> names = as(alice, () -> {
        Set<String> out = new HashSet<>();
        try (FileSystem fs = FileSystem.newInstance(uri, new Configuration(c))) {
          for (FileStatus st : fs.listStatus(new org.apache.hadoop.fs.Path("/j"))) {
            out.add(st.getPath().getName());
          }
        }
        return out;
      });
      assertEquals(30, names.size(), "every file, through the standby: " + names);
    }
  }

  static byte[] bytes() {
    byte[] b = new byte[LARGE];
    new java.util.Random(15).nextBytes(b);
    return b;
  }
}
