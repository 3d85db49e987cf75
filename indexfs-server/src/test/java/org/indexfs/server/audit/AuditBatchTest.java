package org.indexfs.server.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.PatternLayout;
import org.apache.log4j.WriterAppender;
import org.indexfs.proto.Caller;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** A batch of audit lines reaches the appender's stream in one write, in order, and nothing stays buffered. */
class AuditBatchTest {
  private static final String NAME = "org.indexfs.test.AuditBatchTest";

  /** The bytes an appender wrote, and how many write calls carried them. */
  static final class CountingStream extends ByteArrayOutputStream {
    int writes;

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      writes++;
      super.write(b, off, len);
    }

    String text() {
      return toString(StandardCharsets.UTF_8);
    }
  }

  private final CountingStream out = new CountingStream();
  private WriterAppender appender;
  private Logger logger;

  @BeforeEach
  void attach() {
    appender = new WriterAppender(new PatternLayout("%m%n"), out);
    logger = Logger.getLogger(NAME);
    logger.setLevel(Level.INFO);
    logger.setAdditivity(false);
    logger.addAppender(appender);
  }

  @AfterEach
  void detach() {
    logger.removeAppender(appender);
  }

  private static List<String> lines(int n) {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      lines.add("allowed=true\tugi=u (auth:SIMPLE)\tcmd=getfileinfo\tsrc=/f" + i);
    }
    return lines;
  }

  @Test
  void oneWriteForABatchAndEverythingFlushedWhenItEnds() {
    List<String> lines = lines(30);
    AuditBatch.write(NAME, LoggerFactory.getLogger(NAME), lines);
    assertEquals(String.join("\n", lines) + "\n", out.text());
    assertEquals(1, out.writes, "30 lines of a batch should reach the stream in one write");
    assertTrue(appender.getImmediateFlush(), "the appender flushes per event again after the batch");

    // One line at a time (the old way) is one write per line: what the batch saves.
    for (String line : lines(3)) {
      LoggerFactory.getLogger(NAME).info(line);
    }
    assertEquals(4, out.writes);
  }

  @Test
  void anAppenderConfiguredToBufferIsLeftBuffering() {
    appender.setImmediateFlush(false);
    AuditBatch.write(NAME, LoggerFactory.getLogger(NAME), lines(5));
    assertFalse(appender.getImmediateFlush());
  }

  @Test
  void auditLogWritesEveryRecordInOrderWithEachCallersUgi() throws IOException {
    Logger audit = Logger.getLogger(AuditLine.LOGGER_NAME);
    Level level = audit.getLevel();
    boolean additive = audit.getAdditivity();
    CountingStream auditOut = new CountingStream();
    WriterAppender a = new WriterAppender(new PatternLayout("%m%n"), auditOut);
    audit.setLevel(Level.INFO);
    audit.setAdditivity(false);
    audit.addAppender(a);
    try {
      Caller alice = Caller.newBuilder().setUser("alice").build();
      Caller bob = Caller.newBuilder().setUser("bob").setAuthMethod("KERBEROS").build();
      InetAddress ip = InetAddress.getByAddress(new byte[] {10, 0, 0, 7});
      List<String> expected = new ArrayList<>();
      try (AuditLog log = AuditLog.start(64)) {
        assertTrue(log.enabled());
        for (int i = 0; i < 500; i++) {
          // Equal callers built anew and alternating callers: each record keeps its own ugi.
          Caller c = i % 3 == 0 ? bob : Caller.newBuilder().setUser("alice").build();
          log.append(new AuditLog.Record(true, c, ip, "getfileinfo", "/d/f" + i, null, null));
          expected.add(AuditLine.format(true, AuditLine.ugi(i % 3 == 0 ? bob : alice), ip, "getfileinfo",
              "/d/f" + i, null, null));
        }
      }
      assertEquals(String.join("\n", expected) + "\n", auditOut.text());
      assertTrue(auditOut.writes < 500, "records were written in batches: " + auditOut.writes + " writes");
    } finally {
      audit.removeAppender(a);
      audit.setLevel(level);
      audit.setAdditivity(additive);
    }
  }
}
