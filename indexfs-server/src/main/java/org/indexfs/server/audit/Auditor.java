package org.indexfs.server.audit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import org.indexfs.proto.Code;
import org.indexfs.proto.RenameRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.call.Call;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.op.OpContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what HDFS's NameNode would audit for a call and hands it to the {@link AuditLog}.
 * Like FSNamesystem: successes are logged with {@code allowed=true}; a permission refusal with
 * {@code allowed=false}; other failures (not found, already exists ...) are not logged at all.
 * {@code delete} is logged with its result, so deleting a missing path is {@code allowed=false}.
 * Mutations print the entry's status after the change in {@code perm=}, reads print {@code null}.
 */
public final class Auditor {
  private static final Logger LOG = LoggerFactory.getLogger(Auditor.class);

  private final AuditLog log;
  private final OpContext ctx;

  public Auditor(AuditLog log, OpContext ctx) {
    this.log = log;
    this.ctx = ctx;
  }

  /**
   * State that must be read before the call runs: a legacy rename may move the source into the
   * destination directory, and only the source tells which entry moved (its attributes travel
   * with it unchanged).
   */
  public String beforeApply(Request request) {
    if (log.enabled() && request.getOpCase() == Request.OpCase.RENAME
        && request.getRename().getMode() == RenameRequest.Mode.LEGACY) {
      return permOf(request.getResolution(), request.getRename().getSrc());
    }
    return null;
  }

