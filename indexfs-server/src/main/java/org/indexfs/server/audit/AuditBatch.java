package org.indexfs.server.audit;

import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import org.apache.log4j.Appender;
import org.apache.log4j.Logger;
import org.apache.log4j.WriterAppender;

/**
 * Writes a batch of audit lines with one flush of each file appender instead of one per line (issue
 * 12: "each audit record is its own write"). The audit logger's own appenders that flush after every
 * event ({@code ImmediateFlush=true}, log4j's default, as HDFS's RFAAUDIT has it) stop flushing for
 * the batch and flush with its last line; the lines are in the appender's buffer only while the
 * batch is written, so a batch that ended is on disk exactly as before. Appenders that a
 * configuration set to buffer are left as they are.
 *
 * <p>All audit writers of a process share one lock: two IndexFS servers in one JVM (tests, bench)
 * may share an appender, and one must not see the other's temporary setting as the configured one.
 */
final class AuditBatch {
  private static final Object LOCK = new Object();

  private AuditBatch() {}

  /** Logs {@code lines} at INFO to {@code loggerName}, in order. */
  static void write(String loggerName, org.slf4j.Logger logger, List<String> lines) {
    if (lines.isEmpty()) {
      return;
    }
    synchronized (LOCK) {
      List<WriterAppender> held = lines.size() > 1 ? holdFlushes(Logger.getLogger(loggerName)) : List.of();
      try {
        for (int i = 0; i < lines.size(); i++) {
          if (i == lines.size() - 1) {
            release(held);
          }
          logger.info(lines.get(i));
        }
      } finally {
        release(held);
      }
    }
  }

  private static List<WriterAppender> holdFlushes(Logger logger) {
    List<WriterAppender> held = new ArrayList<>(1);
    for (Enumeration<?> e = logger.getAllAppenders(); e.hasMoreElements(); ) {
      Appender a = (Appender) e.nextElement();
      if (a instanceof WriterAppender w && w.getImmediateFlush()) {
        w.setImmediateFlush(false);
        held.add(w);
      }
    }
    return held;
  }

  private static void release(List<WriterAppender> held) {
    for (WriterAppender w : held) {
      w.setImmediateFlush(true);
    }
  }
}
