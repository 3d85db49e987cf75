package org.indexfs.bench.replay;

import java.util.HashMap;
import java.util.Map;

/**
 * The audit-log commands the replayer can re-issue through the Hadoop FileSystem API, with the
 * {@code cmd=} name HDFS's NameNode writes for each and the class the IndexFS paper (§III-B)
 * sorts it into: lookups, creates and updates (the LinkedIn trace is 84 / 9 / 7 %).
 */
public enum Command {
  GETFILEINFO("getfileinfo", Kind.LOOKUP),
  OPEN("open", Kind.LOOKUP),
  LIST_STATUS("listStatus", Kind.LOOKUP),
  CONTENT_SUMMARY("contentSummary", Kind.LOOKUP),
  CREATE("create", Kind.CREATE),
  MKDIRS("mkdirs", Kind.CREATE),
  DELETE("delete", Kind.UPDATE),
  RENAME("rename", Kind.UPDATE),
  SET_PERMISSION("setPermission", Kind.UPDATE),
  SET_OWNER("setOwner", Kind.UPDATE),
  SET_TIMES("setTimes", Kind.UPDATE),
  SET_REPLICATION("setReplication", Kind.UPDATE),
  APPEND("append", Kind.UPDATE),
  TRUNCATE("truncate", Kind.UPDATE),
  CONCAT("concat", Kind.UPDATE);

  public enum Kind { LOOKUP, CREATE, UPDATE }

  private static final Map<String, Command> BY_AUDIT_NAME = new HashMap<>();

  static {
    for (Command c : values()) {
      BY_AUDIT_NAME.put(c.auditName, c);
    }
  }

  private final String auditName;
  private final Kind kind;

  Command(String auditName, Kind kind) {
    this.auditName = auditName;
    this.kind = kind;
  }

  /** The {@code cmd=} value, without rename's {@code (options=[...])} suffix. */
  public String auditName() {
    return auditName;
  }

  public Kind kind() {
    return kind;
  }

  /** Whether a successful call changes the namespace (and so orders after earlier calls below it). */
  public boolean mutates() {
    return kind != Kind.LOOKUP;
  }

  /** The command for an audit name, or null when the replayer cannot re-issue it. */
  public static Command ofAuditName(String name) {
    return BY_AUDIT_NAME.get(name);
  }
}
