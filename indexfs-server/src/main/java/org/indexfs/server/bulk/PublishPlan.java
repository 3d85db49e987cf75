package org.indexfs.server.bulk;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.giga.GigaIndex;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.common.schema.NameHash;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.Rejection;
import org.indexfs.server.op.OpContext;
import org.indexfs.server.store.NameIndex;
import org.rocksdb.EnvOptions;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileReader;
import org.rocksdb.SstFileReaderIterator;
import org.rocksdb.SstFileWriter;

/**
 * Validates a published SST file entry by entry and writes the accepted entries, in key order, to
 * the file the slot ingests (IndexFS §II-D: "the IndexFS server can detect this as it first parses
 * an SSTable bulk-inserted by a client"). Nothing is written to the namespace here.
 *
 * <p>An entry is accepted when its directory is inside the localized subtree (on the server or
 * accepted in this file), the publisher may write there (HDFS's WRITE|EXECUTE on the directory),
 * it is owned by the publisher, its inode id comes from the publisher's reserved blocks (a data
 * object must be named after it), its key matches its name, it lies in this slot's GIGA+ range,
 * and its name is free or the publisher's own. Collisions follow one rule that gives the same
 * result whatever order publishes arrive in: two directories of the same name merge (the new one's
 * entries move under the existing one); a directory beats a file; between two files published in
 * one shared localization the lowest client id wins. Everything else is refused, by name and
 * reason.
 */
