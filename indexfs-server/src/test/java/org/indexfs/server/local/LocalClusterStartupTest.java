package org.indexfs.server.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.indexfs.server.audit.AuditLine;
import org.junit.jupiter.api.Test;

/**
 * The mistakes and restarts of {@code bin/indexfs local} (issue 16, item 9): a slot count the work
 * directory was not formatted with is refused in one sentence; a work directory restarts as it was
 * formatted; with {@code --hdfs} the NameNode audits under a logger of its own (IndexFS's records
 * keep HDFS's) and keeps its port across restarts.
 */
class LocalClusterStartupTest {
  static Path newDir(String prefix) throws IOException {
    Path base = Path.of(System.getProperty("test.build.data", "target/test-data"));
    Files.createDirectories(base);
    return Files.createTempDirectory(base, prefix + "-");
  }

  @Test
  void aWorkDirectoryKeepsTheSlotCountItWasFormattedWith() throws IOException {
    Path work = newDir("formatted");
    try (LocalCluster first = LocalCluster.builder(work).start()) {
      assertEquals(1, first.serverCount());
    }
    IOException refused = assertThrows(IOException.class, () -> LocalCluster.builder(work).servers(4).start());
    assertEquals("The work directory " + work.toAbsolutePath() + " holds a cluster formatted with 1 slot, not 4:"
        + " start it with --servers 1, or use another --work-dir for 4 slots", refused.getMessage());
    Path four = newDir("four");
    try (LocalCluster formatted = LocalCluster.builder(four).servers(4).start()) {
      assertEquals(4, formatted.serverCount());
    }
    try (LocalCluster again = LocalCluster.builder(four).start()) {
      assertEquals(4, again.serverCount(), "started without a count: as formatted");
    }
  }

  /** Captures what one logger writes. */
  static final class Captured extends AppenderSkeleton {
    final List<String> lines = new CopyOnWriteArrayList<>();

    @Override
    protected void append(LoggingEvent event) {
      lines.add(String.valueOf(event.getMessage()));
    }

    @Override
    public void close() {}

    @Override
    public boolean requiresLayout() {
      return false;
    }
  }

  @Test
  void withHdfsTheNameNodeAuditsApartAndKeepsItsPort() throws IOException {
    Path work = newDir("with-hdfs");
    Captured nameNode = new Captured();
    Captured hdfsName = new Captured();
    Logger nn = Logger.getLogger(NameNodeAuditLogger.LOGGER_NAME);
    Logger shared = Logger.getLogger(AuditLine.LOGGER_NAME);
    nn.setLevel(Level.INFO);
    shared.setLevel(Level.INFO);
    nn.addAppender(nameNode);
    shared.addAppender(hdfsName);
    URI first;
    try {
      try (LocalCluster cluster = LocalCluster.builder(work).hdfs(true).start()) {
        first = cluster.hdfs().uri();
        cluster.hdfs().fileSystem().mkdirs(new org.apache.hadoop.fs.Path("/audited-by-the-namenode"));
      }
      assertTrue(nameNode.lines.stream().anyMatch(l -> l.contains("cmd=mkdirs\tsrc=/audited-by-the-namenode")),
          "the NameNode's records are under " + NameNodeAuditLogger.LOGGER_NAME + ": " + nameNode.lines);
      assertFalse(hdfsName.lines.stream().anyMatch(l -> l.contains("/audited-by-the-namenode")),
          "none of them under HDFS's logger name, which is IndexFS's here: " + hdfsName.lines);
      try (LocalCluster restarted = LocalCluster.builder(work).hdfs(true).start()) {
        assertEquals(first, restarted.hdfs().uri(), "the embedded HDFS comes back on its port");
        assertTrue(restarted.hdfs().fileSystem().exists(new org.apache.hadoop.fs.Path("/audited-by-the-namenode")));
      }
    } finally {
      nn.removeAppender(nameNode);
      shared.removeAppender(hdfsName);
    }
  }
}
