package org.indexfs.common.policy;

import java.util.Locale;
import org.indexfs.common.schema.Inode;

/**
 * A subtree's consistency and durability (issue 18, after Cudele's subtree policies): set on a
 * directory, inherited by everything below it until a deeper directory sets its own. Encoded in the
 * directory's inode flags ({@link Inode#POLICY_FLAGS}), so it is journaled with the entry and carried
 * by every copy of the entry (partition records, sealed resolution answers, client lease caches).
 */
public record SubtreePolicy(Consistency consistency, Durability durability) {
  /** What a subtree without any policy above it gets: today's behaviour. */
  public static final SubtreePolicy DEFAULT = new SubtreePolicy(Consistency.STRONG, Durability.SYNC);

  private static final int SHIFT = 7;

  /** Who sees a change, and when. */
  public enum Consistency {
    /** Every call at the server; others see a change as soon as it is acknowledged. */
    STRONG,
    /** Bulk insertion (IndexFS §II-D): creates run in the client under a lease; others see them at publish. */
    LOCALIZED,
    /** A private checked-out copy merged back explicitly (not built: refused). */
    DECOUPLED
  }

  /** What a crash may lose of an acknowledged change. */
  public enum Durability {
    /** Acknowledged after the WAL fsync: nothing acknowledged is lost. */
    SYNC,
    /** Acknowledged before the fsync, which follows within indexfs.wal.async-window-ms. */
    ASYNC,
    /**
     * With consistency localized: the client journals its own local operations on the data tier before
     * they return, and another client can replay a dead client's journal (DeltaFS).
     */
    CLIENT_JOURNAL
  }

  /** The policy a directory's flags define, or null when it sets none (it inherits). */
  public static SubtreePolicy fromFlags(int flags) {
    if ((flags & Inode.FLAG_POLICY) == 0) {
      return null;
    }
    int bits = flags >>> SHIFT;
    return new SubtreePolicy(Consistency.values()[bits & 3], Durability.values()[(bits >>> 2) & 3]);
  }

  /** {@code flags} with this policy defined on them ({@code null} policy: cleared, inherit again). */
  public static int withPolicy(int flags, SubtreePolicy policy) {
    int cleared = flags & ~Inode.POLICY_FLAGS;
    if (policy == null) {
      return cleared;
    }
    return cleared | Inode.FLAG_POLICY
        | ((policy.consistency.ordinal() | policy.durability.ordinal() << 2) << SHIFT);
  }

  /** Parses a command-line / wire name: strong, localized, decoupled. */
  public static Consistency consistency(String name) {
    return parse(Consistency.class, name);
  }

  /** Parses a command-line / wire name: sync, async, client-journal. */
  public static Durability durability(String name) {
    return parse(Durability.class, name);
  }

  private static <E extends Enum<E>> E parse(Class<E> type, String name) {
    try {
      return Enum.valueOf(type, name.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      StringBuilder allowed = new StringBuilder();
      for (E v : type.getEnumConstants()) {
        allowed.append(allowed.length() == 0 ? "" : "|").append(nameOf(v));
      }
      throw new IllegalArgumentException("Unknown " + type.getSimpleName().toLowerCase(Locale.ROOT) + " '"
          + name + "' (expected " + allowed + ")");
    }
  }

  /** The lower-case, dashed name the command line and the README use. */
  public static String nameOf(Enum<?> v) {
    return v.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  @Override
  public String toString() {
    return "consistency=" + nameOf(consistency) + " durability=" + nameOf(durability);
  }
}
