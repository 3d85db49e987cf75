package org.indexfs.bench.replay;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.PatternLayout;
import org.apache.log4j.spi.LoggingEvent;

/**
 * Captures what is logged to the HDFS audit logger name while open, formatted with Hadoop's
 * audit log layout ({@code %d{ISO8601} %p %c{2}: %m%n}), exactly as it lands in {@code hdfs-audit.log}.
 */
final class AuditCapture extends AppenderSkeleton implements AutoCloseable {
  static final String LOGGER = "org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit";

  private final List<String> lines = new ArrayList<>();
  private final Logger logger = Logger.getLogger(LOGGER);

  AuditCapture() {
    setLayout(new PatternLayout("%d{ISO8601} %p %c{2}: %m%n"));
    logger.setLevel(Level.INFO);
    logger.addAppender(this);
  }

  @Override
  protected synchronized void append(LoggingEvent event) {
    lines.add(getLayout().format(event).stripTrailing());
  }

  synchronized List<String> lines() {
    return new ArrayList<>(lines);
  }

  /** Writes the captured lines as an audit log file. */
  Path writeTo(Path file) throws IOException {
    Files.write(file, lines(), StandardCharsets.UTF_8);
    return file;
  }

  @Override
  public void close() {
    logger.removeAppender(this);
  }

  @Override
  public boolean requiresLayout() {
    return true;
  }
}
