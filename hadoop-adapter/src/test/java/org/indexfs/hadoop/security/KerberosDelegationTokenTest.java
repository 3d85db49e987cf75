package org.indexfs.hadoop.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.hadoop.IndexFileSystem;
import org.indexfs.hadoop.token.IndexFsTokenIdentifier;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Delegation tokens (issue 15) on Hadoop's MiniKdc and a two-slot Kerberos cluster: alice, with a
 * ticket, collects a token through {@code FileSystem.addDelegationTokens} (what MapReduce's
 * TokenCache calls); a process with no ticket, only those credentials, reads and writes on both
 * slots as alice, and again after the server that issued it restarts (keys and tokens are in
 * ZooKeeper); renewal by the renewer through Hadoop's TokenRenewer service, by no one else;
 * cancellation and expiry end it everywhere.
 */
class KerberosDelegationTokenTest {
  private static TestKdc kdc;
  private static String realm;
  private static LocalCluster cluster;
  private static Configuration conf;

  @BeforeAll
  static void start() throws Exception {
    kdc = TestKdc.start("kdc-tokens", "indexfs/localhost", "alice", "bob");
    realm = kdc.realm;
    conf = kdc.clientConf("indexfs");
    cluster = kdc.cluster("tokens", 2, "indexfs")
        .set(IndexFsConfig.SECURITY_ZOOKEEPER_DIGEST.name(), "indexfs:token-test")
        // Short enough for the expiry test to wait out, long enough for a busy machine's restart.
        .set("delegation-token.renew-interval.sec", "10")
        .set("delegation-token.max-lifetime.sec", "3600")
        .start();
    cluster.clientConf().forEach(conf::set);
    try (FileSystem admin = fs(login("indexfs/localhost"))) {
      admin.mkdirs(new org.apache.hadoop.fs.Path("/jobs"));
      admin.setPermission(new org.apache.hadoop.fs.Path("/jobs"), new FsPermission((short) 0777));
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
    if (kdc != null) {
      kdc.close();
    }
  }

  private static UserGroupInformation login(String principal) throws IOException {
    return kdc.login(principal);
  }

  private static FileSystem fs(UserGroupInformation ugi) throws Exception {
    return ugi.doAs((PrivilegedExceptionAction<FileSystem>) () ->
        FileSystem.newInstance(new java.net.URI(cluster.defaultFs()), conf));
  }

  /** alice's credentials for the cluster, renewable by {@code renewer}, as a job submitter collects them. */
  private static Credentials aliceToken(String renewer) throws Exception {
    Credentials credentials = new Credentials();
    try (FileSystem fs = fs(login("alice"))) {
      Token<?>[] added = fs.addDelegationTokens(renewer, credentials);
      assertEquals(1, added.length);
      assertEquals("indexfs:tokens", fs.getCanonicalServiceName());
    }
    return credentials;
  }

  /** A process with no ticket, only {@code credentials} (a MapReduce task). */
  private static UserGroupInformation ticketless(Credentials credentials) {
    UserGroupInformation task = UserGroupInformation.createRemoteUser("alice");
    task.addCredentials(credentials);
    return task;
  }

  private static void readAndWriteEverywhere(UserGroupInformation task, String tag) throws Exception {
    try (FileSystem fs = fs(task)) {
      Set<Integer> slots = new HashSet<>();
      // Placement is random: go on until directories homed on both slots were used (a few, usually).
      for (int i = 0; i < 40 && (i < 4 || slots.size() < 2); i++) {
        org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/jobs/" + tag + "-" + i);
        fs.mkdirs(dir);
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir, "part-0");
        try (FSDataOutputStream out = fs.create(file)) {
          out.write(("written by " + tag).getBytes(StandardCharsets.UTF_8));
        }
        try (FSDataInputStream in = fs.open(file)) {
          assertArrayEquals(("written by " + tag).getBytes(StandardCharsets.UTF_8), in.readAllBytes());
        }
        FileStatus st = fs.getFileStatus(file);
        assertEquals("alice", st.getOwner());
        slots.add(((IndexFileSystem) fs).client().getFileStatus(dir.toString()).getZerothSlot());
      }
      assertEquals(2, slots.size(), "directories homed on both slots");
    }
  }

  @Test
  void aTokenLetsATicketlessProcessWorkOnEverySlotAndAfterARestart() throws Exception {
    Credentials credentials = aliceToken("alice");
    Token<?> token = credentials.getAllTokens().iterator().next();
    assertEquals(IndexFsTokenIdentifier.KIND, token.getKind());
    assertEquals("alice", ((IndexFsTokenIdentifier) token.decodeIdentifier()).getUser().getShortUserName());
    UserGroupInformation task = ticketless(credentials);
    readAndWriteEverywhere(task, "before");
    renewAsAlice(token); // as a job's renewer does: each phase below has a whole renew interval
    cluster.restartServer(0);
    renewAsAlice(token); // the restarted server renews a token issued before it, from ZooKeeper
    readAndWriteEverywhere(task, "after");
    // A ticketless process without the token is refused.
    IOException e = assertThrows(IOException.class,
        () -> fs(UserGroupInformation.createRemoteUser("alice")).exists(new org.apache.hadoop.fs.Path("/")));
    assertTrue(e.getMessage().contains("Client cannot authenticate"), e.toString());
  }

  private static void renewAsAlice(Token<?> token) throws Exception {
    long expiry = login("alice").doAs((PrivilegedExceptionAction<Long>) () -> token.renew(conf));
    assertTrue(expiry > System.currentTimeMillis(), "renewed until " + expiry);
  }

  @Test
  void theRenewerRenewsAndCancelsNoOneElse() throws Exception {
    Credentials credentials = aliceToken("bob");
    Token<?> token = credentials.getAllTokens().iterator().next();
    long expiry = login("bob").doAs((PrivilegedExceptionAction<Long>) () -> token.renew(conf));
    assertTrue(expiry > System.currentTimeMillis(), "renewed until " + expiry);
    IOException notRenewer = assertThrows(IOException.class,
        () -> login("alice").doAs((PrivilegedExceptionAction<Long>) () -> token.renew(conf)));
    assertTrue(notRenewer.getMessage().contains("alice"), notRenewer.getMessage());
    readAndWriteEverywhere(ticketless(credentials), "renewed");
    login("bob").doAs((PrivilegedExceptionAction<Void>) () -> {
      token.cancel(conf);
      return null;
    });
    IOException cancelled = assertThrows(IOException.class,
        () -> fs(ticketless(credentials)).exists(new org.apache.hadoop.fs.Path("/")));
    assertNotNull(cancelled.getMessage());
  }

  @Test
  void aTokenNotRenewedExpires() throws Exception {
    Credentials credentials = aliceToken("alice");
    readAndWriteEverywhere(ticketless(credentials), "fresh");
    Thread.sleep(11_000); // the renew interval is 10 s
    assertThrows(IOException.class, () -> fs(ticketless(credentials)).exists(new org.apache.hadoop.fs.Path("/")));
  }

  @Test
  void aTokenCannotBegetTokens() throws Exception {
    Credentials credentials = aliceToken("alice");
    try (FileSystem fs = fs(ticketless(credentials))) {
      IOException e = assertThrows(IOException.class, () -> fs.getDelegationToken("alice"));
      assertTrue(e.getMessage().contains("Delegation Token can be issued only with kerberos"), e.getMessage());
    }
  }
}
