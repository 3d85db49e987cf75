package org.indexfs.hadoop.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.security.PrivilegedExceptionAction;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.rpc.RpcConnection;
import org.indexfs.common.rpc.SaslAuthenticator;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.GetFileStatusRequest;
import org.indexfs.proto.PartitionRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.SaslMessage;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Kerberos on Hadoop's MiniKdc (issue 15): a cluster of two slots with
 * {@code hadoop.security.authentication=kerberos}. Without a ticket nothing is served; with one the
 * caller is its principal and cannot claim to be anyone else; servers call each other as their own
 * principal, and calls only servers make are refused to users; a garbage SASL exchange closes only
 * its connection. The JVM's UGI is put back to simple authentication afterwards.
 */
class KerberosAuthenticationTest {
  private static TestKdc kdc;
  private static String realm;
  private static LocalCluster cluster;
  private static Configuration conf;
  private static EventLoopGroup group;

  @BeforeAll
  static void start() throws Exception {
    kdc = TestKdc.start("kdc", "indexfs/localhost", "alice", "bob");
    realm = kdc.realm;
    conf = kdc.clientConf("indexfs");
    cluster = kdc.cluster("kerberized", 2, "indexfs")
        .set(IndexFsTestCluster.GROUP_MAPPING_KEY, IndexFsTestCluster.TEST_GROUPS)
        .start();
    cluster.clientConf().forEach(conf::set);
    group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  }

