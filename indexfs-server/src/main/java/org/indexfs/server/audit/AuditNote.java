package org.indexfs.server.audit;

/**
 * What an operation already knows for its audit record, so the auditor does not walk the path a
 * second time to find it: the entry's {@code perm=} field after the change.
 */
public final class AuditNote {
  private static final ThreadLocal<String> PERM = new ThreadLocal<>();

  private AuditNote() {}

  /** The audited entry's {@code owner:group:mode} after this call (see {@link AuditLine#perm}). */
  public static void perm(String owner, String group, boolean directory, int permission) {
    PERM.set(AuditLine.perm(owner, group, directory, permission));
  }

  /** What the current call noted, cleared for the next one. */
  static String take() {
    String p = PERM.get();
    PERM.remove();
    return p;
  }
}
