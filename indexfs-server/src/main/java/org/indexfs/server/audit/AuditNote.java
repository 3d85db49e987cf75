package org.indexfs.server.audit;

import org.indexfs.server.call.Call;

/**
 * What an operation already knows for its audit record, so the auditor does not walk the path a
 * second time to find it: the entry's {@code perm=} field after the change, kept on the
 * {@link Call} the operation was handed, for the auditor.
 */
public final class AuditNote {
  private AuditNote() {}

  /** The audited entry's {@code owner:group:mode} after this call (see {@link AuditLine#perm}). */
  public static void perm(Call call, String owner, String group, boolean directory, int permission) {
    call.notePerm(AuditLine.perm(owner, group, directory, permission));
  }
}
