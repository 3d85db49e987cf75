package org.indexfs.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fatal configuration problems are found before anything runs on any target, each with its fix. */
class PreflightTest {
  private static Path trace(Path dir) throws Exception {
    return Files.write(dir.resolve("audit.log"), List.of(
        "allowed=true\tugi=hue (auth:SIMPLE)\tip=/1.1.1.1\tcmd=mkdirs\tsrc=/app/logs\tdst=null\tperm=hue:hue:rwxr-xr-x\tproto=rpc",
        "allowed=true\tugi=alice (auth:SIMPLE)\tip=/1.1.1.1\tcmd=open\tsrc=/data/f\tdst=null\tperm=null\tproto=rpc"));
  }

  @Test
  void refusedImpersonationStopsTheReplayBeforeAnyTargetIsTouchedAndSaysHowToAllowIt(@TempDir Path dir)
      throws Exception {
    String login = UserGroupInformation.getLoginUser().getShortUserName();
    MiniHdfs strict = new MiniHdfs("strict", Map.of("hadoop.proxyuser." + login + ".hosts", "10.255.255.1"));
    try (LocalCluster indexfs = LocalCluster.builder(dir.resolve("indexfs")).start()) {
      Path conf = indexfs.writeClientConf(dir.resolve("conf"));
      Preflight.PreflightException e = assertThrows(Preflight.PreflightException.class, () -> ReplayMain.run(
          ReplayOptions.parse(new String[] {trace(dir).toString(), "--target", indexfs.defaultFs(),
              "--compare", strict.uri() + "/", "--conf", conf.toString(), "--out", dir.resolve("out").toString(),
              "--no-progress"})));
      assertThat(e.getMessage()).contains("hdfs (" + strict.uri() + "/): " + login + " cannot act as alice, hue",
          "Fix: set hadoop.proxyuser." + login + ".hosts=* and hadoop.proxyuser." + login + ".groups=*",
          "--impersonation remote");
      Configuration c = new Configuration();
      indexfs.clientConf().forEach(c::set);
      try (FileSystem fs = FileSystem.newInstance(c)) {
        assertThat(fs.listStatus(new org.apache.hadoop.fs.Path("/"))).as("nothing pre-created on IndexFS").isEmpty();
      }
    } finally {
      strict.close();
    }
  }

  @Test
  void aTargetThatDoesNotAnswerIsNamedWithTheFix(@TempDir Path dir) throws Exception {
    Preflight.PreflightException e = assertThrows(Preflight.PreflightException.class, () -> ReplayMain.run(
        ReplayOptions.parse(new String[] {trace(dir).toString(), "--target", "hdfs://127.0.0.1:1/",
            "-D", "ipc.client.connect.max.retries=0", "--out", dir.resolve("out").toString(), "--no-progress"})));
    assertThat(e.getMessage()).contains("hdfs (hdfs://127.0.0.1:1/) does not answer", "Fix: start it");
  }
}
