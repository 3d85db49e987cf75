package org.indexfs.bench.replay;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What a trace shows about the permissions of one entry that existed before it began, while the
 * trace has not changed them: the owner, group and mode a record printed ({@code perm=} of
 * setTimes, setPermission, rename), the access each user needed for the calls it was allowed, and
 * the access {@link AccessInference} takes away to reproduce refusals.
 */
final class EntryAccess {
  static final int READ = 4;
  static final int WRITE = 2;
  static final int EXECUTE = 1;
  /** Owner-only calls (setPermission, setOwner): not a mode bit. */
  static final int OWN = 8;

  String revealedOwner;
  String revealedGroup;
  /** The mode when the trace began, when a record printed it; else -1. */
  int revealedMode = -1;
  /** The first user who used the entry (its owner when nothing says otherwise). */
  String firstUser;
  /** User → access bits ({@link #READ} ... {@link #OWN}) the trace shows it used successfully. */
  final Map<String, Integer> needs = new LinkedHashMap<>(2);
  /** The owner refusals and needs settled on, if any. */
  String fixedOwner;
  /** Users refusals say must not own it. */
  Set<String> notOwner;
  /** Mode bits taken from group and other to reproduce refusals. */
  int denied;
  /** Mode bits a refused non-owner lacks under the revealed mode: they must stay lacking. */
  int keptDenied;
  /** The trace changed its mode or owner: later calls say nothing about what it had before. */
  boolean changed;

  /** {@code target}: the call was about this entry (not just passing through it). */
  void need(String user, int bits, boolean target) {
    if (target && firstUser == null) {
      firstUser = user;
    }
    needs.merge(user, bits, (a, b) -> a | b);
  }

  int needsOf(String user) {
    return needs.getOrDefault(user, 0);
  }

  void notOwner(String user) {
    if (notOwner == null) {
      notOwner = new HashSet<>(2);
    }
    notOwner.add(user);
  }

  boolean mayOwn(String user) {
    return notOwner == null || !notOwner.contains(user);
  }

  /** The one user whose allowed calls needed ownership, or null (none, or several: then a superuser did). */
  String ownNeeder() {
    String found = null;
    for (Map.Entry<String, Integer> e : needs.entrySet()) {
      if ((e.getValue() & OWN) != 0) {
        if (found != null) {
          return null;
        }
        found = e.getKey();
      }
    }
    return found;
  }

  /** The owner the evidence requires, or null when it leaves the choice open. */
  String requiredOwner() {
    if (revealedOwner != null) {
      return revealedOwner;
    }
    if (fixedOwner != null) {
      return fixedOwner;
    }
    return ownNeeder();
  }

  /**
   * The owner to build the entry with: the required one, else the first user whose call was about
   * the entry (refusals permitting, else another such user), else null — an entry only passed
   * through is made by the replaying user.
   */
  String owner() {
    String required = requiredOwner();
    if (required != null) {
      return required;
    }
    if (firstUser == null || mayOwn(firstUser)) {
      return firstUser;
    }
    for (String u : needs.keySet()) {
      if (mayOwn(u)) {
        return u;
      }
    }
    return null;
  }
}
