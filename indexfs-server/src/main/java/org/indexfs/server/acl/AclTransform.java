package org.indexfs.server.acl;

import static org.apache.hadoop.fs.permission.AclEntryScope.ACCESS;
import static org.apache.hadoop.fs.permission.AclEntryScope.DEFAULT;
import static org.apache.hadoop.fs.permission.AclEntryType.GROUP;
import static org.apache.hadoop.fs.permission.AclEntryType.MASK;
import static org.apache.hadoop.fs.permission.AclEntryType.OTHER;
import static org.apache.hadoop.fs.permission.AclEntryType.USER;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.FsAction;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;

/**
 * The four ways HDFS changes an ACL (its AclTransformation): merge a spec in, filter entries out,
 * drop the default ACL, replace per scope. Each starts from the full logical ACL and a spec, sorts,
 * recomputes the mask where the scope changed and no mask was given, copies missing default base
 * entries from the access ones, and validates with HDFS's words.
 */
public final class AclTransform {
  static final int MAX_ENTRIES = 32;

  /** Access before default; user, group, mask, other; unnamed before named, names in order. */
  public static final Comparator<AclEntry> ORDER = Comparator
      .comparing((AclEntry e) -> e.getScope() == ACCESS ? 0 : 1)
      .thenComparing(e -> typeRank(e.getType()))
      .thenComparing(AclEntry::getName, Comparator.nullsFirst(Comparator.naturalOrder()));

  private AclTransform() {}

  private static int typeRank(AclEntryType t) {
    return switch (t) {
      case USER -> 0;
      case GROUP -> 1;
      case MASK -> 2;
      case OTHER -> 3;
    };
  }

  private static boolean sameKey(AclEntry a, AclEntry b) {
    return ORDER.compare(a, b) == 0;
  }

  private static AclEntry find(List<AclEntry> sorted, AclEntry key) {
    for (AclEntry e : sorted) {
      if (sameKey(e, key)) {
        return e;
      }
    }
    return null;
  }

  private static List<AclEntry> validatedSpec(List<AclEntry> spec) throws IndexFsException {
    List<AclEntry> sorted = new ArrayList<>(spec);
    sorted.sort(ORDER);
    checkMaxEntries(sorted);
    return sorted;
  }

  /** At most 32 access and 32 default entries, counted apart. */
  private static void checkMaxEntries(List<AclEntry> entries) throws IndexFsException {
    long access = entries.stream().filter(e -> e.getScope() == ACCESS).count();
    long defaults = entries.size() - access;
    if (access > MAX_ENTRIES) {
      throw invalid("Invalid ACL: ACL has " + access + " access entries, which exceeds maximum of " + MAX_ENTRIES + ".");
    }
    if (defaults > MAX_ENTRIES) {
      throw invalid("Invalid ACL: ACL has " + defaults + " default entries, which exceeds maximum of " + MAX_ENTRIES + ".");
    }
  }

  /** modifyAclEntries: spec entries replace the same keys or are added. */
  public static List<AclEntry> merge(List<AclEntry> existing, List<AclEntry> inSpec) throws IndexFsException {
    List<AclEntry> spec = validatedSpec(inSpec);
    Work w = new Work();
    List<AclEntry> found = new ArrayList<>();
    for (AclEntry e : existing) {
      AclEntry given = find(spec, e);
      if (given != null) {
        found.add(given);
        w.take(given, true);
      } else {
        w.take(e, false);
      }
    }
    for (AclEntry e : spec) {
      if (find(found, e) == null) {
        w.take(e, true);
      }
    }
    return w.finish();
  }

  /** removeAclEntries: entries with the keys of the spec go (permissions in the spec are ignored). */
  public static List<AclEntry> filter(List<AclEntry> existing, List<AclEntry> inSpec) throws IndexFsException {
    List<AclEntry> spec = validatedSpec(inSpec);
    Work w = new Work();
    for (AclEntry e : existing) {
      if (find(spec, e) != null) {
        w.scopeDirty.add(e.getScope());
        if (e.getType() == MASK) {
          w.maskDirty.add(e.getScope());
        }
      } else {
        w.take(e, false);
      }
    }
    return w.finish();
  }

  /** removeDefaultAcl: only the access entries stay. */
  public static List<AclEntry> filterDefault(List<AclEntry> existing) throws IndexFsException {
    List<AclEntry> out = new ArrayList<>();
    for (AclEntry e : existing) {
      if (e.getScope() == DEFAULT) {
        break;
      }
      out.add(e);
    }
    return validated(out);
  }

  /** setAcl: each scope the spec names is replaced by the spec's entries; the other scope stays. */
  public static List<AclEntry> replace(List<AclEntry> existing, List<AclEntry> inSpec) throws IndexFsException {
    List<AclEntry> spec = validatedSpec(inSpec);
    Work w = new Work();
    for (AclEntry e : spec) {
      w.take(e, true);
    }
    for (AclEntry e : existing) {
      if (!w.scopeDirty.contains(e.getScope())) {
        w.take(e, false);
      }
    }
    return w.finish();
  }

