package org.indexfs.server.audit;

import java.net.InetAddress;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The asynchronous audit log: handler threads hand records to one writer thread, which formats
 * them as {@link AuditLine}s and logs them at INFO to the HDFS audit logger name (HDFS does the
 * same with {@code dfs.namenode.audit.log.async}). A full queue blocks the handler rather than
 * drop a record: an audit log with silent holes is worse than a slower server.
 */
public final class AuditLog implements AutoCloseable {
  private static final Logger AUDIT = LoggerFactory.getLogger(AuditLine.LOGGER_NAME);
  private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);
  private static final Record STOP = new Record(false, "", null, "", null, null, null);

  /** One audited call, formatted later on the writer thread. */
  record Record(boolean allowed, String ugi, InetAddress addr, String cmd, String src, String dst, String perm) {}

  private final BlockingQueue<Record> queue;
  private final Thread writer;

  private AuditLog(int queueSize) {
    queue = new ArrayBlockingQueue<>(queueSize);
    writer = new Thread(this::drain, "indexfs-audit");
    writer.setDaemon(true);
    writer.start();
  }

  private AuditLog() {
    queue = null;
    writer = null;
  }

  public static AuditLog start(int queueSize) {
    return new AuditLog(queueSize);
  }

  /** An audit log that records nothing ({@code indexfs.audit.enabled=false}). */
  public static AuditLog disabled() {
    return new AuditLog();
  }

  public boolean enabled() {
    return writer != null;
  }

  void append(Record record) {
    if (writer == null) {
      return;
    }
    try {
      queue.put(record);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      // The handler is being shut down; write the record here so it is not lost.
      AUDIT.info(format(record));
    }
  }

  private static String format(Record r) {
    return AuditLine.format(r.allowed(), r.ugi(), r.addr(), r.cmd(), r.src(), r.dst(), r.perm());
  }

  private void drain() {
    while (true) {
      Record r;
      try {
        r = queue.take();
      } catch (InterruptedException e) {
        LOG.warn("Audit writer interrupted with {} records queued", queue.size());
        return;
      }
      if (r == STOP) {
        return;
      }
      AUDIT.info(format(r));
    }
  }

  /** Writes every record already queued, then stops the writer. */
  @Override
  public void close() {
    if (writer == null) {
      return;
    }
    try {
      queue.put(STOP);
      writer.join(30_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (writer.isAlive()) {
      LOG.warn("Audit writer did not finish; {} records were not written", queue.size());
      writer.interrupt();
    }
  }
}
