package org.indexfs.bench.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Owners and modes for the pre-created entries that make a trace's refusals ({@code allowed=false})
 * happen again. An audit record does not say which entry refused the call, so each refusal lists
 * where it could have come from — the entry itself, the parent it would write, the directories it
 * traverses, nearest first — and takes the first place where taking that access away from the
 * refused user harms no call the trace shows allowed: the user never used that access there, and
 * at most one other user did (who then owns the entry and keeps it). A mode the trace printed is
 * kept as it is, and a refusal it already explains needs nothing.
 */
final class AccessInference {
  /** A place a refusal may come from: an entry, and the access bits any one of which would refuse the call. */
  record Site(ModelNode node, int bits) {}

  /**
   * One refused record. {@code dependsOn}: a delete's target the trace had not decided at the
   * time; if it turns out missing, the refusal is just "nothing deleted". {@code traceModesOnPath}:
   * an entry the trace made lies on the path, so the trace's own modes may explain it.
   */
  record Refusal(long line, String user, List<Site> sites, ModelNode dependsOn, boolean traceModesOnPath) {}

  private static final int[] BITS = {EntryAccess.READ, EntryAccess.WRITE, EntryAccess.EXECUTE, EntryAccess.OWN};

  private final List<Refusal> refusals = new ArrayList<>();

  void add(Refusal r) {
    refusals.add(r);
  }

  /**
   * Settles owners and taken-away modes for every refusal, in trace order. Refusals it cannot
   * reproduce are noted by line in {@code notes}; counts by outcome go to {@code counts}.
   */
  void resolve(Set<String> superusers, Map<Long, String> notes, Map<String, Long> counts) {
    for (Refusal r : refusals) {
      if (r.dependsOn() != null && r.dependsOn().before == ModelNode.Before.ABSENT) {
        count(counts, "refusals that are deletes of missing paths (nothing to set up)");
        continue;
      }
      if (superusers.contains(r.user())) {
        String why = "not reproducible: " + r.user() + " acts as a superuser elsewhere in the trace";
        count(counts, "refusals " + why);
        notes.put(r.line(), why);
        continue;
      }
      String why = null;
      boolean candidate = false;
      boolean done = false;
      for (int i = 0; i < r.sites().size() && !done; i++) {
        Site s = r.sites().get(i);
        ModelNode n = s.node();
        if (!n.isPreExisting() || n.parent == null) {
          continue;
        }
        candidate = true;
        for (int bit : BITS) {
          if ((s.bits() & bit) != 0 && !done) {
            String refusal = refuse(n.access(), r.user(), bit, superusers);
            done = refusal == null;
            why = done ? null : refusal;
          }
        }
      }
      if (!candidate) {
        count(counts, r.traceModesOnPath() ? "refusals left to the modes the trace sets"
            : "refusals not reproducible: no entry on the path existed before the trace");
        if (!r.traceModesOnPath()) {
          notes.put(r.line(), "not reproducible: no entry on the path existed before the trace");
        }
      } else if (done) {
        count(counts, "refusals reproduced by pre-created owners and modes");
      } else {
        count(counts, "refusals not reproducible: " + why);
        notes.put(r.line(), "not reproducible: " + why);
      }
    }
  }

  /** Takes {@code bit} away from {@code user} on the entry, or says why it cannot (null: done). */
  private static String refuse(EntryAccess a, String user, int bit, Set<String> superusers) {
    if (a.revealedMode >= 0) {
      // The trace printed the mode: it refuses the user or it does not.
      boolean owner = user.equals(a.revealedOwner);
      if (bit == EntryAccess.OWN ? !owner : !owner && (a.revealedMode & bit) == 0) {
        a.keptDenied |= bit == EntryAccess.OWN ? 0 : bit;
        return null;
      }
      return "the mode the trace prints allows it";
    }
    if ((a.needsOf(user) & bit) != 0) {
      return "the same user is allowed that access elsewhere in the trace";
    }
    String required = a.requiredOwner();
    if (user.equals(required)) {
      return "the user owns the entry";
    }
    if (bit == EntryAccess.OWN) {
      a.notOwner(user);
      return null;
    }
    String other = null;
    for (Map.Entry<String, Integer> e : a.needs.entrySet()) {
      String v = e.getKey();
      if ((e.getValue() & bit) == 0 || v.equals(user) || v.equals(required) || superusers.contains(v)) {
        continue;
      }
      if (other != null) {
        return "other users need the same access";
      }
      other = v;
    }
    if (other != null) {
      if (required != null || !a.mayOwn(other)) {
        return "other users need the same access";
      }
      a.fixedOwner = other; // the one other user who needs it owns the entry
    }
    a.notOwner(user);
    a.denied |= bit;
    return null;
  }

  /** The mode to build an entry with, or -1 for the permissive default. */
  static int mode(ModelNode n, boolean directory, String owner, Set<String> superusers) {
    EntryAccess a = n.access;
    if (a == null) {
      return -1;
    }
    if (a.revealedMode >= 0) {
      // Access the original cluster granted through group membership is given to everyone here
      // (the replay machine does not have the original groups), unless a refusal needs it withheld.
      int widen = 0;
      for (Map.Entry<String, Integer> e : a.needs.entrySet()) {
        if (!e.getKey().equals(owner) && !superusers.contains(e.getKey())) {
          widen |= e.getValue() & 7;
        }
      }
      widen &= ~a.keptDenied & (directory ? 7 : ~EntryAccess.EXECUTE);
      return a.revealedMode | widen << 3 | widen;
    }
    if (a.denied == 0) {
      return -1;
    }
    int base = directory ? 0777 : 0666;
    return base & ~(a.denied << 3 | a.denied);
  }

  private static void count(Map<String, Long> counts, String what) {
    counts.merge(what, 1L, Long::sum);
  }
}