  /** The entries being built, with the masks set aside until the end. */
  private static final class Work {
    final List<AclEntry> entries = new ArrayList<>();
    final Map<AclEntryScope, AclEntry> providedMask = new EnumMap<>(AclEntryScope.class);
    final Set<AclEntryScope> maskDirty = EnumSet.noneOf(AclEntryScope.class);
    final Set<AclEntryScope> scopeDirty = EnumSet.noneOf(AclEntryScope.class);

    /** Adds {@code e}; {@code dirty}: it comes from the spec, so its scope changed. */
    void take(AclEntry e, boolean dirty) {
      if (dirty) {
        scopeDirty.add(e.getScope());
      }
      if (e.getType() == MASK) {
        providedMask.put(e.getScope(), e);
        if (dirty) {
          maskDirty.add(e.getScope());
        }
      } else {
        entries.add(e);
      }
    }

    List<AclEntry> finish() throws IndexFsException {
      copyDefaults(entries);
      masks();
      return validated(entries);
    }

    /**
     * The mask of each scope: as given, as it was if nothing in the scope changed, else the union
     * of the group class (HDFS 3.5's rules).
     */
    private void masks() throws IndexFsException {
      Set<AclEntryScope> present = EnumSet.noneOf(AclEntryScope.class);
      Map<AclEntryScope, FsAction> union = new EnumMap<>(AclEntryScope.class);
      Set<AclEntryScope> needed = EnumSet.noneOf(AclEntryScope.class);
      for (AclEntry e : entries) {
        present.add(e.getScope());
        if (e.getType() == GROUP || e.getName() != null) {
          union.merge(e.getScope(), e.getPermission(), FsAction::or);
        }
        if (e.getName() != null) {
          needed.add(e.getScope());
        }
      }
      for (AclEntryScope scope : present) {
        boolean provided = providedMask.containsKey(scope);
        if (!provided && needed.contains(scope) && maskDirty.contains(scope)) {
          throw invalid("Invalid ACL: mask is required and cannot be deleted.");
        } else if (provided && (!scopeDirty.contains(scope) || maskDirty.contains(scope))) {
          entries.add(providedMask.get(scope));
        } else if (needed.contains(scope) || provided) {
          // A scope that had a mask keeps one, recomputed, even when nothing named needs it any more.
          entries.add(new AclEntry.Builder().setScope(scope).setType(MASK).setPermission(union.get(scope)).build());
        }
      }
    }
  }

  /** Default user, group and other entries missing from a default ACL take the access ACL's permissions. */
  private static void copyDefaults(List<AclEntry> entries) {
    entries.sort(ORDER);
    boolean hasDefault = entries.stream().anyMatch(e -> e.getScope() == DEFAULT);
    if (!hasDefault) {
      return;
    }
    List<AclEntry> copies = new ArrayList<>(3);
    for (AclEntryType type : List.of(USER, GROUP, OTHER)) {
      AclEntry defaultKey = new AclEntry.Builder().setScope(DEFAULT).setType(type).build();
      if (find(entries, defaultKey) == null) {
        AclEntry access = find(entries, new AclEntry.Builder().setScope(ACCESS).setType(type).build());
        if (access != null) {
          copies.add(new AclEntry.Builder().setScope(DEFAULT).setType(type).setPermission(access.getPermission()).build());
        }
      }
    }
    entries.addAll(copies);
  }

  private static List<AclEntry> validated(List<AclEntry> entries) throws IndexFsException {
    List<AclEntry> sorted = new ArrayList<>(entries);
    sorted.sort(ORDER);
    AclEntry previous = null;
    for (AclEntry e : sorted) {
      if (previous != null && sameKey(previous, e)) {
        throw invalid("Invalid ACL: multiple entries with same scope, type and name.");
      }
      if (e.getName() != null && (e.getType() == MASK || e.getType() == OTHER)) {
        throw invalid("Invalid ACL: this entry type must not have a name: " + e + ".");
      }
      previous = e;
    }
    checkMaxEntries(sorted);
    boolean hasDefault = sorted.stream().anyMatch(e -> e.getScope() == DEFAULT);
    for (AclEntryType type : List.of(USER, GROUP, OTHER)) {
      if (find(sorted, new AclEntry.Builder().setScope(ACCESS).setType(type).build()) == null) {
        throw invalid("Invalid ACL: the user, group and other entries are required.");
      }
      if (hasDefault && find(sorted, new AclEntry.Builder().setScope(DEFAULT).setType(type).build()) == null) {
        throw invalid("Invalid default ACL: the user, group and other entries are required.");
      }
    }
    return sorted;
  }

  static IndexFsException invalid(String message) {
    return new IndexFsException(Code.ACL_INVALID, message);
  }
}
