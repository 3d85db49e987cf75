package org.indexfs.server.audit;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.indexfs.proto.Caller;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The asynchronous audit log (HDFS does the same with {@code dfs.namenode.audit.log.async}): the
 * threads serving calls only queue a record — no formatting, no lock, no wake-up — and one writer
 * thread, waking every few milliseconds, formats everything queued as {@link AuditLine}s and logs
 * them at INFO to the HDFS audit logger name. A full queue makes the serving thread wait rather than
 * drop a record: an audit log with silent holes is worse than a slower server. While the logger is
 * not enabled for INFO (as HDFS's FSNamesystem, which checks the same), nothing is recorded at all.
 */
public final class AuditLog implements AutoCloseable {
  private static final Logger AUDIT = LoggerFactory.getLogger(AuditLine.LOGGER_NAME);
  private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);
  private static final long WRITE_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  /** One audited call, formatted later on the writer thread. */
  record Record(boolean allowed, Caller caller, InetAddress addr, String cmd, String src, String dst, String perm) {}

  private final ConcurrentLinkedQueue<Record> queue = new ConcurrentLinkedQueue<>();
  private final AtomicInteger queued = new AtomicInteger();
  private final int capacity;
  private final Thread writer;
  private volatile boolean running = true;
  /** The writer thread's last caller and its {@code ugi=} text. */
  private Caller lastCaller;
  private String lastUgi;
  /** Lines formatted before they are logged: bounds the writer's memory when the queue is long. */
  private static final int MAX_BATCH = 4096;

  private AuditLog(int capacity) {
    this.capacity = capacity;
    writer = new Thread(this::drain, "indexfs-audit");
    writer.setDaemon(true);
    writer.start();
  }

  private AuditLog() {
    capacity = 0;
    writer = null;
  }

  public static AuditLog start(int queueSize) {
    return new AuditLog(queueSize);
  }

  /** An audit log that records nothing ({@code indexfs.audit.enabled=false}). */
  public static AuditLog disabled() {
    return new AuditLog();
  }

  /** True when calls are to be recorded: the log is on and its logger takes INFO records now. */
  public boolean enabled() {
    return writer != null && AUDIT.isInfoEnabled();
  }

  void append(Record record) {
    if (writer == null) {
      return;
    }
    while (queued.get() >= capacity && running) {
      LockSupport.unpark(writer);
      LockSupport.parkNanos(WRITE_INTERVAL_NANOS / 5);
    }
    queue.add(record);
    queued.incrementAndGet();
  }

  private void drain() {
    while (running) {
      LockSupport.parkNanos(this, WRITE_INTERVAL_NANOS);
      writeQueued();
    }
    writeQueued();
  }

  /**
   * Formats everything queued and logs it as one batch (one flush per file appender, AuditBatch).
   * A caller's {@code ugi=} text is built once and reused while the same caller keeps calling.
   */
  private void writeQueued() {
    List<String> lines = new ArrayList<>();
    for (Record r; (r = queue.poll()) != null; ) {
      queued.decrementAndGet();
      lines.add(format(r));
      if (lines.size() == MAX_BATCH) {
        write(lines);
      }
    }
    write(lines);
  }

  private void write(List<String> lines) {
    try {
      AuditBatch.write(AuditLine.LOGGER_NAME, AUDIT, lines);
    } catch (LinkageError e) {
      // Another logging back end than reload4j: one record at a time, as the logger writes them.
      for (String line : lines) {
        AUDIT.info(line);
      }
    }
    lines.clear();
  }

  private String format(Record r) {
    Caller c = r.caller();
    if (c != lastCaller && !c.equals(lastCaller)) {
      lastCaller = c;
      lastUgi = AuditLine.ugi(c);
    }
    return AuditLine.format(r.allowed(), lastUgi, r.addr(), r.cmd(), r.src(), r.dst(), r.perm());
  }

  /** Writes every record already queued, then stops the writer. */
  @Override
  public void close() {
    if (writer == null) {
      return;
    }
    running = false;
    LockSupport.unpark(writer);
    try {
      writer.join(30_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (writer.isAlive()) {
      LOG.warn("Audit writer did not finish; {} records were not written", queued.get());
    }
  }
}
