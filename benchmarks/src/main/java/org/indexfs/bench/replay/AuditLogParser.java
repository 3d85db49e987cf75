package org.indexfs.bench.replay;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import org.apache.commons.text.StringEscapeUtils;

/**
 * Parses HDFS NameNode audit records as FSNamesystemAuditLogger writes them, behind any log4j
 * prefix ({@code 2024-05-01 10:00:00,123 INFO FSNamesystem.audit: }):
 *
 * <pre>allowed=true	ugi=alice (auth:PROXY) via oozie/h@R (auth:KERBEROS)	ip=/10.0.0.5	cmd=rename (options=[OVERWRITE])	src=/a	dst=/b	perm=alice:staff:rw-r--r--	proto=rpc</pre>
 *
 * Optional {@code trackingId=} and {@code callerContext=} fields are accepted; {@code src} and
 * {@code dst} are Java-unescaped (HDFS escapes them). A line it cannot use comes back as a
 * {@link Result} with a reason, never silently dropped. Records on HDFS's reserved names are not
 * replayed (and so never pre-created), on every target alike: snapshot paths ({@code .snapshot},
 * which HBase probes on every cluster; HDFS refuses to create the name) and {@code /.reserved}
 * (inode-id and raw paths, which name one cluster's inodes).
 */
public final class AuditLogParser {
  private static final DateTimeFormatter LOG4J_ISO8601 = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");

  private final ZoneId zone;

  public AuditLogParser(ZoneId zone) {
    this.zone = zone;
  }

  /** An event, or why the line is unusable. */
  public record Result(AuditEvent event, String unusableReason) {
    static Result unusable(String reason) {
      return new Result(null, reason);
    }
  }

  public Result parse(String line, long lineNumber) {
    int start = line.indexOf("allowed=");
    if (start < 0) {
      return Result.unusable(line.isBlank() ? "blank line" : "not an audit record (no allowed= field)");
    }
    Map<String, String> fields = new HashMap<>();
    for (String field : line.substring(start).split("\t")) {
      int eq = field.indexOf('=');
      if (eq <= 0) {
        return Result.unusable("malformed field (not key=value)");
      }
      fields.putIfAbsent(field.substring(0, eq), field.substring(eq + 1));
    }
    String allowed = fields.get("allowed");
    if (!"true".equals(allowed) && !"false".equals(allowed)) {
      return Result.unusable("malformed allowed= value");
    }
    String ugi = fields.get("ugi");
    String cmd = fields.get("cmd");
    if (ugi == null || ugi.isBlank()) {
      return Result.unusable("missing ugi=");
    }
    if (cmd == null || cmd.isBlank()) {
      return Result.unusable("missing cmd=");
    }
    String options = null;
    int paren = cmd.indexOf(" (options=");
    if (paren > 0 && cmd.endsWith(")")) {
      options = cmd.substring(paren + " (options=".length(), cmd.length() - 1);
      cmd = cmd.substring(0, paren);
    }
    Command command = Command.ofAuditName(cmd);
    if (command == null) {
      return Result.unusable("command not replayable: " + cmd);
    }
    String src = unescape(fields.get("src"));
    String dst = unescape(fields.get("dst"));
    if (src == null) {
      return Result.unusable("missing src=");
    }
    if (command == Command.CONCAT ? !src.startsWith("[") || dst == null : !src.startsWith("/")) {
      return Result.unusable("src is not an absolute path");
    }
    if ((command == Command.RENAME || command == Command.CONCAT) && (dst == null || !dst.startsWith("/"))) {
      return Result.unusable(cmd + " without an absolute dst");
    }
    String reserved = reservedName(src, dst);
    if (reserved != null) {
      return Result.unusable(reserved);
    }
    String user = shortUserName(ugi);
    if (user.isEmpty()) {
      return Result.unusable("malformed ugi=");
    }
    String perm = fields.get("perm");
    return new Result(new AuditEvent(lineNumber, timestamp(line, start), allowed.equals("true"), user, ugi,
        fields.get("ip"), command, options, src,
        command == Command.RENAME || command == Command.CONCAT ? dst : null,
        perm == null || perm.equals("null") ? null : perm, line), null);
  }

  /** Why a record's paths are not replayed, or null. */
  static String reservedName(String src, String dst) {
    for (String p : new String[] {src, dst}) {
      if (p == null) {
        continue;
      }
      if (p.equals("/.reserved") || p.startsWith("/.reserved/") || p.startsWith("[/.reserved/")) {
        return "reserved name: /.reserved (inode-id and raw paths are not replayed)";
      }
      if (p.contains("/.snapshot/") || p.endsWith("/.snapshot") || p.contains("/.snapshot,") || p.contains("/.snapshot]")) {
        return "reserved name: .snapshot (snapshot paths are not replayed)";
      }
    }
    return null;
  }

  private static String unescape(String value) {
    return value == null || value.equals("null") ? null : StringEscapeUtils.unescapeJava(value);
  }

  /**
   * The effective user's short name from a UGI string: {@code alice (auth:SIMPLE)},
   * {@code alice@REALM (auth:KERBEROS)}, {@code hive/host@REALM (auth:KERBEROS)},
   * {@code alice (auth:PROXY) via oozie (auth:SIMPLE)} or a bare {@code alice}.
   */
  static String shortUserName(String ugi) {
    String effective = ugi;
    int via = effective.indexOf(" via ");
    if (via >= 0) {
      effective = effective.substring(0, via);
    }
    int auth = effective.indexOf(" (auth:");
    if (auth >= 0) {
      effective = effective.substring(0, auth);
    }
    effective = effective.trim();
    int cut = effective.length();
    for (char c : new char[] {'/', '@'}) {
      int i = effective.indexOf(c);
      if (i >= 0 && i < cut) {
        cut = i;
      }
    }
    return effective.substring(0, cut);
  }

  private long timestamp(String line, int recordStart) {
    if (recordStart < 23) {
      return -1;
    }
    try {
      return LocalDateTime.parse(line.substring(0, 23), LOG4J_ISO8601).atZone(zone).toInstant().toEpochMilli();
    } catch (DateTimeParseException e) {
      return -1; // a prefix without a log4j ISO8601 timestamp: the record replays, unpaced
    }
  }
}
