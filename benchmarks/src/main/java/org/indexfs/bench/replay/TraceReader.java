package org.indexfs.bench.replay;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.zip.GZIPInputStream;

/**
 * Reads audit records from trace files in order (plain or gzip, detected by content, not name),
 * counting every line: usable events by command, unusable lines by reason.
 */
public final class TraceReader implements Iterator<AuditEvent>, Closeable {
  private final List<Path> files;
  private final AuditLogParser parser;
  private final String prefix;
  private final TraceCounts counts = new TraceCounts();
  private int fileIndex = -1;
  private BufferedReader reader;
  private long lineNumber;
  private AuditEvent next;

  public TraceReader(List<Path> files, ZoneId zone) {
    this(files, zone, null);
  }

  /** A reader that moves every path below {@code prefix} (null or "/": paths as written). */
  public TraceReader(List<Path> files, ZoneId zone, String prefix) {
    this.files = List.copyOf(files);
    this.parser = new AuditLogParser(zone);
    this.prefix = prefix == null || prefix.equals("/") ? null : prefix;
  }

  /** Counts so far (complete once the reader is exhausted). */
  public TraceCounts counts() {
    return counts;
  }

  @Override
  public boolean hasNext() {
    try {
      while (next == null) {
        if (reader == null && !openNext()) {
          return false;
        }
        String line = reader.readLine();
        if (line == null) {
          reader.close();
          reader = null;
          continue;
        }
        lineNumber++;
        AuditLogParser.Result r = parser.parse(line, lineNumber);
        if (r.event() != null) {
          counts.usable(r.event().command());
          next = prefix == null ? r.event() : r.event().under(prefix);
        } else {
          counts.unusable(r.unusableReason());
        }
      }
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException("Reading " + files.get(fileIndex) + " at line " + lineNumber, e);
    }
  }

  @Override
  public AuditEvent next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    AuditEvent e = next;
    next = null;
    return e;
  }

  private boolean openNext() throws IOException {
    if (++fileIndex >= files.size()) {
      return false;
    }
    reader = new BufferedReader(new InputStreamReader(open(files.get(fileIndex)), StandardCharsets.UTF_8), 1 << 16);
    return true;
  }

  /** A file's bytes, gunzipped when they start with the gzip magic number. */
  static InputStream open(Path file) throws IOException {
    InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
    in.mark(2);
    int b1 = in.read();
    int b2 = in.read();
    in.reset();
    return b1 == 0x1f && b2 == 0x8b ? new GZIPInputStream(in, 1 << 16) : in;
  }

  @Override
  public void close() throws IOException {
    if (reader != null) {
      reader.close();
      reader = null;
    }
    fileIndex = files.size();
  }
}
