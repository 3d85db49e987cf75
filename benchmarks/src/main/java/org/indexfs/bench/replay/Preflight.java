package org.indexfs.bench.replay;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * What must hold on every target before anything runs, so that a replay never dies half-way with
 * no report: the target answers, the replaying user can make entries where the trace goes (and,
 * when the plan sets groups, change them: a superuser), and it may act as every user the trace
 * names. Each problem comes with its fix.
 */
final class Preflight {
  private Preflight() {}

  /** A target cannot run the replay; the message lists every problem found, each with its fix. */
  static final class PreflightException extends IOException {
    PreflightException(String message) {
      super(message);
    }
  }

  static void check(List<TargetSession> targets, PrecreatePlan plan) throws PreflightException {
    List<String> problems = new ArrayList<>();
    for (TargetSession t : targets) {
      check(t, plan, problems);
    }
    if (!problems.isEmpty()) {
      throw new PreflightException("The replay cannot run; nothing was changed on any target:\n  - "
          + String.join("\n  - ", problems));
    }
  }

  private static void check(TargetSession t, PrecreatePlan plan, List<String> problems) {
    Identities ids = t.identities;
    String login = ids.loginUser();
    String where = t.label() + " (" + ids.uri() + ")";
    Identities.Caller me;
    try {
      me = ids.superuser();
      me.as(() -> me.fs.getFileStatus(new Path("/")));
    } catch (IOException | RuntimeException e) {
      problems.add(where + " does not answer: " + reason(e) + ". Fix: start it (bin/indexfs local, or "
          + "bin/indexfs local --hdfs for an HDFS beside it) or correct the URI and --conf.");
      return;
    }
    String prefix = t.prefix(1);
    Path base = new Path(prefix == null ? "/" : prefix);
    Path probe = new Path(base, ".replay-preflight-" + UUID.randomUUID());
    boolean needsGroups = plan.entries().stream().anyMatch(e -> e.group() != null);
    try {
      me.as(() -> {
        me.fs.mkdirs(probe, new FsPermission((short) 0777));
        try {
          if (needsGroups) {
            me.fs.setOwner(probe, null, "replay-preflight-group");
          }
        } finally {
          me.fs.delete(probe, true);
        }
        return null;
      });
    } catch (IOException | RuntimeException e) {
      problems.add(where + ": the replaying user " + login + " cannot " + (needsGroups ? "make entries and set "
          + "their groups" : "make entries") + " below " + base + " (" + reason(e) + "). Fix: run the replay as the "
          + "target's superuser (the user that started it), or give --prefix DIR for a directory " + login
          + " owns.");
      return;
    }
    if (ids.mode() == Impersonation.SINGLE) {
      return;
    }
    List<String> refused = new ArrayList<>();
    String firstReason = null;
    for (String user : plan.users()) {
      try {
        Identities.Caller c = ids.forUser(user);
        c.as(() -> c.fs.getFileStatus(new Path("/")));
      } catch (IOException | RuntimeException e) {
        refused.add(user);
        firstReason = firstReason == null ? reason(e) : firstReason;
      }
    }
    if (!refused.isEmpty()) {
      String users = refused.size() <= 5 ? String.join(", ", refused)
          : String.join(", ", refused.subList(0, 5)) + " and " + (refused.size() - 5) + " more";
      String fix = ids.mode() == Impersonation.PROXY
          ? "set hadoop.proxyuser." + login + ".hosts=* and hadoop.proxyuser." + login + ".groups=* in the target's "
              + "core-site.xml and restart it (on HDFS also: hdfs dfsadmin -refreshSuperUserGroupsConfiguration), "
              + "or replay with --impersonation remote (simple authentication) or --user NAME"
          : "replay with --impersonation proxy or --user NAME";
      problems.add(where + ": " + login + " cannot act as " + users + " (" + firstReason + "). Fix: " + fix + ".");
    }
  }

  private static String reason(Throwable e) {
    CallRunner.Outcome o = CallRunner.outcome(e);
    return o.message() == null || o.message().isEmpty() ? o.name() : o.name() + ": " + o.message();
  }
}
