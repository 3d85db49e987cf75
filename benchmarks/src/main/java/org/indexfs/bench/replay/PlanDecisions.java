package org.indexfs.bench.replay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The end of {@link PrecreatePlan}: what the whole trace left open is decided, and the entries
 * that existed before it are listed with their types, owners, groups and modes. Each assumption
 * is counted, so the report says what the trace did not tell.
 */
final class PlanDecisions {
  private PlanDecisions() {}

  static void decideWhatTheTraceLeftOpen(List<ModelNode> older, Map<String, Long> inferences) {
    List<ModelNode> open = new ArrayList<>();
    for (ModelNode n : older) {
      if (n.before == ModelNode.Before.UNDECIDED) {
        open.add(n);
      }
    }
    open.sort(Comparator.comparingInt(n -> depth(n.origin)));
    for (ModelNode n : open) {
      if (n.madeByTrace && n.before == ModelNode.Before.UNDECIDED) {
        n.decideAbsentBefore();
        count(inferences, "directory trees taken as made by the trace (mkdirs; nothing shows them older)");
      }
    }
    for (ModelNode n : open) {
      if (n.before != ModelNode.Before.UNDECIDED) {
        continue;
      }
      if (n.refusedDelete) {
        n.decideAbsentBefore();
        count(inferences, "paths taken as missing (only a refused delete names them)");
      } else if (n.probed) {
        n.decidePresentBefore();
        count(inferences, "paths assumed to exist (only getfileinfo/listStatus name them; the audit log does not say)");
      }
    }
    for (ModelNode n : open) {
      if (n.before == ModelNode.Before.UNDECIDED) {
        n.decideAbsentBefore();
      }
    }
  }

  static List<PrecreatePlan.Entry> entries(List<ModelNode> older, Set<String> superusers, Map<String, Long> inferences) {
    List<PrecreatePlan.Entry> out = new ArrayList<>();
    for (ModelNode n : older) {
      if (!n.isPreExisting() || n.parent == null) {
        continue;
      }
      boolean directory = n.type == ModelNode.DIRECTORY || n.type == ModelNode.UNKNOWN_TYPE && n.listed;
      if (n.type == ModelNode.UNKNOWN_TYPE) {
        count(inferences, n.listed ? "types guessed: only listed, pre-created as a directory"
            : "types unknown: pre-created as a file");
      }
      EntryAccess a = n.access;
      String owner = a == null ? null : a.owner();
      if (a != null && a.revealedOwner != null) {
        count(inferences, a.revealedMode >= 0 ? "owner, group and mode printed by the trace"
            : "owner and group printed by the trace");
      }
      out.add(new PrecreatePlan.Entry(n.origin, directory, owner, a == null ? null : a.revealedGroup,
          AccessInference.mode(n, directory, owner, superusers)));
    }
    out.sort(PrecreatePlan.parentsFirst());
    return out;
  }

  private static int depth(String path) {
    int d = 0;
    for (int i = 0; i < path.length(); i++) {
      if (path.charAt(i) == '/') {
        d++;
      }
    }
    return d;
  }

  private static void count(Map<String, Long> counts, String what) {
    counts.merge(what, 1L, Long::sum);
  }
}
