package org.indexfs.hadoop.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.rpc.RpcConnection;
import org.indexfs.common.rpc.SaslAuthenticator;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.MkdirsRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code hadoop.rpc.protection=privacy} (issue 15): on a Kerberos cluster with privacy, what crosses
 * the wire after the SASL exchange is sealed — a path name sent through a recording proxy never
 * appears in the bytes, while on a cluster with authentication only it does (the control) — and
 * Hadoop clients work as usual over it.
 */
class KerberosPrivacyTest {
  private static TestKdc kdc;
  private static String realm;
  private static LocalCluster plain;
  private static LocalCluster sealed;
  private static EventLoopGroup group;

  @BeforeAll
  static void start() throws Exception {
    kdc = TestKdc.start("kdc-privacy", "indexfs/localhost", "alice");
    realm = kdc.realm;
    kdc.clientConf("indexfs");
    plain = cluster("plain", "authentication");
    sealed = cluster("sealed", "privacy");
    group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  }

  private static LocalCluster cluster(String name, String protection) throws IOException {
    return kdc.cluster(name, 1, "indexfs").set("hadoop.rpc.protection", protection).start();
  }

  @AfterAll
  static void stop() throws Exception {
    if (group != null) {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
    for (LocalCluster c : new LocalCluster[] {plain, sealed}) {
      if (c != null) {
        c.close();
      }
    }
    if (kdc != null) {
      kdc.close();
    }
  }

  /** The servers' own principal: the superuser, so the calls below are allowed and only the wire matters. */
  private static UserGroupInformation superuser() throws IOException {
    return kdc.login("indexfs/localhost");
  }

  /** What a client sends through a proxy that records every byte, for a mkdirs of {@code name}. */
  private static String wireBytesOfMkdirs(LocalCluster cluster, String qop, String name) throws Exception {
    InetSocketAddress server = cluster.server(0).address();
    ByteArrayOutputStream seen = new ByteArrayOutputStream();
    try (ServerSocket proxy = new ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      Thread relay = new Thread(() -> {
        try (Socket in = proxy.accept(); Socket out = new Socket(server.getAddress(), server.getPort())) {
          Thread back = new Thread(() -> copy(out, in, null));
          back.setDaemon(true);
          back.start();
          copy(in, out, seen);
        } catch (IOException e) {
          // the test closes the connection
        }
      });
      relay.setDaemon(true);
      relay.start();
      UserGroupInformation login = superuser();
      SaslAuthenticator kerberos = new SaslAuthenticator("indexfs", new SaslAuthenticator.Login() {
        @Override
        public <T> T run(PrivilegedExceptionAction<T> action) throws IOException {
          try {
            return login.doAs(action);
          } catch (InterruptedException e) {
            throw new IOException(e);
          }
        }
      }, address -> SecurityUtil.getServerPrincipal("indexfs/_HOST@" + realm, "localhost"), qop);
      try (RpcConnection c = RpcConnection.open(group, new InetSocketAddress("127.0.0.1", proxy.getLocalPort()),
          1 << 20, 10_000, kerberos)) {
        Response r = c.call(Request.newBuilder().setCaller(Caller.newBuilder().setUser("indexfs"))
            .setMkdirs(MkdirsRequest.newBuilder().setPath("/" + name).setPermission(0777))).get(10, TimeUnit.SECONDS);
        assertEquals(Code.OK, r.getCode(), r.getMessage());
      }
      relay.join(5_000);
    }
    synchronized (seen) {
      return new String(seen.toByteArray(), StandardCharsets.ISO_8859_1);
    }
  }

  private static void copy(Socket from, Socket to, ByteArrayOutputStream record) {
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      byte[] buf = new byte[8192];
      for (int n; (n = in.read(buf)) > 0; ) {
        if (record != null) {
          synchronized (record) {
            record.write(buf, 0, n);
          }
        }
        out.write(buf, 0, n);
      }
      to.shutdownOutput();
    } catch (IOException e) {
      // one side closed
    }
  }

  @Test
  void withPrivacyNothingAfterTheExchangeIsReadableOnTheWire() throws Exception {
    String wire = wireBytesOfMkdirs(sealed, "auth-conf", "canary-name-sealed");
    assertTrue(wire.length() > 100, "the proxy saw the exchange");
    assertFalse(wire.contains("canary-name-sealed"), "the path crossed the wire in clear");
    assertTrue(sealed.server(0).namespace().lookup(org.indexfs.common.InodeIds.ROOT, "canary-name-sealed") != null);
  }

  @Test
  void withAuthenticationOnlyThePathIsInClear() throws Exception {
    String wire = wireBytesOfMkdirs(plain, "auth", "canary-name-plain");
    assertTrue(wire.contains("canary-name-plain"), "control: the recording sees requests");
  }

  @Test
  void hadoopClientsWorkOverPrivacy() throws Exception {
    Configuration conf = new Configuration();
    sealed.clientConf().forEach(conf::set);
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set("hadoop.rpc.protection", "privacy");
    conf.set(IndexFsConfig.SERVER_KERBEROS_PRINCIPAL.name(), "indexfs/_HOST@" + realm);
    byte[] data = "sealed on the wire".getBytes(StandardCharsets.UTF_8);
    try (FileSystem fs = superuser().doAs((PrivilegedExceptionAction<FileSystem>) () ->
        FileSystem.newInstance(new java.net.URI(sealed.defaultFs()), conf))) {
      org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/private/f");
      try (FSDataOutputStream out = fs.create(p)) {
        out.write(data);
      }
      try (FSDataInputStream in = fs.open(p)) {
        assertArrayEquals(data, in.readAllBytes());
      }
    }
  }
}