  /** Logs {@code call}'s outcome, with what its operation noted ({@link AuditNote}). */
  public void record(Call call, Response response, String before) {
    Request request = call.request();
    SocketAddress remote = call.address();
    String noted = call.auditPerm();
    if (!log.enabled()) {
      return;
    }
    boolean ok = response.getCode() == Code.OK;
    if (!ok && response.getCode() != Code.ACCESS_DENIED) {
      return;
    }
    String cmd;
    String src;
    String dst = null;
    String perm = null;
    switch (request.getOpCase()) {
      case MKDIRS -> {
        cmd = "mkdirs";
        src = request.getMkdirs().getPath();
        perm = !ok ? null : noted != null ? noted : permOf(request.getResolution(), src);
      }
      case CREATE -> {
        cmd = "create";
        src = request.getCreate().getPath();
        perm = ok ? AuditLine.perm(response.getStatus()) : null;
      }
      case GET_FILE_STATUS -> {
        cmd = "getfileinfo";
        src = request.getGetFileStatus().getPath();
      }
      case LIST_STATUS -> {
        cmd = "listStatus";
        src = request.getListStatus().getPath();
      }
      case OPEN -> {
        cmd = "open";
        src = request.getOpen().getPath();
      }
      case CONTENT_SUMMARY -> {
        cmd = "contentSummary";
        src = request.getContentSummary().getPath();
      }
      case DELETE -> {
        cmd = "delete";
        src = request.getDelete().getPath();
        ok = ok && response.getBool().getValue();
      }
      case RENAME -> {
        RenameRequest r = request.getRename();
        src = r.getSrc();
        dst = r.getDst();
        if (r.getMode() == RenameRequest.Mode.LEGACY) {
          cmd = "rename";
          if (ok && !response.getBool().getValue()) {
            return; // HDFS audits a legacy rename only when it renamed something
          }
          perm = ok ? before : null;
        } else {
          // FileContext.rename passes one option; HDFS prints the array it received.
          cmd = "rename (options=[" + (r.getOverwrite() ? "OVERWRITE" : "NONE") + "])";
          perm = ok ? permOf(request.getDstResolution(), dst) : null;
        }
      }
      case SET_PERMISSION -> {
        cmd = "setPermission";
        src = request.getSetPermission().getPath();
        perm = ok ? permOf(request.getResolution(), src) : null;
      }
      case SET_OWNER -> {
        cmd = "setOwner";
        src = request.getSetOwner().getPath();
        perm = ok ? permOf(request.getResolution(), src) : null;
      }
      case SET_TIMES -> {
        cmd = "setTimes";
        src = request.getSetTimes().getPath();
        perm = ok ? permOf(request.getResolution(), src) : null;
      }
      case SET_REPLICATION -> {
        cmd = "setReplication";
        src = request.getSetReplication().getPath();
        if (ok && !response.getBool().getValue()) {
          return; // HDFS audits setReplication only when it applied (not on a directory)
        }
      }
      case APPEND -> {
        cmd = "append";
        src = request.getAppend().getPath();
      }
      case TRUNCATE -> {
        cmd = "truncate";
        src = request.getTruncate().getPath();
        perm = ok ? permOf(request.getResolution(), src) : null;
      }
      case CONCAT -> {
        // HDFS prints the sources as Arrays.toString and the target as dst.
        cmd = "concat";
        src = "[" + String.join(", ", request.getConcat().getSourcesList()) + "]";
        dst = request.getConcat().getTarget();
        perm = ok ? permOf(request.getResolution(), dst) : null;
      }
      case SET_XATTR -> {
        cmd = "setXAttr";
        src = request.getSetXattr().getPath();
        perm = ok ? permOf(request.getResolution(), src) : null;
      }
      case REMOVE_XATTR -> {
        cmd = "removeXAttr";
        src = request.getRemoveXattr().getPath();
        perm = ok ? permOf(request.getResolution(), src) : null;
      }
      case GET_XATTRS -> {
        cmd = request.getGetXattrs().getNamesOnly() ? "listXAttrs" : "getXAttrs";
        src = request.getGetXattrs().getPath();
      }
      case ACL_EDIT -> {
        cmd = switch (request.getAclEdit().getAction()) {
          case MODIFY -> "modifyAclEntries";
          case REMOVE_ENTRIES -> "removeAclEntries";
          case REMOVE_DEFAULT -> "removeDefaultAcl";
          case REMOVE -> "removeAcl";
          default -> "setAcl";
        };
        src = request.getAclEdit().getPath();
        perm = ok ? permOf(request.getResolution(), src) : null;
      }
      case GET_ACL_STATUS -> {
        cmd = "getAclStatus";
        src = request.getGetAclStatus().getPath();
      }
      case SET_QUOTA -> {
        cmd = org.indexfs.server.op.SetQuotaOp.command(request.getSetQuota().getNsQuota(),
            request.getSetQuota().getDsQuota());
        src = request.getSetQuota().getPath();
      }
      case STORAGE_POLICY -> {
        if (request.getStoragePolicy().getInherited()) {
          return; // the client's walk to an ancestor's policy: one getStoragePolicy call on HDFS
        }
        src = request.getStoragePolicy().getPath();
        cmd = switch (request.getStoragePolicy().getAction()) {
          case SET -> "setStoragePolicy";
          case UNSET -> "unsetStoragePolicy";
          default -> "getStoragePolicy";
        };
        if (!cmd.equals("getStoragePolicy")) {
          perm = ok ? permOf(request.getResolution(), src) : null;
        }
      }
      case ACCESS -> {
        cmd = "checkAccess";
        src = request.getAccess().getPath();
      }
      default -> {
        return; // internal calls (complete, flush, lease renewal, serverInfo) are not in HDFS's audit log
      }
    }
    log.append(new AuditLog.Record(ok, request.getCaller(), addressOf(remote), cmd, src, dst, perm));
  }

  private static InetAddress addressOf(SocketAddress remote) {
    return remote instanceof InetSocketAddress inet ? inet.getAddress() : null;
  }

  /** The entry's {@code owner:group:mode} right after the call, or null (printed {@code perm=null}). */
  private String permOf(org.indexfs.proto.Resolution known, String path) {
    try {
      return ctx.ns().read(none -> {
        ResolvedPath p = ctx.resolver().resolve(known, path);
        return p.last() == null ? null : AuditLine.perm(ctx.ns().toStatus(p.lastName(), p.last()));
      });
    } catch (IOException e) {
      // HDFS prints perm=null when it has no status; the record itself must still be written.
      LOG.debug("No status for the audit record of {}: {}", path, e.toString());
      return null;
    }
  }
}
