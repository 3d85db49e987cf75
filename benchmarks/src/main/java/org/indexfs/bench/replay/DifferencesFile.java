package org.indexfs.bench.replay;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code differences.tsv}: every replayed record whose outcome differed from what the trace and
 * the pre-create plan imply, on any target, one row per record with what each target did. The
 * audit record is the last column, with tabs, newlines and backslashes escaped ({@code \t},
 * {@code \n}, {@code \\}) so each row stays one line of tab-separated fields.
 */
final class DifferencesFile implements Closeable {
  static final String NAME = "differences.tsv";

  private final BufferedWriter out;
  private final List<String> labels;
  private final long[] perTarget;
  private long rows;

  DifferencesFile(Path dir, List<String> labels) throws IOException {
    Files.createDirectories(dir);
    this.out = Files.newBufferedWriter(dir.resolve(NAME), StandardCharsets.UTF_8);
    this.labels = List.copyOf(labels);
    this.perTarget = new long[labels.size()];
    StringBuilder header = new StringBuilder("copy\tline\tcommand\texpected");
    for (String l : labels) {
      header.append('\t').append(l).append("\t").append(l).append(" message");
    }
    out.write(header.append("\tnote\taudit record\n").toString());
  }

  /**
   * Adds the rows of one stretch of the trace that every target replayed: {@code segments} and
   * {@code logs} are per target, in label order.
   */
  synchronized void add(List<Replayer.Segment> segments, List<OutcomeLog> logs) throws IOException {
    Map<Integer, Difference[]> byOrdinal = new TreeMap<>();
    for (int t = 0; t < segments.size(); t++) {
      for (Difference d : segments.get(t).differences()) {
        byOrdinal.computeIfAbsent(d.ordinal(), k -> new Difference[segments.size()])[t] = d;
        perTarget[t]++;
      }
    }
    for (Map.Entry<Integer, Difference[]> row : byOrdinal.entrySet()) {
      Difference any = null;
      for (Difference d : row.getValue()) {
        any = any == null ? d : any;
      }
      AuditEvent e = any.event();
      StringBuilder sb = new StringBuilder().append(any.copy()).append('\t').append(e.line()).append('\t')
          .append(e.command().auditName()).append('\t').append(any.expected().describe(e.command()));
      for (int t = 0; t < segments.size(); t++) {
        Difference d = row.getValue()[t];
        String got = d != null ? d.outcome() : logs.get(t).name(row.getKey());
        sb.append('\t').append(got).append('\t').append(d == null ? "" : escape(d.message()));
      }
      sb.append('\t').append(any.note() == null ? "" : escape(any.note())).append('\t').append(escape(e.raw()));
      out.write(sb.append('\n').toString());
      rows++;
    }
    out.flush();
  }

  /** Records that differed on target {@code i} (in label order). */
  synchronized long differences(int i) {
    return perTarget[i];
  }

  synchronized long rows() {
    return rows;
  }

  List<String> labels() {
    return labels;
  }

  static String escape(String s) {
    if (s == null) {
      return "";
    }
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
