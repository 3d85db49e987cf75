package org.indexfs.server.ns;

import java.io.IOException;
import com.google.protobuf.ByteString;
import java.util.List;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.InodeIds;
import org.indexfs.common.PathNames;
import org.indexfs.common.ResolveElsewhereException;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.schema.Inode;
import org.indexfs.common.schema.NameHash;
import org.indexfs.proto.Ancestor;
import org.indexfs.proto.Code;
import org.indexfs.proto.Resolution;
import org.indexfs.server.security.AncestorSeal;
import org.indexfs.server.split.Partitions;

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
  private final Partitions partitions;
  private volatile FrozenNames frozen = (dirId, name) -> false;
  private volatile LocalizedSubtrees localized = null;

  /**
   * Subtrees leased to bulk-insertion clients (IndexFS §II-D): told about every walk through one,
   * so it can refuse others' mutations inside and deny the holder's next renewal.
   */
  @FunctionalInterface
  public interface LocalizedSubtrees {
    /**
     * {@code dirs[0..count)} are the existing entries of a walked path from the root down, above
     * its target (and, for a walk into a directory, the directory itself).
     */
    void walked(Inode[] dirs, int count, boolean mutating) throws IOException;
  }

  /** Subtrees localized on this slot, consulted on every walk. */
  public void useLocalized(LocalizedSubtrees subtrees) {
    this.localized = subtrees;
  }

  private volatile AncestorSeal seal;

  /** Names moving in a GIGA+ split right now (see {@link #useFreeze}). */
  @FunctionalInterface
  public interface FrozenNames {
    boolean isFrozen(long dirId, String name);
  }

  public PathResolver(Namespace ns, int maxComponentBytes, Partitions partitions) {
    this.ns = ns;
    this.partitions = partitions;
    this.maxComponentBytes = maxComponentBytes;
  }

  public void useLeases(LeaseGrants grants) {
    this.leases = grants;
  }


  /** Seals the ancestors this slot hands out and checks those clients present (DESIGN §14). */
  public void useSeal(AncestorSeal seal) {
    this.seal = seal;
  }

  /** Names moving in a GIGA+ split: mutations of them retry until the split ends. */
  public void useFreeze(FrozenNames isFrozen) {
    this.frozen = isFrozen;
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
    return walk(known, path, false, 0, false, null);
  }

  /**
   * As {@link #resolve}, for a mutation that changes entries of the directory holding the final
   * component (or, when parents are missing, of the deepest existing directory): that directory is
   * locked in {@code m} before the entries below it are read, so what this returns stays true
   * until the mutation ends.
   */
  public ResolvedPath resolveForUpdate(Mutation m, Resolution known, String path) throws IOException {
    ResolvedPath p = walk(known, path, false, 0, false, m);
    m.noteDurability(p); // subtree policies (issue 18): what the reply waits for
    return p;
  }

  /**
   * As {@link #resolve}, for a rename's destination: a walk that reaches a directory held by another
   * slot answers {@link Destination#isElsewhere} (the rename spans slots) instead of redirecting the
   * client. Other refusals are thrown as for any walk.
   */
  public Destination resolveDestination(Resolution known, String path) throws IOException {
    try {
      return Destination.here(walk(known, path, false, 0, true, null));
    } catch (ResolveElsewhereException e) {
      return Destination.elsewhere(e.resolution());
    }
  }

  /**
   * As {@link #resolve}, for the destination slot of a rename across slots ({@code RENAME_IN}): a
   * destination further on is a redirect the source slot follows, as a client follows one.
   */
  public ResolvedPath resolveDestinationOrRedirect(Resolution known, String path) throws IOException {
    return walk(known, path, false, 0, true, null);
  }

  /** As {@link #resolveForUpdate}, for a rename's destination (see {@link #resolveDestination}). */
  public Destination resolveDestinationForUpdate(Mutation m, Resolution known, String path) throws IOException {
    ResolvedPath p;
    try {
      p = walk(known, path, false, 0, true, m);
    } catch (ResolveElsewhereException e) {
      // The walk's own way to stop (it is the client's redirect elsewhere); a rename takes it as an answer.
      return Destination.elsewhere(e.resolution());
    }
    m.noteDurability(p);
    return Destination.here(p);
  }

  /** Walks into the final component too when it is a directory (summaries: its partition 0). */
  public ResolvedPath resolveInto(Resolution known, String path) throws IOException {
    return walk(known, path, true, 0, false, null);
  }

  /** Walks into the final directory's partition holding {@code hash} (listing pages). */
  public ResolvedPath resolveInto(Resolution known, String path, long hash) throws IOException {
    return walk(known, path, true, hash, false, null);
  }

  /**
   * The slot holding the entries of {@code dir} whose names hash to {@code hash}, as far as this
   * slot knows (GIGA+ lookup on its bitmap; a slot holding no partition of it sends to its home).
   */
  public int ownerOf(Inode dir, long hash) throws IOException {
    return partitions.ownerOf(dir, hash);
  }

  private boolean here(Inode dir, String name) throws IOException {
    return partitions.slotCount() == 1 || ownerOf(dir, NameHash.of(name)) == ns.slot();
  }

  private ResolvedPath walk(Resolution known, String path, boolean into, long intoHash, boolean destination,
      Mutation lockFor) throws IOException {
    List<String> names = parse(path);
    int n = names.size();
    List<Ancestor> given = known.getAncestorsList();
    if (given.size() > n + 1) {
      throw new IndexFsException(Code.STALE_RESOLUTION, "Resolution of " + path + " is longer than the path");
    }
    Inode[] inodes = new Inode[n + 1];
    boolean[] local = new boolean[n + 1];
    int start = Math.max(0, given.size() - 1);
    checkSeals(given, names, path);
    for (int i = 0; i < start; i++) {
      inodes[i] = fromAncestor(given.get(i));
    }
    // Entries above the start came from the client: never rewritten or leased here.
    boolean startEntryHere = given.isEmpty() || (start == 0 ? ns.slot() == 0 : here(inodes[start - 1], names.get(start - 1)));
    inodes[start] = startDirectory(given, names, start, path, destination, startEntryHere);
    local[start] = startEntryHere;
    int existing = start + 1;
    for (int i = start; i < n; i++) {
      Inode dir = inodes[i];
      if (!dir.isDirectory()) {
        break;
      }
      if (!here(dir, names.get(i))) {
        throw elsewhere(path, names, inodes, local, i, destination, given);
      }
      if (ns.mutating() && frozen.isFrozen(dir.inodeId, names.get(i))) {
        throw new IndexFsException(Code.STALE_RESOLUTION, PathNames.join(names, i + 1)
            + " is moving to another slot (directory split); retry");
      }
      if (lockFor != null && i == n - 1) {
        lockFor.lock(dir.inodeId);
      }
      Inode child = ns.lookup(dir.inodeId, names.get(i));
      if (child == null && lockFor != null && i < n - 1) {
        // The deepest existing directory: its new entries are this mutation's to make. Someone
        // may have made one since the lookup; then walk on into it.
        lockFor.lock(dir.inodeId);
        child = ns.lookup(dir.inodeId, names.get(i));
      }
      if (child == null) {
        break;
      }
      inodes[i + 1] = child;
      local[i + 1] = true;
      existing++;
    }
    if (into && existing == n + 1 && inodes[n].isDirectory() && ownerOf(inodes[n], intoHash) != ns.slot()) {
      throw elsewhere(path, names, inodes, local, n, destination, given);
    }
    LocalizedSubtrees subtrees = localized;
    if (subtrees != null) {
      // Mutations count the directories above the target; reads (a listing) the target too.
      int dirs = Math.min(existing, into ? n + 1 : n);
      subtrees.walked(inodes, dirs, ns.mutating());
    }
    return new ResolvedPath(path, names, inodes, existing, local);
  }

  /**
   * Every directory a client presents must carry a server's unexpired seal for exactly its place on
   * this path (its parent and name): attributes, ids and positions a client made up or changed are
   * never believed. The client drops its cache and walks again from the root.
   */
  private void checkSeals(List<Ancestor> given, List<String> names, String path) throws IndexFsException {
    AncestorSeal s = seal;
    long parent = InodeIds.NO_PARENT;
    for (int i = 0; i < given.size(); i++) {
      Ancestor a = given.get(i);
      if (s == null || !s.verify(a, parent, i == 0 ? "" : names.get(i - 1))) {
        throw new IndexFsException(Code.STALE_RESOLUTION, "Resolution of " + path + " at depth " + i
            + " is not one a server vouches for (expired, or not as a server handed it out)");
      }
      parent = a.getInodeId();
    }
  }

  /** The directory the walk starts from: the root, or the last directory the client knows. */
  private Inode startDirectory(List<Ancestor> given, List<String> names, int start, String path,
      boolean destination, boolean entryHere) throws IOException {
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
    Inode record = ns.partition(last.getInodeId());
    if (record == null) {
      if (destination) {
        // A rename's destination directory lives on another slot: the rename spans slots.
        throw new ResolveElsewhereException(path, Resolution.newBuilder().addAllAncestors(given).build(), true);
      }
      throw stale(path, last);
    }
    if ((record.flags & Inode.FLAG_SEALED) != 0) {
      throw IndexFsException.notFound(PathNames.join(names, start));
    }
    Inode dir = record;
    if (entryHere) {
      // The entry itself is on this slot: read it, it is authoritative.
      dir = start == 0 ? ns.root() : ns.lookup(given.get(start - 1).getInodeId(), names.get(start - 1));
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

  /** Stops at depth {@code at}: what the client needs to go on at the slot holding the next entry. */
  private ResolveElsewhereException elsewhere(String path, List<String> names, Inode[] inodes, boolean[] local,
      int at, boolean destination, List<Ancestor> given) throws IOException {
    Resolution.Builder r = Resolution.newBuilder();
    for (int i = 0; i <= at; i++) {
      Ancestor.Builder a;
      if (local[i]) {
        // Read from its entry, which lives on this slot: this slot grants its lease and vouches for it.
        a = toAncestor(inodes[i]);
        long parent = i == 0 ? InodeIds.NO_PARENT : inodes[i - 1].inodeId;
        String name = i == 0 ? "" : names.get(i - 1);
        a.setLeaseMs(i == 0 ? leases.grant(InodeIds.NO_PARENT, "", 0) : leases.grant(parent, name, i));
        seal.seal(a, parent, name);
      } else {
        // Presented by the client, sealed by the server that read it: passed on as it came.
        a = given.get(i).toBuilder().clearLeaseMs().clearBitmap();
      }
      if (ns.partition(inodes[i].inodeId) != null) {
        PartitionBitmap b = ns.bitmap(inodes[i].inodeId);
        if (b.count() > 1) {
          a.setBitmap(ByteString.copyFrom(b.toBytes()));
        }
      }
      r.addAncestors(a);
    }
    return new ResolveElsewhereException(path, r.build(), destination);
  }

  public Ancestor.Builder toAncestor(Inode dir) throws IOException {
    Ancestor.Builder a = Ancestor.newBuilder().setInodeId(dir.inodeId).setPermission(dir.permission)
        .setOwner(ns.principals().nameOf(dir.ownerId)).setGroup(ns.principals().nameOf(dir.groupId))
        .setZerothSlot(dir.zerothSlot).setFlags(dir.flags & Inode.RECORD_FLAGS & ~Inode.FLAG_SEALED);
    byte[] acl = dir.acl != null || !dir.has(Inode.FLAG_ACL) ? dir.acl : ns.attrs().acl(dir.inodeId);
    if (acl != null) {
      a.setAcl(ByteString.copyFrom(acl));
    }
    String policy = OwnStoragePolicy.name(ns.attrs(), dir);
    if (policy != null) {
      a.setStoragePolicy(policy);
    }
    return a;
  }

  private Inode fromAncestor(Ancestor a) throws IOException {
    Inode dir = new Inode();
    dir.type = Inode.TYPE_DIRECTORY;
    dir.inodeId = a.getInodeId();
    dir.permission = a.getPermission();
    dir.ownerId = ns.principals().idOf(a.getOwner());
    dir.groupId = ns.principals().idOf(a.getGroup());
    dir.zerothSlot = a.getZerothSlot();
    dir.flags = a.getFlags() & Inode.RECORD_FLAGS & ~Inode.FLAG_SEALED;
    dir.acl = a.getAcl().isEmpty() ? null : a.getAcl().toByteArray();
    return dir;
  }
}
