package org.indexfs.server.ns;

import java.io.IOException;
import java.util.List;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.InodeIds;
import org.indexfs.common.PathNames;
import org.indexfs.common.ResolveElsewhereException;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Ancestor;
import org.indexfs.proto.Code;
import org.indexfs.proto.Resolution;

/**
 * Walks a path on this slot (IndexFS §II-B). The client names the deepest directory it already
 * knows (its {@link Resolution}); the walk starts there, one point lookup per component, for as
 * long as the directories it meets have their entries on this slot. When the next directory to
 * look into lives elsewhere, the walk stops with {@link ResolveElsewhereException}: the client
 * caches what was walked and continues at that directory's home slot.
 */
public final class PathResolver {
  private final Namespace ns;
  private final int maxComponentBytes;
  private volatile LeaseGrants leases = LeaseGrants.NONE;

  public PathResolver(Namespace ns, int maxComponentBytes) {
    this.ns = ns;
    this.maxComponentBytes = maxComponentBytes;
  }

  public void useLeases(LeaseGrants grants) {
    this.leases = grants;
  }

  public List<String> parse(String path) throws IOException {
    return PathNames.components(path, maxComponentBytes);
  }

  /** Walks from the root; only the root's slot can. */
  public ResolvedPath resolve(String path) throws IOException {
    return resolve(Resolution.getDefaultInstance(), path);
  }

  /** Walks to the final component; the final component's directory must have its entries here. */
  public ResolvedPath resolve(Resolution known, String path) throws IOException {
    return walk(known, path, false, false);
  }

  /** As {@link #resolve}, for a rename's destination. */
  public ResolvedPath resolveDestination(Resolution known, String path) throws IOException {
    return walk(known, path, false, true);
  }

  /** Walks into the final component too when it is a directory (listing, summaries). */
  public ResolvedPath resolveInto(Resolution known, String path) throws IOException {
    return walk(known, path, true, false);
  }

  private ResolvedPath walk(Resolution known, String path, boolean into, boolean destination) throws IOException {
    List<String> names = parse(path);
    int n = names.size();
    List<Ancestor> given = known.getAncestorsList();
    if (given.size() > n + 1) {
      throw new IndexFsException(Code.STALE_RESOLUTION, "Resolution of " + path + " is longer than the path");
    }
    Inode[] inodes = new Inode[n + 1];
    int start = Math.max(0, given.size() - 1);
    for (int i = 0; i < start; i++) {
      inodes[i] = fromAncestor(given.get(i));
    }
    inodes[start] = startDirectory(given, names, start, path, destination);
    // Entries above the start came from the client: never rewrite or lease them here.
    boolean startEntryHere = given.isEmpty()
        || (start == 0 ? ns.slot() == 0 : given.get(start - 1).getZerothSlot() == ns.slot());
    int firstLocal = startEntryHere ? start : start + 1;
    int existing = start + 1;
    for (int i = start; i < n; i++) {
      Inode dir = inodes[i];
      if (!dir.isDirectory()) {
        break;
      }
      if (dir.zerothSlot != ns.slot()) {
        throw elsewhere(path, names, inodes, firstLocal, i, destination);
      }
      Inode child = ns.lookup(dir.inodeId, names.get(i));
      if (child == null) {
        break;
      }
      inodes[i + 1] = child;
      existing++;
    }
    if (into && existing == n + 1 && n > start && inodes[n].isDirectory() && inodes[n].zerothSlot != ns.slot()) {
      throw elsewhere(path, names, inodes, firstLocal, n, destination);
    }
    return new ResolvedPath(path, names, inodes, existing, ns.slot(), firstLocal);
  }

  /** The directory the walk starts from: the root, or the last directory the client knows. */
  private Inode startDirectory(List<Ancestor> given, List<String> names, int start, String path,
      boolean destination) throws IOException {
    if (given.isEmpty()) {
      if (ns.slot() != 0 && destination) {
        throw new ResolveElsewhereException(path, Resolution.getDefaultInstance(), true);
      }
      if (ns.slot() != 0) {
        throw new IndexFsException(Code.STALE_RESOLUTION, "Slot " + ns.slot() + " does not hold the root");
      }
      return ns.root();
    }
    Ancestor last = given.get(start);
    if (last.getZerothSlot() != ns.slot()) {
      if (destination) {
        // A rename's destination directory lives on another slot: the rename spans slots.
        throw new ResolveElsewhereException(path, Resolution.newBuilder().addAllAncestors(given).build(), true);
      }
      throw stale(path, last);
    }
    boolean entryHere = start == 0 ? ns.slot() == 0 : given.get(start - 1).getZerothSlot() == ns.slot();
    Inode dir;
    if (entryHere) {
      // The entry itself is on this slot: read it, it is authoritative.
      dir = start == 0 ? ns.root() : ns.lookup(given.get(start - 1).getInodeId(), names.get(start - 1));
    } else {
      dir = ns.partition(last.getInodeId());
      if (dir != null && (dir.flags & Inode.FLAG_SEALED) != 0) {
        throw IndexFsException.notFound(PathNames.join(names, start));
      }
    }
    if (dir == null || dir.inodeId != last.getInodeId() || !dir.isDirectory()) {
      throw stale(path, last);
    }
    return dir;
  }

  private static IndexFsException stale(String path, Ancestor a) {
    return new IndexFsException(Code.STALE_RESOLUTION,
        "Directory " + InodeIds.format(a.getInodeId()) + " on the way to " + path + " is not where the client cached it");
  }

  /** Stops at depth {@code at}: what the client needs to go on at that directory's home slot. */
  private ResolveElsewhereException elsewhere(String path, List<String> names, Inode[] inodes, int firstLocal,
      int at, boolean destination) {
    Resolution.Builder r = Resolution.newBuilder();
    for (int i = 0; i <= at; i++) {
      Ancestor.Builder a = toAncestor(inodes[i]);
      if (i >= firstLocal) {
        // Read from its entry, which lives on this slot: this slot grants its lease.
        a.setLeaseMs(i == 0 ? leases.grant(InodeIds.NO_PARENT, "", 0)
            : leases.grant(inodes[i - 1].inodeId, names.get(i - 1), i));
      }
      r.addAncestors(a);
    }
    return new ResolveElsewhereException(path, r.build(), destination);
  }

  public Ancestor.Builder toAncestor(Inode dir) {
    return Ancestor.newBuilder().setInodeId(dir.inodeId).setPermission(dir.permission)
        .setOwner(ns.principals().nameOf(dir.ownerId)).setGroup(ns.principals().nameOf(dir.groupId))
        .setZerothSlot(dir.zerothSlot);
  }

  private Inode fromAncestor(Ancestor a) throws IOException {
    Inode dir = new Inode();
    dir.type = Inode.TYPE_DIRECTORY;
    dir.inodeId = a.getInodeId();
    dir.permission = a.getPermission();
    dir.ownerId = ns.principals().idOf(a.getOwner());
    dir.groupId = ns.principals().idOf(a.getGroup());
    dir.zerothSlot = a.getZerothSlot();
    return dir;
  }
}
