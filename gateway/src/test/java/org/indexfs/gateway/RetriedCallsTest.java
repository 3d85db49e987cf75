package org.indexfs.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.EnumSet;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocolPB.ClientNamenodeProtocolPB;
import org.apache.hadoop.hdfs.protocolPB.ClientNamenodeProtocolTranslatorPB;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.Client;
import org.apache.hadoop.ipc.RPC;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A call whose answer was lost with its gateway is retried by the HDFS client through the other
 * gateway under the same name (client id, call id): it must get the answer the first try got, as
 * a NameNode pair's retry cache gives it, not run again. Here the loss is made on purpose: the
 * same call (one RPC client, so one client id; the call id fixed) goes to gateway A, then to B.
 */
class RetriedCallsTest {
  private static Gateway a;
  private static Gateway b;
  private static ClientProtocol viaA;
  private static ClientProtocol viaB;
  private static final FsPermission DIR = new FsPermission((short) 0755);

  @BeforeAll
  static void start() throws IOException {
    a = GatewayTestCluster.startGateway(GatewayTestCluster.indexfs(), Map.of());
    b = GatewayTestCluster.startGateway(GatewayTestCluster.indexfs(), Map.of());
    Configuration conf = new Configuration();
    viaA = rawProxy(conf, a);
    viaB = rawProxy(conf, b);
    viaA.mkdirs("/retried", DIR, true);
  }

  /** ClientProtocol without the client's retry handler (which names calls itself): one RPC client, one client id. */
  private static ClientProtocol rawProxy(Configuration conf, Gateway g) throws IOException {
    RPC.setProtocolEngine(conf, ClientNamenodeProtocolPB.class, ProtobufRpcEngine2.class);
    ClientNamenodeProtocolPB pb = RPC.getProxy(ClientNamenodeProtocolPB.class,
        RPC.getProtocolVersion(ClientNamenodeProtocolPB.class), g.address(), conf);
    return new ClientNamenodeProtocolTranslatorPB(pb);
  }

  @AfterAll
  static void stop() {
    RPC.stopProxy(viaA);
    RPC.stopProxy(viaB);
    a.close();
    b.close();
  }

  interface Call<T> {
    T run(ClientProtocol nn) throws IOException;
  }

  /** {@code call} through A, then its retry (same call id, retry count 1) through B; both answers. */
  private static <T> Object[] firstThenRetry(int callId, Call<T> call) throws IOException {
    Client.setCallIdAndRetryCount(callId, 0, null);
    T first = call.run(viaA);
    Client.setCallIdAndRetryCount(callId, 1, null);
    T retried = call.run(viaB);
    return new Object[] {first, retried};
  }

  @Test
  void aRetriedRenameIsAnsweredAsTheFirstTry() throws IOException {
    viaA.mkdirs("/retried/from", DIR, true);
    Object[] answers = firstThenRetry(1_000_001, nn -> nn.rename("/retried/from", "/retried/to"));
    assertThat(answers).containsExactly(true, true);
  }

  @Test
  void aRetriedDeleteIsAnsweredAsTheFirstTry() throws IOException {
    viaA.mkdirs("/retried/doomed", DIR, true);
    Object[] answers = firstThenRetry(1_000_002, nn -> nn.delete("/retried/doomed", false));
    assertThat(answers).containsExactly(true, true);
  }

  @Test
  void aRetriedCreateGetsTheSameFileNotAnotherWritersRefusal() throws IOException {
    Object[] answers = firstThenRetry(1_000_003, nn -> nn.create("/retried/file", FsPermission.getFileDefault(),
        "DFSClient_retried", new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE)), true,
        (short) 1, 1 << 20, CryptoProtocolVersion.supported(), null, null));
    assertThat(((HdfsFileStatus) answers[1]).getFileId()).isEqualTo(((HdfsFileStatus) answers[0]).getFileId());
    assertThat(viaB.complete("/retried/file", "DFSClient_retried", null, ((HdfsFileStatus) answers[0]).getFileId()))
        .isTrue();
  }
}
