package org.indexfs.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.NameNodeProxiesClient;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.GetFsStatusRequestProto;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.GetFsStatsResponseProto;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.ProtocolInfo;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.thirdparty.protobuf.RpcController;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bad input gets from the gateway what a NameNode gives: the same calls, made on the wire below the
 * stock client's own checks, to a real NameNode (the tests' HDFS) and to the gateway, are refused
 * with the same exception class and text (numbers that differ by nature — ports, inode ids, client
 * names — masked): methods the protocol does not have, protocol versions it does not speak, paths
 * HDFS refuses, and block calls naming a file the caller does not hold.
 */
class BadInputParityTest {
  private static URI nameNode;
  private static URI gateway;
  private static final String BASE = "/bad-input";

  @BeforeAll
  static void start() throws IOException {
    nameNode = IndexFsTestCluster.hdfs().uri();
    gateway = GatewayTestCluster.gateway().uri();
    for (URI u : new URI[] {nameNode, gateway}) {
      try (FileSystem fs = FileSystem.newInstance(u, new Configuration())) {
        fs.delete(new Path(BASE), true);
        fs.mkdirs(new Path(BASE));
      }
    }
  }

  @AfterAll
  static void stop() {}

  /** The client protocol's name and version, with a method ClientProtocol does not have. */
  @ProtocolInfo(protocolName = "org.apache.hadoop.hdfs.protocol.ClientProtocol", protocolVersion = 1)
  interface NoSuchMethod {
    GetFsStatsResponseProto noSuchMethod(RpcController controller, GetFsStatusRequestProto request)
        throws ServiceException;
  }

  /** ClientProtocol's own method, at a version no NameNode speaks. */
  @ProtocolInfo(protocolName = "org.apache.hadoop.hdfs.protocol.ClientProtocol", protocolVersion = 999)
  interface FutureVersion {
    GetFsStatsResponseProto getFsStats(RpcController controller, GetFsStatusRequestProto request)
        throws ServiceException;
  }

  /** Another protocol entirely. */
  @ProtocolInfo(protocolName = "org.example.NotAProtocol", protocolVersion = 1)
  interface UnknownProtocol {
    GetFsStatsResponseProto getFsStats(RpcController controller, GetFsStatusRequestProto request)
        throws ServiceException;
  }

  private static <T> String raw(Class<T> protocol, long version, URI target, String method) {
    Configuration conf = new Configuration();
    RPC.setProtocolEngine(conf, protocol, ProtobufRpcEngine2.class);
    InetSocketAddress address = new InetSocketAddress(target.getHost(), target.getPort());
    T proxy = null;
    try {
      proxy = RPC.getProxy(protocol, version, address, conf);
      protocol.getMethod(method, RpcController.class, GetFsStatusRequestProto.class)
          .invoke(proxy, null, GetFsStatusRequestProto.getDefaultInstance());
      return "answered";
    } catch (java.lang.reflect.InvocationTargetException e) {
      return describe(e.getCause());
    } catch (ReflectiveOperationException | IOException e) {
      return describe(e);
    } finally {
      if (proxy != null) {
        RPC.stopProxy(proxy);
      }
    }
  }

  /** A failure as a caller tells it: the remote class (or the local one) and its first line, numbers masked. */
  static String describe(Throwable t) {
    while (t instanceof ServiceException && t.getCause() != null) {
      t = t.getCause();
    }
    String type = t instanceof RemoteException r ? "RemoteException(" + r.getClassName() + ")" : t.getClass().getName();
    String message = String.valueOf(t.getMessage()).split("\n")[0];
    message = message.replace(nameNode.getAuthority(), "<server>").replace(gateway.getAuthority(), "<server>");
    message = message.replaceAll("DFSClient_[A-Za-z0-9_-]+", "<client>").replaceAll("\\d+", "<n>");
    return type + ": " + message;
  }

  /** Differences found by {@link #same}, reported together at the end of a test. */
  private final List<String> differences = new ArrayList<>();

