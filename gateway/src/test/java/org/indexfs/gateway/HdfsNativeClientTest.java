package org.indexfs.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;

/**
 * A client with no Java in it: PyPI's hdfs-native (0.14.x, Rust implementations of the NameNode
 * and DataNode protocols) does mkdirs, put, get, list, rename and delete through the gateway
 * (src/test/python/hdfs_native_through_gateway.py). CI installs it ({@code pip install
 * 'hdfs-native>=0.14,<0.15'}); without python3 or the package this test fails and says so.
 */
class HdfsNativeClientTest {
  private static final String SCRIPT = "src/test/python/hdfs_native_through_gateway.py";

  @Test
  void theRustClientWorksThroughTheGateway() throws Exception {
    String python = System.getProperty("indexfs.test.python", "python3");
    requireHdfsNative(python);
    Gateway gateway = GatewayTestCluster.gateway();
    String base = "/hdfs-native";
    try (FileSystem indexfs = GatewayTestCluster.indexfsFileSystem(GatewayTestCluster.indexfs())) {
      indexfs.delete(new org.apache.hadoop.fs.Path(base), true);
      try (FSDataOutputStream out = indexfs.create(new org.apache.hadoop.fs.Path(base + "/inline.txt"))) {
        out.write("inline in IndexFS\n".getBytes(StandardCharsets.UTF_8));
      }
    }
    Result r = run(python, Path.of(SCRIPT).toAbsolutePath().toString(), gateway.uri().toString(), base);
    assertThat(r.exit()).as("hdfs-native script exit code; its output:%n%s", r.output()).isZero();
    assertThat(r.output()).contains("HDFS_NATIVE_OK");
  }

  /** Fails (never skips) with what to install when python3 or hdfs-native is missing. */
  static void requireHdfsNative(String python) throws Exception {
    Result version;
    try {
      version = run(python, "-c", "import hdfs_native, importlib.metadata as m; print(m.version('hdfs-native'))");
    } catch (IOException noPython) {
      fail("This test runs PyPI's hdfs-native and needs " + python + " (-Dindexfs.test.python=...): "
          + noPython.getMessage());
      return;
    }
    if (version.exit() != 0) {
      fail("This test needs PyPI's hdfs-native 0.14.x for " + python
          + ": pip install 'hdfs-native>=0.14,<0.15'\n" + version.output());
    }
    assertThat(version.output().trim()).as("hdfs-native version").startsWith("0.14.");
  }

  record Result(int exit, String output) {}

  static Result run(String... command) throws Exception {
    Path log = Files.createTempFile("hdfs-native", ".log");
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      if (!p.waitFor(5, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        fail(String.join(" ", command) + " did not finish in 5 minutes:\n" + Files.readString(log));
      }
      return new Result(p.exitValue(), Files.readString(log));
    } finally {
      Files.deleteIfExists(log);
    }
  }
}
