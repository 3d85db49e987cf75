package org.indexfs.bench.replay;

import java.util.ArrayList;
import java.util.List;

/**
 * One usable audit record.
 *
 * @param line        1-based line number across the trace files, in the order given (for messages)
 * @param timeMillis  the record's timestamp from the log line prefix, or -1 when it had none
 * @param allowed     {@code allowed=}: false means the NameNode refused it (or, for delete, found nothing)
 * @param user        the effective user's short name (what permission checks see)
 * @param ugi         the {@code ugi=} field as written
 * @param command     what to re-issue
 * @param options     rename's {@code [OVERWRITE]} / {@code [NONE]} when called with options, else null
 * @param src         the source path (concat: the {@code [a, b]} list as written, unescaped)
 * @param dst         the destination (rename) or target (concat), else null
 * @param perm        {@code owner:group:mode} of the entry after the call, or null
 * @param raw         the line as the log holds it (for differences.tsv)
 */
public record AuditEvent(long line, long timeMillis, boolean allowed, String user, String ugi, String ip,
    Command command, String options, String src, String dst, String perm, String raw) {

  /** Rename through {@code FileContext}/{@code rename(src, dst, options)}: exact destination semantics. */
  public boolean renameWithOptions() {
    return command == Command.RENAME && options != null;
  }

  public boolean overwrite() {
    return options != null && options.contains("OVERWRITE");
  }

  /** The mode bits of {@code perm=}, or -1. */
  public int permMode() {
    if (perm == null) {
      return -1;
    }
    String mode = perm.substring(perm.lastIndexOf(':') + 1);
    return mode.length() == 9 ? Modes.parse(mode) : -1;
  }

  /** {@code perm=}'s owner, or null. */
  public String permOwner() {
    return perm == null || perm.indexOf(':') < 0 ? null : perm.substring(0, perm.indexOf(':'));
  }

  /** {@code perm=}'s group, or null. */
  public String permGroup() {
    if (perm == null) {
      return null;
    }
    String[] parts = perm.split(":");
    return parts.length == 3 ? parts[1] : null;
  }

  /** The concat sources, as HDFS wrote them with {@code Arrays.toString}. */
  public List<String> concatSources() {
    String s = src.trim();
    if (s.startsWith("[") && s.endsWith("]")) {
      s = s.substring(1, s.length() - 1);
    }
    List<String> out = new ArrayList<>();
    for (String part : s.split(", ")) {
      if (!part.isEmpty()) {
        out.add(part);
      }
    }
    return out;
  }

  /** The same record with every path moved below {@code prefix} (an absolute directory, not "/"). */
  public AuditEvent under(String prefix) {
    String base = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
    String movedSrc = command == Command.CONCAT
        ? concatSources().stream().map(s -> base + s).collect(java.util.stream.Collectors.joining(", ", "[", "]"))
        : base + (src.equals("/") ? "" : src);
    String movedDst = dst == null ? null : base + (dst.equals("/") ? "" : dst);
    return new AuditEvent(line, timeMillis, allowed, user, ugi, ip, command, options, movedSrc, movedDst, perm, raw);
  }

  /** Every path this call reads or changes (for ordering calls on the same paths). */
  public List<String> paths() {
    List<String> out = new ArrayList<>(2);
    if (command == Command.CONCAT) {
      out.addAll(concatSources());
    } else {
      out.add(src);
    }
    if (dst != null) {
      out.add(dst);
    }
    return out;
  }
}