  private void same(String what, java.util.function.Function<URI, String> call) {
    String onNameNode = call.apply(nameNode);
    String onGateway = call.apply(gateway);
    System.out.println(what + ": " + onNameNode);
    if (!onGateway.equals(onNameNode)) {
      differences.add(what + "\n  namenode: " + onNameNode + "\n  gateway:  " + onGateway);
    }
    assertThat(onNameNode).as(what + " is refused (or answered false)").isNotIn("answered true", "answered status",
        "answered");
  }

  @org.junit.jupiter.api.AfterEach
  void noDifferences() {
    assertThat(String.join("\n", differences)).as("calls answered differently from a NameNode").isEmpty();
  }

  @Test
  void unknownMethodsVersionsAndProtocolsAreRefusedAsByANameNode() {
    same("unknown method", u -> raw(NoSuchMethod.class, 1, u, "noSuchMethod"));
    same("future protocol version", u -> raw(FutureVersion.class, 999, u, "getFsStats"));
    same("unknown protocol", u -> raw(UnknownProtocol.class, 1, u, "getFsStats"));
  }

  interface Call {
    Object run(ClientProtocol nn) throws Exception;
  }

  /** A ClientProtocol call on the wire (no DFSClient checks), described as its caller sees it. */
  private static String onWire(URI target, Call call) {
    ClientProtocol nn = null;
    try {
      nn = NameNodeProxiesClient.createProxyWithClientProtocol(new Configuration(), target, null).getProxy();
      Object answer = call.run(nn);
      return "answered " + (answer instanceof HdfsFileStatus s ? "status" : String.valueOf(answer));
    } catch (Exception e) {
      return describe(e);
    } finally {
      if (nn != null) {
        RPC.stopProxy(nn);
      }
    }
  }

  @Test
  void pathsHdfsRefusesAreRefusedAlike() {
    FsPermission dir = new FsPermission((short) 0755);
    List<String> bad = List.of(BASE + "/a/../b", BASE + "/./c", "relative/d", BASE + "/e:f", BASE + "//g",
        "/.reserved/h", BASE + "/.snapshot");
    for (String p : bad) {
      same("mkdirs " + p, u -> onWire(u, nn -> nn.mkdirs(p, dir, true)));
      same("create " + p, u -> onWire(u, nn -> nn.create(p, FsPermission.getFileDefault(), "DFSClient_bad",
          new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)), true, (short) 1, 1 << 20,
          CryptoProtocolVersion.supported(), null, null)));
      same("rename to " + p, u -> onWire(u, nn -> {
        nn.mkdirs(BASE + "/src", dir, true);
        return nn.rename(BASE + "/src", p);
      }));
    }
  }

  @Test
  void blockCallsForAFileTheCallerDoesNotHoldAreRefused() throws Exception {
    List<FileSystem> writers = new ArrayList<>();
    try {
      for (URI u : new URI[] {nameNode, gateway}) {
        FileSystem fs = FileSystem.newInstance(u, new Configuration());
        writers.add(fs);
        FSDataOutputStream out = fs.create(new Path(BASE + "/held"));
        out.write(new byte[100]);
        out.hflush(); // open, with a block being written, by that client
      }
      same("addBlock by another client", u -> onWire(u, nn -> {
        long id = nn.getFileInfo(BASE + "/held").getFileId();
        return nn.addBlock(BASE + "/held", "DFSClient_intruder", null, null, id, null, null);
      }));
      same("complete by another client", u -> onWire(u, nn -> {
        long id = nn.getFileInfo(BASE + "/held").getFileId();
        return nn.complete(BASE + "/held", "DFSClient_intruder", null, id);
      }));
      same("addBlock naming a missing file", u -> onWire(u, nn ->
          nn.addBlock(BASE + "/missing", "DFSClient_intruder", null, null, 0, null, null)));
      same("complete of a closed file by a client that never wrote it", u -> onWire(u, nn -> {
        try (FileSystem fs = FileSystem.newInstance(u, new Configuration())) {
          fs.create(new Path(BASE + "/closed")).close();
        }
        long id = nn.getFileInfo(BASE + "/closed").getFileId();
        return nn.addBlock(BASE + "/closed", "DFSClient_intruder", null, null, id, null, null);
      }));
    } finally {
      for (FileSystem fs : writers) {
        fs.close();
      }
    }
  }
}
