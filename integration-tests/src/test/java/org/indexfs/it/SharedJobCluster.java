package org.indexfs.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.indexfs.it.JobCluster.Target;

/** The test JVM's one {@link JobCluster}, started on first use and closed at JVM exit. */
final class SharedJobCluster {
  private static JobCluster cluster;

  private SharedJobCluster() {}

  static synchronized JobCluster get() {
    if (cluster == null) {
      try {
        cluster = JobCluster.start(newWorkDir("cluster"));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Runtime.getRuntime().addShutdownHook(new Thread(() -> cluster.close(), "job-cluster-shutdown"));
    }
    return cluster;
  }

  /** A client of {@code target}'s namespace (not cached: each caller closes its own). */
  static FileSystem fileSystem(Target target) throws IOException {
    Configuration conf = new Configuration();
    get().clientConf(target).forEach(conf::set);
    return FileSystem.newInstance(URI.create(conf.get("fs.defaultFS")), conf);
  }

  /** A fresh local directory under the module's test-data directory. */
  static Path newWorkDir(String prefix) throws IOException {
    Path base = Path.of(System.getProperty("test.build.data", "target/test-data"));
    Files.createDirectories(base);
    return Files.createTempDirectory(base, prefix + "-");
  }
}
