package org.indexfs.server.audit;

import java.net.InetAddress;
import org.apache.commons.text.StringEscapeUtils;
import org.indexfs.common.Permission;
import org.indexfs.proto.Caller;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.FileType;

/**
 * One audit record in exactly the text HDFS's NameNode writes (FSNamesystemAuditLogger), so the
 * tools that read {@code hdfs-audit.log} keep working:
 *
 * <pre>allowed=true	ugi=alice (auth:SIMPLE)	ip=/10.0.0.5	cmd=mkdirs	src=/a	dst=null	perm=alice:supergroup:rwxr-xr-x	proto=rpc</pre>
 *
 * Fields are tab-separated; {@code src} and {@code dst} are escaped with Java escapes (a tab in a
 * name cannot break the record, non-ASCII becomes {@code \\uXXXX}); absent values print as
 * {@code null}; {@code ip} is {@link InetAddress#toString()} ({@code host/addr} or {@code /addr}).
 */
public final class AuditLine {
  private AuditLine() {}

  /** The HDFS logger name: log4j configurations written for NameNodes route it unchanged. */
  public static final String LOGGER_NAME = "org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit";

  public static String format(boolean allowed, String ugi, InetAddress addr, String cmd, String src,
      String dst, String perm) {
    return "allowed=" + allowed
        + "\tugi=" + ugi
        + "\tip=" + addr
        + "\tcmd=" + cmd
        + "\tsrc=" + escape(src)
        + "\tdst=" + escape(dst)
        + "\tperm=" + (perm == null ? "null" : perm)
        + "\tproto=rpc";
  }

  /**
   * {@link StringEscapeUtils#escapeJava}, without its translator pass for the usual path: printable
   * ASCII other than {@code "} and {@code \\} is what it leaves unchanged.
   */
  static String escape(String s) {
    if (s == null) {
      return null;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        return StringEscapeUtils.escapeJava(s);
      }
    }
    return s;
  }

  /** The caller as {@code UserGroupInformation.toString()} prints it. */
  public static String ugi(Caller caller) {
    StringBuilder sb = new StringBuilder(printable(caller.getUser()))
        .append(" (auth:").append(authMethod(caller.getAuthMethod())).append(')');
    if (!caller.getRealUser().isEmpty()) {
      sb.append(" via ").append(printable(caller.getRealUser()))
          .append(" (auth:").append(authMethod(caller.getRealAuthMethod())).append(')');
    }
    return sb.toString();
  }

  /** {@code owner:group:rwxr-xr-x}, HDFS's {@code perm=} field for an entry's status. */
  public static String perm(FileStatus status) {
    return perm(status.getOwner(), status.getGroup(), status.getType() == FileType.DIRECTORY, status.getPermission());
  }

  public static String perm(String owner, String group, boolean directory, int permission) {
    return owner + ":" + group + ":" + Permission.symbolic(directory, permission).substring(1);
  }

  /** A user name cannot add fields or lines to a record. */
  private static String printable(String name) {
    return name.chars().anyMatch(Character::isISOControl) ? name.replaceAll("\\p{Cntrl}", "?") : name;
  }

  /**
   * Only Hadoop's method names are printed: the caller chose the string, and a free-form value
   * could forge fields in someone else's audit record.
   */
  private static String authMethod(String claimed) {
    return switch (claimed) {
      case "KERBEROS", "TOKEN", "CERTIFICATE", "KERBEROS_SSL", "PROXY" -> claimed;
      default -> "SIMPLE";
    };
  }
}