  @AfterAll
  static void stop() throws Exception {
    if (group != null) {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
    if (cluster != null) {
      cluster.close();
    }
    if (kdc != null) {
      kdc.close();
    }
  }

  private static UserGroupInformation login(String user) throws IOException {
    return kdc.login(user);
  }

  private static FileSystem fs(UserGroupInformation ugi) throws Exception {
    return ugi.doAs((PrivilegedExceptionAction<FileSystem>) () ->
        FileSystem.newInstance(new java.net.URI(cluster.defaultFs()), conf));
  }

  private static SaslAuthenticator kerberos(UserGroupInformation ugi) {
    return new SaslAuthenticator("test:" + ugi.getUserName(), new SaslAuthenticator.Login() {
      @Override
      public <T> T run(PrivilegedExceptionAction<T> action) throws IOException {
        try {
          return ugi.doAs(action);
        } catch (InterruptedException e) {
          throw new IOException(e);
        }
      }
    }, address -> SecurityUtil.getServerPrincipal("indexfs/_HOST@" + realm, address.getAddress()), "auth");
  }

  private static Response call(RpcConnection c, Request.Builder r) throws Exception {
    return c.call(r).get(10, TimeUnit.SECONDS);
  }

  @Test
  void withoutATicketNothingIsServed() throws Exception {
    UserGroupInformation mallory = UserGroupInformation.createRemoteUser("mallory");
    IOException e = assertThrows(IOException.class, () -> fs(mallory).getFileStatus(new org.apache.hadoop.fs.Path("/")));
    assertTrue(String.valueOf(e.getMessage()).contains("Client cannot authenticate via:[KERBEROS]"), e.toString());
    // A client that skips the exchange and just names a user: refused, in a Kerberized NameNode's words.
    try (RpcConnection raw = RpcConnection.open(group, cluster.server(0).address(), 1 << 20, 5_000)) {
      Response r = call(raw, Request.newBuilder().setCaller(Caller.newBuilder().setUser("alice"))
          .setGetFileStatus(GetFileStatusRequest.newBuilder().setPath("/")));
      assertEquals(Code.NOT_AUTHORIZED, r.getCode());
      assertEquals("SIMPLE authentication is not enabled.  Available:[KERBEROS]", r.getMessage());
    }
  }

  @Test
  void aTicketMakesTheCallerItsPrincipal() throws Exception {
    UserGroupInformation alice = login("alice");
    try (FileSystem fs = fs(alice)) {
      org.apache.hadoop.fs.Path home = new org.apache.hadoop.fs.Path("/k-alice");
      UserGroupInformation server = login("indexfs/localhost");
      try (FileSystem admin = fs(server)) {
        admin.mkdirs(home);
        admin.setOwner(home, "alice", "alicegroup");
      }
      fs.mkdirs(new org.apache.hadoop.fs.Path(home, "d"));
      assertEquals("alice", fs.getFileStatus(new org.apache.hadoop.fs.Path(home, "d")).getOwner());
      // bob is refused in alice's 0755 directory by the server, whatever his process believes.
      try (FileSystem bob = fs(login("bob"))) {
        assertThrows(org.apache.hadoop.security.AccessControlException.class,
            () -> bob.mkdirs(new org.apache.hadoop.fs.Path(home, "bobs")));
      }
    }
  }

  @Test
  void aLingeringConnectionServesOnlyTheLoginThatOpenedIt() throws Exception {
    // alice's FileSystem closes; its connection stays open for the next FileSystem of her login...
    UserGroupInformation alice = login("alice");
    try (FileSystem fs = fs(alice)) {
      fs.getFileStatus(new org.apache.hadoop.fs.Path("/"));
    }
    try (FileSystem again = fs(alice)) {
      assertEquals("/", again.getFileStatus(new org.apache.hadoop.fs.Path("/")).getPath().toUri().getPath());
    }
    // ...but a process user merely named as her principal, with no ticket, does not inherit it.
    IOException e = assertThrows(IOException.class,
        () -> fs(UserGroupInformation.createRemoteUser(alice.getUserName())).getFileStatus(new org.apache.hadoop.fs.Path("/")));
    assertTrue(String.valueOf(e.getMessage()).contains("Client cannot authenticate via:[KERBEROS]"), e.toString());
  }

  @Test
  void aConnectionCannotClaimAnotherUser() throws Exception {
    UserGroupInformation alice = login("alice");
    try (RpcConnection c = RpcConnection.open(group, cluster.server(0).address(), 1 << 20, 10_000, kerberos(alice))) {
      Response asBob = call(c, Request.newBuilder().setCaller(Caller.newBuilder().setUser("bob"))
          .setGetFileStatus(GetFileStatusRequest.newBuilder().setPath("/")));
      assertEquals(Code.NOT_AUTHORIZED, asBob.getCode());
      assertEquals("Connection authenticated as alice cannot act as bob", asBob.getMessage());
      Response viaAlice = call(c, Request.newBuilder().setCaller(Caller.newBuilder().setUser("bob")
          .setRealUser("alice@" + realm)).setGetFileStatus(GetFileStatusRequest.newBuilder().setPath("/")));
      assertEquals(Code.NOT_AUTHORIZED, viaAlice.getCode());
      assertEquals("User: alice@" + realm + " is not allowed to impersonate bob", viaAlice.getMessage());
      Response asHerself = call(c, Request.newBuilder().setCaller(Caller.newBuilder().setUser("alice"))
          .setGetFileStatus(GetFileStatusRequest.newBuilder().setPath("/")));
      assertEquals(Code.OK, asHerself.getCode(), asHerself.getMessage());
      // Calls only servers make to each other: a user's connection may not, whoever it names.
      Response partition = call(c, Request.newBuilder().setCaller(Caller.newBuilder().setUser("alice"))
          .setPartition(PartitionRequest.newBuilder().setAction(PartitionRequest.Action.DROP).setDirId(1)));
      assertEquals(Code.NOT_AUTHORIZED, partition.getCode());
      // The server-side forms of client requests: a snapshot's barrier and scans, a split publish's
      // phases, a localization's mirrors.
      for (Request.Builder serverForm : java.util.List.of(
          Request.newBuilder().setSnapshot(org.indexfs.proto.SnapshotRequest.newBuilder()
              .setAction(org.indexfs.proto.SnapshotRequest.Action.HOLD).setToken(7)),
          Request.newBuilder().setSnapshot(org.indexfs.proto.SnapshotRequest.newBuilder()
              .setAction(org.indexfs.proto.SnapshotRequest.Action.SCAN).setToken(7).setDirId(1)),
          Request.newBuilder().setSnapshot(org.indexfs.proto.SnapshotRequest.newBuilder()
              .setAction(org.indexfs.proto.SnapshotRequest.Action.LIST_DIRS).setOn(true)),
          Request.newBuilder().setPublish(org.indexfs.proto.PublishRequest.newBuilder()
              .setPhase(org.indexfs.proto.PublishRequest.Phase.COMMIT).setTxid("t")),
          Request.newBuilder().setLocalize(org.indexfs.proto.LocalizeRequest.newBuilder()
              .setAction(org.indexfs.proto.LocalizeRequest.Action.MIRROR).setDirId(1)))) {
        Response refused = call(c, serverForm.setCaller(Caller.newBuilder().setUser("alice")));
        assertEquals(Code.NOT_AUTHORIZED, refused.getCode(), serverForm.getOpCase() + ": " + refused.getMessage());
      }
      // Their client forms are served.
      Response listing = call(c, Request.newBuilder().setCaller(Caller.newBuilder().setUser("alice"))
          .setSnapshot(org.indexfs.proto.SnapshotRequest.newBuilder()
              .setAction(org.indexfs.proto.SnapshotRequest.Action.LIST_DIRS)));
      assertEquals(Code.OK, listing.getCode(), listing.getMessage());
    }
  }

  @Test
  void serversCallEachOtherAsThemselves() throws Exception {
    try (FileSystem fs = fs(login("indexfs/localhost"))) {
      // Directories are homed on both slots by placement; making and listing many crosses slots.
      for (int i = 0; i < 8; i++) {
        assertTrue(fs.mkdirs(new org.apache.hadoop.fs.Path("/k-spread/d" + i + "/inner")));
      }
      assertEquals(8, fs.listStatus(new org.apache.hadoop.fs.Path("/k-spread")).length);
      assertTrue(fs.delete(new org.apache.hadoop.fs.Path("/k-spread"), true));
    }
  }

  @Test
  void aGarbageSaslExchangeClosesOnlyItsConnection() throws Exception {
    try (RpcConnection raw = RpcConnection.open(group, cluster.server(0).address(), 1 << 20, 5_000)) {
      Response r = call(raw, Request.newBuilder().setSasl(SaslMessage.newBuilder().setMechanism("GSSAPI")
          .setToken(com.google.protobuf.ByteString.copyFromUtf8("not a kerberos token"))));
      assertEquals(Code.NOT_AUTHORIZED, r.getCode());
      assertTrue(r.getMessage().startsWith("Authentication failed"), r.getMessage());
    }
    try (RpcConnection raw = RpcConnection.open(group, cluster.server(0).address(), 1 << 20, 5_000)) {
      Response r = call(raw, Request.newBuilder().setSasl(SaslMessage.newBuilder().setMechanism("PLAIN")));
      assertEquals(Code.NOT_AUTHORIZED, r.getCode());
    }
    try (FileSystem fs = fs(login("alice"))) {
      assertTrue(fs.exists(new org.apache.hadoop.fs.Path("/")));
    }
  }
}