final class PublishPlan {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PublishPlan.class);
  private final OpContext ctx;
  private final Localization localization;
  private final Localization.Holder publisher;
  private final Caller publisherCaller;
  private final int publisherUserId;
  private final Inode root;
  private final String rootPath;
  private final SubtreeDirs subtree;
  /** Null for a root on one slot; else how this plan takes part in a split root's publish. */
  private final Split split;

  /**
   * A publish into a localized root split across slots (GIGA+). On the root's home
   * ({@code participant} false) entries of the root whose names hash to another slot's partition
   * ({@code bitmap}: the root's whole bitmap, gathered from its slots) are validated here except for
   * their names, and written to that slot's share file under {@code shareBase}; directories the
   * partitions refused ({@code refusedElsewhere}) are refused with their entries. On a partition's
   * slot the plan validates one share: new directories are homed on {@code homeSlot} (their
   * partition records are written there), and a name held by a directory is refused (no merge).
   * {@code remote}: on the home, the directories of the subtree homed on other slots (made there
   * before the localization); their entries go to their slot's share, which validates them there.
   * {@code dirSplits}: on the home, the directories below the root that split across slots before
   * the localization, with their whole bitmaps; an entry goes to the slot of the partition its name
   * hashes to, as for the root.
   */
  record Split(PartitionBitmap bitmap, int homeSlot, boolean participant, Map<Long, String> refusedElsewhere,
      Path shareBase, Map<Long, Remote> remote, Map<Long, SubtreeDirs.Split> dirSplits) {
    Split(PartitionBitmap bitmap, int homeSlot, boolean participant, Map<Long, String> refusedElsewhere,
        Path shareBase, Map<Long, Remote> remote) {
      this(bitmap, homeSlot, participant, refusedElsewhere, shareBase, remote, Map.of());
    }
  }

  /** A directory of the subtree homed on slot {@code slot}: its entry (this slot's ids) and place. */
  record Remote(int slot, Inode dir, SubtreeDirs.Place place) {}

  private Remote remote(long dirId) {
    return split == null || split.participant() ? null : split.remote().get(dirId);
  }

  /** On the home: the slot of the partition of split subdirectory {@code dirId} holding {@code hash}; -1 if not one. */
  private int partitionSlot(long dirId, long hash) {
    SubtreeDirs.Split sp = split == null || split.participant() ? null : split.dirSplits().get(dirId);
    return sp == null ? -1 : GigaIndex.slotOf(sp.zerothSlot(), GigaIndex.partitionOf(hash, sp.bitmap()),
        ctx.partitions().slotCount());
  }

  /**
   * An import (bin/indexfs import, docs/import.md): entries keep their NameNode owners (already
   * translated to this slot's ids) and name existing HDFS files under {@code imported/} as their
   * objects, which must hold the entry's length.
   */
  private boolean importing;

  void importing() {
    this.importing = true;
  }

  /** Directories in the file: id → their key and value. */
  private final Map<Long, EntryKey> fileDirKeys = new HashMap<>();
  private final Map<Long, Inode> fileDirs = new HashMap<>();
  /** A directory of the file that merges into an existing one: its id → the existing id. */
  private final Map<Long, Long> merged = new HashMap<>();
  private final Map<Long, String> rejectedDirs = new HashMap<>();
  private final Map<Long, Inode> replacedFiles = new HashMap<>();
  /** Per directory: "" when the publisher may write there, else why not (one check per directory). */
  private final Map<Long, String> permitted = new HashMap<>();

  final List<Rejection> rejections = new ArrayList<>();
  final List<Inode> newDirs = new ArrayList<>();
  final Map<Long, SubtreeDirs.Place> newPlaces = new HashMap<>();
  final List<String> objectsToReclaim = new ArrayList<>();
  final Set<Long> touched = new HashSet<>();
  /** Accepted files with a data object: made 0600 by their writer, they become the file's after the ingest. */
  final List<Inode> objectFiles = new ArrayList<>();
  long accepted;
  /** Home of a split root: each other slot's share file (written when it has entries) and its entry count. */
  final Map<Integer, Path> shares = new TreeMap<>();
  final Map<Integer, Long> exported = new TreeMap<>();
  /** A partition's slot: the new directories of its share it refused. */
  final List<Long> refusedNewDirs = new ArrayList<>();
  private final Set<Long> reportedElsewhere = new HashSet<>();
  /** The first accepted entry that did not exist before (null: every accepted entry existed). */
  byte[] sentinelKey;
  long sentinelId;

  PublishPlan(OpContext ctx, Localization localization, Localization.Holder publisher, Inode root,
      String rootPath, SubtreeDirs subtree) throws IOException {
    this(ctx, localization, publisher, root, rootPath, subtree, null);
  }

  PublishPlan(OpContext ctx, Localization localization, Localization.Holder publisher, Inode root,
      String rootPath, SubtreeDirs subtree, Split split) throws IOException {
    this.split = split;
    this.ctx = ctx;
    this.localization = localization;
    this.publisher = publisher;
    this.root = root;
    this.rootPath = rootPath.endsWith("/") && rootPath.length() > 1
        ? rootPath.substring(0, rootPath.length() - 1) : rootPath;
    this.subtree = subtree;
    this.publisherCaller = Caller.newBuilder().setUser(publisher.user()).addAllGroups(publisher.groups())
        .setClientId(publisher.clientId()).build();
    this.publisherUserId = ctx.ns().principals().idOf(publisher.user());
  }

  /** Validates {@code in} and writes what is accepted to {@code out}; false when nothing was. */
  boolean run(Path in, Path out) throws IOException {
    try (Options options = new Options(); SstFileReader reader = new SstFileReader(options)) {
      reader.open(in.toString());
      try (ReadOptions read = new ReadOptions(); SstFileReaderIterator it = reader.newIterator(read)) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          Inode v = decode(it.value());
          if (v != null && v.isDirectory()) {
            fileDirKeys.put(v.inodeId, EntryKey.decode(it.key()));
            fileDirs.put(v.inodeId, v);
          }
        }
        for (long id : fileDirs.keySet()) {
          decideDirectory(id);
        }
        return write(it, out);
      }
    } catch (RocksDBException e) {
      // Nothing of the file in the answer (RocksDB's message quotes its bytes): the log has it.
      LOG.debug("A published file of {} is not a readable SST: {}", publisher.clientId(), e.toString());
      throw new IndexFsException(Code.BAD_REQUEST, "Published file is not a readable SST");
    }
  }

  private static Inode decode(byte[] value) {
    try {
      return Inode.decode(value);
    } catch (RuntimeException corrupt) {
      return null;
    }
  }

  /** Where the entries of directory {@code id} go: the existing directory it merged into, or itself. */
  private long target(long id) {
    Long to = merged.get(id);
    return to == null ? id : to;
  }

  private boolean decided(long id) {
    return merged.containsKey(id) || rejectedDirs.containsKey(id) || newPlaces.containsKey(id);
  }

  /**
   * Accepts, merges or refuses a directory of the file, after its parents in the file (memoized).
   * A loop, not a recursion: a published file may hold a chain of directories of any depth.
   */
  private void decideDirectory(long id) throws IOException {
    java.util.ArrayDeque<Long> chain = new java.util.ArrayDeque<>();
    Set<Long> onChain = new HashSet<>();
    for (long at = id; !decided(at) && onChain.add(at); ) {
      chain.push(at);
      long parent = fileDirKeys.get(at).parentId();
      if (!fileDirs.containsKey(parent)) {
        break;
      }
      at = parent;
    }
    while (!chain.isEmpty()) {
      long dirId = chain.pop();
      EntryKey key = fileDirKeys.get(dirId);
      if (fileDirs.containsKey(key.parentId())) {
        if (key.parentId() == dirId) {
          rejectedDirs.put(dirId, "a directory cannot contain itself");
          continue;
        }
        // Undecided here only when the two are in a cycle of the file's directories.
        if (!decided(key.parentId()) || rejectedDirs.containsKey(key.parentId())) {
          rejectedDirs.put(dirId, "its directory was refused");
          continue;
        }
      }
      decideOne(dirId, key);
    }
  }

  /** Accepts, merges or refuses directory {@code id} of the file, whose parent is decided. */
  private void decideOne(long id, EntryKey key) throws IOException {
    Inode dir = fileDirs.get(id);
    long parent = target(key.parentId());
    Inode existing = lookupHere(parent, key);
    if (existing != null && existing.isDirectory() && !(existing.inodeId == id && publisher.owns(id))) {
      if (split != null && split.participant()) {
        rejectedDirs.put(id, "FILE_ALREADY_EXISTS: a directory holds the name (a new directory does not merge into "
            + "an existing one in a directory split across slots)");
        return;
      }
      merged.put(id, existing.inodeId);
      return;
    }
    String elsewhere = split == null ? null : split.refusedElsewhere().get(id);
    if (elsewhere != null) {
      rejectedDirs.put(id, elsewhere);
      reportedElsewhere.add(id);
      return;
    }
    String refusal = refusal(key, dir, parent);
    if (refusal == null && existing != null && !existing.isDirectory()) {
      refusal = replaceFile(parent, key.name(), existing, dir);
    }
    if (refusal != null) {
      rejectedDirs.put(id, refusal);
      return;
    }
    newPlaces.put(id, new SubtreeDirs.Place(parent, key.name(), relPath(parent) + "/" + key.name()));
  }

  /** Why {@code v} (to be stored under {@code parent}) is refused, or null. */
  private String refusal(EntryKey key, Inode v, long parent) throws IOException {
    String name = key.name();
    if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0
        || name.getBytes(StandardCharsets.UTF_8).length > 255) {
      return "invalid name";
    }
    if (key.nameHash() != NameHash.of(name)) {
      return "its key's hash does not match its name";
    }
    if ((v.type != Inode.TYPE_FILE && v.type != Inode.TYPE_DIRECTORY) || v.flags != 0) {
      return "not a closed file or a directory";
    }
    if (!publisher.owns(v.inodeId)) {
      return "inode id " + v.inodeId + " is not from the ids reserved for client " + publisher.clientId();
    }
    if (importing) {
      String unknown = unknownPrincipal(v);
      if (unknown != null) {
        return unknown;
      }
    } else if (v.ownerId != publisherUserId) {
      return "its owner is not the publisher " + publisher.user();
    }
    if ((v.permission & ~Permission.MASK) != 0) {
      return "invalid permission";
    }
    Inode dir = directory(parent);
    if (dir == null) {
      return "its directory is not inside the localized subtree";
    }
    // An entry of a directory homed on another slot going there: that slot checks, with its ACLs,
    // when it prepares its share (one of its partitions here: checked here).
    boolean checkedThere = remote(parent) != null && exportSlot(parent, key.nameHash()) >= 0;
    String denied = checkedThere ? "" : permitted.computeIfAbsent(parent, id -> {
      try {
        ctx.access().checkSubtreeDirectory(publisherCaller, rootPath + relPath(id), dir, Permission.WRITE_EXECUTE);
        return "";
      } catch (IOException e) {
        return e.getMessage();
      }
    });
    if (!denied.isEmpty()) {
      return denied;
    }
    if (ownerOf(dir, parent, key.nameHash()) != ctx.ns().slot() && exportSlot(parent, key.nameHash()) < 0) {
      return "its directory's partition for this name is on another slot (its directory split or moved during "
          + "the localization)";
    }
    int home = split == null ? ctx.ns().slot() : split.homeSlot();
    if (v.isDirectory()) {
      return v.zerothSlot == home ? null : "a new directory must be homed on slot " + home;
    }
    if (v.replication <= 0 || v.blockSize <= 0) {
      return "invalid replication or block size";
    }
    if (v.inlineData != null) {
      return v.inlineData.length == v.length && v.length <= ctx.inlineMaxBytes() ? null
          : "inline bytes do not match its length or exceed indexfs.inline.max-bytes";
    }
    if (v.dataObject != null && importing) {
      if (!ImportedObjects.isImported(v.dataObject)) {
        return "data object " + v.dataObject + " is not under " + ImportedObjects.ROOT + "/";
      }
      long stored = ctx.data().length(v.dataObject);
      return stored == v.length ? null : stored < 0 ? "data object " + v.dataObject + " does not exist"
          : "data object " + v.dataObject + " holds " + stored + " bytes, not " + v.length;
    }
    if (v.dataObject != null) {
      if (!v.dataObject.equals(publisher.objectName(v.inodeId))) {
        return "data object " + v.dataObject + " is not the name reserved for it";
      }
      // The publisher's own object (it is about to be given the file's owner): never another user's.
      long stored = ctx.data().lengthWrittenBy(v.dataObject, publisher.user());
      if (stored == -2) {
        return "data object " + v.dataObject + " was not written by " + publisher.user();
      }
      return stored == v.length ? null : "data object " + v.dataObject + " holds " + stored + " bytes, not " + v.length;
    }
    return v.length == 0 ? null : "a non-empty file without bytes";
  }

  private String unknownPrincipal(Inode v) {
    try {
      ctx.ns().principals().nameOf(v.ownerId);
      ctx.ns().principals().nameOf(v.groupId);
      return null;
    } catch (IllegalStateException e) {
      return "its owner or group is not named in the import";
    }
  }

  private final Map<Integer, SstFileWriter> shareWriters = new TreeMap<>();

  private SstFileWriter shareWriter(EnvOptions env, Options options, int slot) throws RocksDBException {
    SstFileWriter w = shareWriters.get(slot);
    if (w == null) {
      Path file = split.shareBase().resolveSibling(split.shareBase().getFileName() + "-" + slot + ".sst");
      w = new SstFileWriter(env, options);
      w.open(file.toString());
      shareWriters.put(slot, w);
      shares.put(slot, file);
    }
    return w;
  }

  /** The slot whose partition holds {@code hash} in {@code dir} (the root's whole bitmap on a split root's home). */
  private int ownerOf(Inode dir, long parent, long hash) throws IOException {
    if (split != null && !split.participant() && parent == root.inodeId) {
      return GigaIndex.slotOf(root.zerothSlot, GigaIndex.partitionOf(hash, split.bitmap()), ctx.partitions().slotCount());
    }
    int partition = partitionSlot(parent, hash);
    return partition >= 0 ? partition : ctx.partitions().ownerOf(dir, hash);
  }

  /**
   * On the home of a publish spanning slots: the other slot an entry goes to (its partition's, for
   * the root or a subdirectory that split; its directory's home, for one homed elsewhere); -1 when
   * it stays here.
   */
  private int exportSlot(long parent, long hash) throws IOException {
    int partition = partitionSlot(parent, hash);
    if (partition >= 0) {
      // A subdirectory that split before the localization: the partition's slot, maybe this one.
      return partition == ctx.ns().slot() ? -1 : partition;
    }
    Remote r = remote(parent);
    if (r != null) {
      return r.slot();
    }
    if (split == null || split.participant() || parent != root.inodeId) {
      return -1;
    }
    int owner = ownerOf(root, parent, hash);
    return owner == ctx.ns().slot() ? -1 : owner;
  }

  /** The entry of that name in {@code parent} if this slot holds its partition (null for another slot's share). */
  private Inode lookupHere(long parent, EntryKey key) throws IOException {
    return exportSlot(parent, key.nameHash()) >= 0 ? null : ctx.ns().lookup(parent, key.name());
  }

  /** A directory entries may go into: one made in this file, or one of the subtree on the server. */
  private Inode directory(long id) throws IOException {
    if (newPlaces.containsKey(id)) {
      return fileDirs.get(id);
    }
    if (id == root.inodeId) {
      return root;
    }
    Remote r = remote(id);
    if (r != null) {
      return r.dir();
    }
    SubtreeDirs.Place place = subtree.get(id);
    if (place == null) {
      return null;
    }
    Inode here = ctx.ns().lookup(place.parentId(), place.name());
    // A directory whose entry is on another slot (a split root's partition, or a directory homed
    // here inside one homed elsewhere): its record here, as its home.
    return here != null ? here : ctx.ns().partition(id);
  }

  /** The path of directory {@code dirId} below the localized root (a loop: chains may be deep). */
  private String relPath(long dirId) {
    List<String> names = new ArrayList<>();
    Set<Long> seen = new HashSet<>();
    String top;
    for (long at = dirId; ; ) {
      SubtreeDirs.Place p = newPlaces.get(at);
      if (p == null) {
        p = subtree.get(at);
      }
      if (p == null && remote(at) != null) {
        p = remote(at).place();
      }
      if (p != null) {
        top = p.relPath();
        break;
      }
      EntryKey k = fileDirKeys.get(at);
      if (k == null || !seen.add(at)) {
        top = "/?" + at; // unknown, or a cycle of the file's directories
        break;
      }
      names.add(k.name());
      at = k.parentId();
    }
    StringBuilder path = new StringBuilder(top);
    for (int i = names.size() - 1; i >= 0; i--) {
      path.append('/').append(names.get(i));
    }
    return path.toString();
  }

  /**
   * The conflict rule for a name held by an existing file: the publisher's own file is replaced;
   * a file of another holder of this shared localization loses to a directory, and to a file of a
   * lower client id; anything else keeps the name.
   */
  private String replaceFile(long parent, String name, Inode existing, Inode incoming) {
    if (publisher.owns(existing.inodeId)) {
      return replacing(parent, name, existing, null);
    }
    Localization.Holder other = localization.ownerOf(existing.inodeId);
    if (other == null) {
      return "FILE_ALREADY_EXISTS: the name is taken";
    }
    if (incoming.isDirectory() || publisher.clientId().compareTo(other.clientId()) < 0) {
      return replacing(parent, name, existing, other.clientId());
    }
    return "conflict: client " + other.clientId() + " published this name and wins (lowest client id wins)";
  }

  private String replacing(long parent, String name, Inode existing, String loser) {
    replacedFiles.put(existing.inodeId, existing);
    if (existing.dataObject != null) {
      objectsToReclaim.add(existing.dataObject);
    }
    if (loser != null) {
      rejections.add(Rejection.newBuilder().setPath(rootPath + relPath(parent) + "/" + name)
          .setCode(Code.OK).setReason("replaced the file client " + loser + " published (lowest client id wins)").build());
    }
    return null;
  }

  private boolean write(SstFileReaderIterator it, Path out) throws IOException, RocksDBException {
    Path direct = out.resolveSibling(out.getFileName() + ".direct");
    TreeMap<byte[], byte[]> moved = new TreeMap<>(Arrays::compareUnsigned);
    long directCount = 0;
    try (EnvOptions env = new EnvOptions(); Options options = new Options();
        SstFileWriter writer = new SstFileWriter(env, options)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        byte[] value = it.value();
        EntryKey key;
        Inode v = decode(value);
        try {
          key = EntryKey.decode(it.key());
        } catch (RuntimeException corrupt) {
          rejections.add(reject("?", Code.BAD_REQUEST, "undecodable key"));
          continue;
        }
        byte[] accepted = decideEntry(key, v);
        if (accepted == null) {
          continue;
        }
        long parent = target(key.parentId());
        byte[] newKey = parent == key.parentId() ? it.key() : new EntryKey(parent, key.nameHash(), key.name()).encode();
        int to = exportSlot(parent, key.nameHash());
        if (to >= 0) {
          shareWriter(env, options, to).put(newKey, accepted);
        } else if (parent != key.parentId()) {
          moved.put(newKey, accepted);
        } else {
          if (directCount++ == 0) {
            writer.open(direct.toString());
          }
          writer.put(newKey, accepted);
        }
      }
      if (directCount > 0) {
        writer.finish();
      }
      for (SstFileWriter w : shareWriters.values()) {
        w.finish();
      }
    } finally {
      shareWriters.values().forEach(SstFileWriter::close);
    }
    if (moved.isEmpty()) {
      if (directCount > 0) {
        Files.move(direct, out);
      }
      return directCount > 0;
    }
    merge(direct, directCount > 0, moved, out);
    Files.deleteIfExists(direct);
    return true;
  }

  /** Validates one entry of the file; the value to ingest, or null when refused (and reported) or merged. */
  private byte[] decideEntry(EntryKey key, Inode v) throws IOException {
    String path;
    if (v == null) {
      rejections.add(reject(rootPath + relPath(key.parentId()) + "/" + key.name(), Code.BAD_REQUEST, "undecodable value"));
      return null;
    }
    if (v.isDirectory() && fileDirs.containsKey(v.inodeId)) {
      if (merged.containsKey(v.inodeId)) {
        return null;
      }
      String refused = rejectedDirs.get(v.inodeId);
      if (refused != null) {
        if (split != null && split.participant()) {
          refusedNewDirs.add(v.inodeId);
        }
        if (!reportedElsewhere.contains(v.inodeId)) {
          rejections.add(reject(rootPath + relPath(key.parentId()) + "/" + key.name(),
              refused.startsWith("FILE_ALREADY_EXISTS") ? Code.FILE_ALREADY_EXISTS : Code.ACCESS_DENIED, refused));
        }
        return null;
      }
      long parent = target(key.parentId());
      if (split == null || !split.participant()) {
        newDirs.add(normalized(v, directory(parent)));
      }
      touched.add(parent);
      return accept(parent, key, v, lookupHere(parent, key));
    }
    long parent = target(key.parentId());
    if (fileDirs.containsKey(key.parentId()) && rejectedDirs.containsKey(key.parentId())) {
      rejections.add(reject(rootPath + relPath(parent) + "/" + key.name(), Code.ACCESS_DENIED, "its directory was refused"));
      return null;
    }
    String refusal = refusal(key, v, parent);
    Inode existing = refusal == null ? lookupHere(parent, key) : null;
    if (refusal == null && existing != null) {
      refusal = existing.isDirectory() ? "FILE_ALREADY_EXISTS: a directory holds the name"
          : replaceFile(parent, key.name(), existing, v);
    }
    if (refusal != null) {
      path = rootPath + relPath(parent) + "/" + key.name();
      rejections.add(reject(path, refusal.startsWith("FILE_ALREADY_EXISTS") ? Code.FILE_ALREADY_EXISTS
          : refusal.startsWith("Permission denied") ? Code.ACCESS_DENIED : Code.BAD_REQUEST, refusal));
      return null;
    }
    touched.add(parent);
    return accept(parent, key, v, existing);
  }

  private byte[] accept(long parent, EntryKey key, Inode v, Inode existing) throws IOException {
    Inode stored = normalized(v, directory(parent));
    if (stored.dataObject != null) {
      objectFiles.add(stored);
    }
    int to = exportSlot(parent, key.nameHash());
    if (to >= 0) {
      exported.merge(to, 1L, Long::sum);
      return stored.encode(); // its slot counts it, and checks its name there
    }
    accepted++;
    // An entry whose id was not there before tells, after a crash, whether the ingest happened.
    if (sentinelKey == null && (existing == null || existing.inodeId != v.inodeId)) {
      sentinelKey = new EntryKey(parent, key.nameHash(), key.name()).encode();
      sentinelId = v.inodeId;
    }
    return stored.encode();
  }

  /**
   * Writes the name-index records ({@link NameIndex}) of every entry in {@code entriesFile} — the
   * file to be ingested, after merges and replacements — to {@code out}, in the index's key order:
   * the index then holds exactly the names the entries hold. False when there are none.
   */
  static boolean writeNames(Path entriesFile, Path out) throws IOException {
    List<byte[][]> records = new ArrayList<>();
    try (Options options = new Options(); SstFileReader reader = new SstFileReader(options);
        ReadOptions read = new ReadOptions()) {
      reader.open(entriesFile.toString());
      try (SstFileReaderIterator it = reader.newIterator(read)) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          EntryKey k = EntryKey.decode(it.key());
          records.add(new byte[][] {NameIndex.key(k.parentId(), k.name()), NameIndex.value(Inode.decode(it.value()))});
        }
      }
      if (records.isEmpty()) {
        return false;
      }
      // Entries are in hash order within a directory, the index in (HDFS) name order.
      records.sort((a, b) -> Arrays.compareUnsigned(a[0], b[0]));
      try (EnvOptions env = new EnvOptions(); SstFileWriter writer = new SstFileWriter(env, options)) {
        writer.open(out.toString());
        for (byte[][] r : records) {
          writer.put(r[0], r[1]);
        }
        writer.finish();
      }
      return true;
    } catch (RocksDBException e) {
      throw new IOException("Cannot write the name index file " + out + ": " + e.getMessage(), e);
    }
  }

  /**
   * The BSD rule decides a new entry's group, as for every create: its directory's. An import keeps
   * the group the entry had on the NameNode (docs/import.md).
   */
  private Inode normalized(Inode v, Inode dir) {
    Inode out = v.copy();
    if (!importing) {
      out.groupId = dir.groupId;
    }
    return out;
  }

  private static Rejection reject(String path, Code code, String reason) {
    return Rejection.newBuilder().setPath(path).setCode(code).setReason(reason).build();
  }

  /** Writes the direct entries and the moved ones (re-keyed under merged directories) in one key order. */
  private static void merge(Path direct, boolean hasDirect, TreeMap<byte[], byte[]> moved, Path out)
      throws RocksDBException {
    try (EnvOptions env = new EnvOptions(); Options options = new Options();
        SstFileWriter writer = new SstFileWriter(env, options);
        SstFileReader reader = new SstFileReader(options); ReadOptions read = new ReadOptions()) {
      writer.open(out.toString());
      Iterator<Map.Entry<byte[], byte[]>> m = moved.entrySet().iterator();
      Map.Entry<byte[], byte[]> next = m.next();
      if (hasDirect) {
        reader.open(direct.toString());
        try (SstFileReaderIterator it = reader.newIterator(read)) {
          for (it.seekToFirst(); it.isValid(); it.next()) {
            byte[] k = it.key();
            while (next != null && Arrays.compareUnsigned(next.getKey(), k) < 0) {
              writer.put(next.getKey(), next.getValue());
              next = m.hasNext() ? m.next() : null;
            }
            if (next != null && Arrays.equals(next.getKey(), k)) {
              next = m.hasNext() ? m.next() : null; // the same name both ways: the direct entry stays
            }
            writer.put(k, it.value());
          }
        }
      }
      while (next != null) {
        writer.put(next.getKey(), next.getValue());
        next = m.hasNext() ? m.next() : null;
      }
      writer.finish();
    }
  }
}
