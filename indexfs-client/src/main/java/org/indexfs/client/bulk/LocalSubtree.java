package org.indexfs.client.bulk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.indexfs.client.DirectoryListing;
import org.indexfs.client.IndexFsClient;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.PathNames;
import org.indexfs.common.Permission;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Code;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.FileType;
import org.indexfs.proto.LocalizeGrant;
import org.indexfs.proto.PublishResult;

/**
 * A subtree this client has localized (IndexFS §II-D): creates, mkdirs, stats, listings, renames
 * and deletes of what it made run here, against a {@link LocalStore} holding entries exactly as the
 * server stores them, named with inode ids from the blocks the server reserved. {@link #publish}
 * writes them as one SST file and has the server ingest it. What the server already holds (earlier
 * publishes, other sharers') is asked for only when a name might be there: a directory made here
 * is known entirely (in private mode no one else adds to it), and names published by this client
 * are remembered in a Bloom filter.
 *
 * <p>An operation that cannot run here (it touches what is on the server) throws {@link NotLocal}:
 * the caller publishes what is pending and runs it on the server, where a holder may mutate.
 * Every method is synchronized: one subtree, one lock.
 */
public final class LocalSubtree {
  /** The operation must run on the server (after a publish of what is pending). */
  public static final class NotLocal extends IOException {
    NotLocal(String why) {
      super(why);
    }
  }

  /** A file created here: its id (its status on demand), and the data object of a file it replaced (to delete). */
  public final class Created {
    private final String name;
    private final Inode inode;
    private final String replacedObject;

    Created(String name, Inode inode, String replacedObject) {
      this.name = name;
      this.inode = inode;
      this.replacedObject = replacedObject;
    }

    public long inodeId() {
      return inode.inodeId;
    }

    public FileStatus status() {
      return LocalSubtree.this.status(name, inode);
    }

    public String replacedObject() {
      return replacedObject;
    }
  }

  private final IndexFsClient client;
  private final String root;
  private final List<String> rootNames;
  private final long rootId;
  private final boolean shared;
  private final int ownerId;
  private final int groupId;
  private final String user;
  private final String group;
  private final int home;
  private final int inlineMax;
  private final String objectPrefix;
  /** The storage policy its data objects are created with (the grant's; "": the data tier's default). */
  private final String objectPolicy;
  private final LocalStore pending;
  private final SstShipper shipper;
  private final long bufferEntries;
  private final long dataLimit;
  private final IdBlocks ids = new IdBlocks();
  private final Map<String, Long> dirs = new HashMap<>();
  /** Directories every entry of which this client knows: pending here, or published by it. */
  private final Set<Long> known = new HashSet<>();
  private final Set<Long> publishedInto = new HashSet<>();
  private final Map<Long, byte[]> open = new HashMap<>();
  private PublishedNames published;
  private int idsWanted = 65_536;
  private long dataBytes;
  /** Read by the renewer without the lock. */
  private volatile boolean ending;
  private volatile boolean ended;
  /** Few ids left: the next renewal asks for more (kept under the lock, read by the renewer). */
  private volatile boolean idsLow;
  private PublishResult lastResult = PublishResult.getDefaultInstance();
  /** Whether a publish shipped a file: only then is there a publish directory to remove at the end. */
  private boolean shippedAny;

  LocalSubtree(IndexFsClient client, String root, LocalizeGrant grant, boolean rootEmpty, LocalStore pending,
      SstShipper shipper, long bufferEntries, long dataLimit) throws IOException {
    this.client = client;
    this.root = root;
    this.rootNames = PathNames.components(root, Integer.MAX_VALUE);
    this.rootId = grant.getDirId();
    this.shared = grant.getShared();
    this.ownerId = grant.getOwnerId();
    this.groupId = grant.getGroupId();
    this.user = client.caller().getUser();
    this.group = grant.getDirectory().getGroup();
    this.home = grant.getDirectory().getZerothSlot();
    this.inlineMax = grant.getInlineMaxBytes();
    this.objectPrefix = grant.getObjectPrefix();
    this.objectPolicy = grant.getStoragePolicy();
    this.pending = pending;
    this.shipper = shipper;
    this.bufferEntries = bufferEntries;
    this.dataLimit = dataLimit;
    grant.getBlocksList().forEach(ids::add);
    dirs.put(root, rootId);
    if (rootEmpty && !shared) {
      known.add(rootId);
    }
  }

  public String root() {
    return root;
  }

  public long rootId() {
    return rootId;
  }

  /** True when {@code path} lies below the localized directory (the directory itself is the server's). */
  public boolean contains(String path) {
    return path.length() > root.length() && path.startsWith(root)
        && (root.equals("/") || path.charAt(root.length()) == '/');
  }

  /** True once the holder gave the lease up: its paths are the server's again. */
  public boolean ended() {
    return ended;
  }

  /** True when this holder must publish and end (renewal denied, or heavy data writing). */
  public boolean ending() {
    return ending;
  }

  public synchronized long pendingEntries() {
    return pending.size();
  }

  /** Names below the root, or refused when {@code path} is not below it. */
  private List<String> below(String path) throws IOException {
    if (contains(path) && path.indexOf("//") < 0 && !path.endsWith("/")) {
      // The common case, without re-checking the root's own components.
      List<String> out = new ArrayList<>(4);
      int from = root.equals("/") ? 1 : root.length() + 1;
      for (int i = from; i <= path.length(); i++) {
        if (i == path.length() || path.charAt(i) == '/') {
          String part = path.substring(from, i);
          PathNames.checkComponent(path, from == 1 ? PathNames.ROOT : path.substring(0, from - 1), part, 255);
          out.add(part);
          from = i + 1;
        }
      }
      return out;
    }
    List<String> all = PathNames.components(path, 255);
    if (all.size() <= rootNames.size() || !all.subList(0, rootNames.size()).equals(rootNames)) {
      throw new NotLocal(path + " is not below " + root);
    }
    return all.subList(rootNames.size(), all.size());
  }

  private static String join(String base, List<String> names, int count) {
    StringBuilder b = new StringBuilder(base.equals("/") ? "" : base);
    for (int i = 0; i < count; i++) {
      b.append('/').append(names.get(i));
    }
    return b.toString();
  }

  private static byte[] key(long parent, String name) {
    return EntryKey.of(parent, name).encode();
  }

  /** The entry {@code name} of {@code parent} as far as a read must know it (pending, else the server's). */
  private Inode lookup(long parent, String name, String path, boolean forCreate) throws IOException {
    return lookup(parent, key(parent, name), path, forCreate);
  }

  private Inode lookup(long parent, byte[] k, String path, boolean forCreate) throws IOException {
    byte[] v = pending.get(k);
    if (v != null) {
      return Inode.decode(v);
    }
    return lookupPublished(parent, k, path, forCreate);
  }

  /** The entry {@code k} as published (on the server), when it is not pending here. */
  private Inode lookupPublished(long parent, byte[] k, String path, boolean forCreate) throws IOException {
    if (known.contains(parent) && (published == null || !published.mightContain(k))) {
      return null;
    }
    if (forCreate && shared && !known.contains(parent)) {
      return null; // shared: others publish here too; the conflict rule decides at ingest
    }
    try {
      FileStatus s = client.getFileStatus(path);
      Inode i = new Inode();
      i.type = s.getType() == FileType.DIRECTORY ? Inode.TYPE_DIRECTORY : Inode.TYPE_FILE;
      i.inodeId = s.getInodeId();
      return i;
    } catch (IndexFsException e) {
      if (e.code() == Code.FILE_NOT_FOUND) {
        return null;
      }
      throw e;
    }
  }

  /** The id of the directory {@code names[0..count)} below the root, made here when missing and {@code create}. */
  private long directory(List<String> names, int count, boolean create, int permission, long now) throws IOException {
    long parent = rootId;
    for (int i = 0; i < count; i++) {
      String path = join(root, names, i + 1);
      Long cached = dirs.get(path);
      if (cached != null) {
        parent = cached;
        continue;
      }
      Inode entry = lookup(parent, names.get(i), path, false);
      if (entry == null) {
        if (!create) {
          throw IndexFsException.notFound(path);
        }
        entry = newDirectory(parent, names.get(i),
            i == count - 1 ? permission : Permission.withImplicitUserWriteExecute(permission), now);
      } else if (!entry.isDirectory()) {
        throw IndexFsException.parentNotDirectory(path);
      }
      dirs.put(path, entry.inodeId);
      parent = entry.inodeId;
    }
    return parent;
  }

  private Inode newDirectory(long parent, String name, int permission, long now) throws IOException {
    Inode d = new Inode();
    d.type = Inode.TYPE_DIRECTORY;
    d.inodeId = nextId();
    d.permission = permission & Permission.MASK;
    d.ownerId = ownerId;
    d.groupId = groupId;
    d.mtime = d.atime = now;
    d.zerothSlot = home;
    pending.put(key(parent, name), d.encode());
    known.add(d.inodeId);
    return d;
  }

  private long nextId() throws IOException {
    long id = ids.next();
    if (!idsLow && ids.remaining() < idsWanted / 4) {
      idsLow = true;
    }
    if (id < 0) {
      LocalizeGrant more = client.renewLocalization(root, idsWanted);
      idsWanted = Math.min(idsWanted * 2, 1 << 20);
      more.getBlocksList().forEach(ids::add);
      if (more.getRenewalDenied()) {
        ending = true;
      }
      id = ids.next();
      if (id < 0) {
        throw new NotLocal("No inode ids left for " + root + " (renewal denied): publish and continue on the server");
      }
    }
    return id;
  }

  public synchronized boolean mkdirs(String path, int permission) throws IOException {
    checkLive();
    PathNames.checkPathLength("mkdirs", path); // as the server would (HDFS's NameNode)
    List<String> names = below(path);
    long parent = directory(names, names.size() - 1, true, Permission.withImplicitUserWriteExecute(permission),
        System.currentTimeMillis());
    Inode existing = lookup(parent, names.get(names.size() - 1), path, true);
    if (existing != null) {
      if (existing.isDirectory()) {
        dirs.put(path, existing.inodeId);
        return true;
      }
      throw new IndexFsException(Code.FILE_ALREADY_EXISTS, "Path is not a directory: " + path);
    }
    Inode d = newDirectory(parent, names.get(names.size() - 1), permission, System.currentTimeMillis());
    dirs.put(path, d.inodeId);
    return true;
  }

  /** Set for an import (docs/import.md): owner/group ids of the entries → names; null otherwise. */
  private Map<Integer, String> importPrincipals;

  /** Makes this holder an importer: its publishes carry {@code principals} and land whole or not at all. */
  public synchronized void importing(Map<Integer, String> principals) {
    this.importPrincipals = principals;
  }

  /**
   * An imported entry (docs/import.md) under directory {@code parent} (the root's id, or one
   * returned here before): {@code entry} as the NameNode had it, its ids in the import's own
   * principal table; it gets an inode id from this holder's blocks, returned. Past
   * {@code bufferEntries} pending entries what is pending is published (each publish whole or not
   * at all).
   */
  public synchronized long putImported(long parent, String name, Inode entry) throws IOException {
    checkLive();
    if (importPrincipals == null) {
      throw new IllegalStateException("Not an importing holder");
    }
    entry.inodeId = nextId();
    entry.zerothSlot = home;
    pending.put(key(parent, name), entry.encode());
    if (entry.isDirectory()) {
      known.add(entry.inodeId);
    }
    if (pending.size() >= bufferEntries) {
      PublishResult r = publish(false);
      if (r.getRejectedCount() > 0) {
        throw new IndexFsException(Code.BAD_REQUEST, "Import publish refused: " + r.getRejected(0).getPath() + ": "
            + r.getRejected(0).getReason());
      }
    }
    return entry.inodeId;
  }

  /**
   * Replaces the pending imported entry {@code name} of {@code parent} with {@code entry}, which
   * keeps the old one's inode id (so what it holds stays under it); returns the old one.
   */
  public synchronized Inode replaceImported(long parent, String name, Inode entry) throws IOException {
    checkLive();
    if (importPrincipals == null) {
      throw new IllegalStateException("Not an importing holder");
    }
    byte[] k = key(parent, name);
    byte[] v = pending.get(k);
    if (v == null) {
      throw new IOException("Imported entry " + name + " of directory " + parent + " is not pending here");
    }
    Inode old = Inode.decode(v);
    if (old.isDirectory() != entry.isDirectory()) {
      throw new IOException("Imported entry " + name + " changed between file and directory: it must be read anew");
    }
    entry.inodeId = old.inodeId;
    entry.zerothSlot = old.zerothSlot;
    pending.put(k, entry.encode());
    return old;
  }

  /**
   * Drops the pending imported entry {@code name} of {@code parent} and all it holds, or with
   * {@code name} null everything under {@code parent}; deletes no data object (they are the
   * NameNode's files). Returns the entries dropped (none when nothing was pending there). An fsimage
   * import uses it for entries the NameNode changed after the image (docs/import.md).
   */
  public synchronized List<Inode> dropImported(long parent, String name) throws IOException {
    checkLive();
    if (importPrincipals == null) {
      throw new IllegalStateException("Not an importing holder");
    }
    List<Inode> dropped = new ArrayList<>();
    Deque<Long> todo = new ArrayDeque<>();
    if (name == null) {
      todo.add(parent);
    } else {
      byte[] k = key(parent, name);
      byte[] v = pending.get(k);
      if (v == null) {
        return dropped;
      }
      Inode entry = Inode.decode(v);
      dropped.add(entry);
      pending.delete(k);
      if (entry.isDirectory()) {
        todo.add(entry.inodeId);
      }
    }
    while (!todo.isEmpty()) {
      for (Map.Entry<byte[], byte[]> child : pending.scan(EntryKey.prefix(todo.poll()))) {
        Inode c = Inode.decode(child.getValue());
        dropped.add(c);
        if (c.isDirectory()) {
          todo.add(c.inodeId);
        }
        pending.delete(child.getKey());
      }
    }
    return dropped;
  }

  /** A new file, empty and closed as far as readers here can tell, until {@link #complete}. */
  public synchronized Created create(String path, int permission, boolean overwrite, int replication, long blockSize)
      throws IOException {
    checkLive();
    PathNames.checkPathLength("create", path); // as the server would (HDFS's NameNode)
    List<String> names = below(path);
    long now = System.currentTimeMillis();
    Long cachedParent = names.size() > 1 ? dirs.get(path.substring(0, path.lastIndexOf('/'))) : Long.valueOf(rootId);
    long parent = cachedParent != null ? cachedParent
        : directory(names, names.size() - 1, true, Permission.withImplicitUserWriteExecute(0755), now);
    String name = names.get(names.size() - 1);
    byte[] k = key(parent, name);
    Inode f = newFile(permission, replication, blockSize, now);
    // One store operation for the common case (a new name): put first, and put back what was there
    // if the create is refused. A sorted buffer's lookup and insert are each a walk down the tree.
    byte[] before = pending.swap(k, f.encode());
    String replaced = null;
    try {
      Inode existing = before != null ? Inode.decode(before) : lookupPublished(parent, k, path, true);
      if (existing != null) {
        if (existing.isDirectory()) {
          throw new IndexFsException(Code.FILE_ALREADY_EXISTS, path + " already exists as a directory");
        }
        if (!overwrite) {
          throw new IndexFsException(Code.FILE_ALREADY_EXISTS, path + " for client already exists");
        }
        replaced = existing.dataObject;
      }
    } catch (IOException | RuntimeException e) {
      if (before != null) {
        pending.put(k, before);
      } else {
        pending.delete(k);
      }
      throw e;
    }
    open.put(f.inodeId, k);
    return new Created(name, f, replaced);
  }

  private Inode newFile(int permission, int replication, long blockSize, long now) throws IOException {
    Inode f = new Inode();
    f.type = Inode.TYPE_FILE;
    f.inodeId = nextId();
    f.permission = permission & Permission.MASK & ~Permission.STICKY;
    f.ownerId = ownerId;
    f.groupId = groupId;
    f.replication = replication;
    f.blockSize = blockSize;
    f.mtime = f.atime = now;
    f.zerothSlot = home;
    return f;
  }

  /** The storage policy this holder's data objects are created with ("": the data tier's default). */
  public String objectPolicy() {
    return objectPolicy;
  }

  /** The name a file's data object must have: made from this holder's secret and the file's inode id. */
  public String objectName(long inodeId) {
    return org.indexfs.common.ObjectNames.localizedObject(objectPrefix, inodeId);
  }

  /** This holder's own directory on the data tier for the SST files it publishes (ObjectNames.publishDirectory). */
  public String publishDirectory() {
    return org.indexfs.common.ObjectNames.publishDirectory(objectPrefix);
  }

  /** A file written here was closed: its length and where its bytes are (inline or its object). */
  public synchronized void complete(long inodeId, long length, byte[] inline, String object) throws IOException {
    byte[] k = open.remove(inodeId);
    if (k == null || ended) {
      throw new IndexFsException(Code.LEASE_EXPIRED, "The localization of " + root
          + " ended before this file was closed: its entry was not published");
    }
    if (length == 0 && object == null && !ending && pending.size() < bufferEntries) {
      return; // an empty file: its entry as created is its entry as closed
    }
    Inode f = Inode.decode(pending.get(k));
    f.length = length;
    f.inlineData = object == null ? inline : null;
    f.dataObject = object;
    f.mtime = System.currentTimeMillis();
    pending.put(k, f.encode());
    if (object != null) {
      dataBytes += length;
      if (dataBytes > dataLimit) {
        ending = true; // bulk insertion does not help data-heavy work (IndexFS §II-D)
      }
    }
    if (ending) {
      publish(open.isEmpty());
    } else if (pending.size() >= bufferEntries) {
      publish(false);
    }
  }

  /** The file's entry as written here (its inline bytes, or its object), or null when not pending here. */
  public synchronized Inode pendingFile(String path) throws IOException {
    List<String> names = below(path);
    Long parent = dirs.get(join(root, names, names.size() - 1));
    if (parent == null) {
      return null;
    }
    byte[] v = pending.get(key(parent, names.get(names.size() - 1)));
    return v == null ? null : Inode.decode(v);
  }

  public synchronized FileStatus getFileStatus(String path) throws IOException {
    List<String> names = below(path);
    long parent = directory(names, names.size() - 1, false, 0, 0);
    Inode entry = lookup(parent, names.get(names.size() - 1), path, false);
    if (entry == null) {
      throw IndexFsException.notFound(path);
    }
    byte[] v = pending.get(key(parent, names.get(names.size() - 1)));
    if (v == null) {
      return client.getFileStatus(path);
    }
    return status(names.get(names.size() - 1), Inode.decode(v));
  }

  /** Every entry of directory {@code path} (the root or one below), in HDFS order (as the server lists). */
  public synchronized List<FileStatus> list(String path) throws IOException {
    long dir;
    if (path.equals(root)) {
      dir = rootId;
    } else {
      List<String> names = below(path);
      dir = directory(names, names.size(), false, 0, 0);
    }
    // HDFS order: names' UTF-8 bytes compared as signed values (Arrays.compare on byte[] is signed).
    TreeMap<byte[], FileStatus> merged = new TreeMap<>(Arrays::compare);
    if (!known.contains(dir) || publishedInto.contains(dir)) {
      DirectoryListing listing = client.list(path);
      if (listing.isFile()) {
        return List.of(listing.next());
      }
      while (listing.hasNext()) {
        FileStatus s = listing.next();
        merged.put(s.getNameBytes().toByteArray(), s);
      }
    }
    for (Map.Entry<byte[], byte[]> e : pending.scan(EntryKey.prefix(dir))) {
      String name = EntryKey.decode(e.getKey()).name();
      merged.put(name.getBytes(java.nio.charset.StandardCharsets.UTF_8), status(name, Inode.decode(e.getValue())));
    }
    return new ArrayList<>(merged.values());
  }

  /**
   * {@code FileSystem.rename} of an entry made here to a place below the root: false where HDFS
   * answers false. Throws {@link NotLocal} for what is on the server.
   */
  public synchronized boolean rename(String src, String dst) throws IOException {
    checkLive();
    PathNames.checkPathLength("rename", dst); // as the server would (HDFS's NameNode)
    List<String> s = below(src);
    List<String> d = below(dst);
    Long srcParent = dirs.get(join(root, s, s.size() - 1));
    byte[] srcKey = srcParent == null ? null : key(srcParent, s.get(s.size() - 1));
    byte[] value = srcKey == null ? null : pending.get(srcKey);
    if (value == null) {
      throw new NotLocal(src + " is not pending here");
    }
    if (src.equals(dst)) {
      return true;
    }
    Inode moving = Inode.decode(value);
    long dstParent;
    try {
      dstParent = directory(d, d.size() - 1, false, 0, 0);
    } catch (IndexFsException e) {
      return false;
    }
    String name = d.get(d.size() - 1);
    Inode target = lookup(dstParent, name, dst, false);
    if (target != null && target.isDirectory()) {
      dstParent = target.inodeId;
      name = s.get(s.size() - 1);
      dst = dst + "/" + name;
      target = lookup(dstParent, name, dst, false);
    }
    if (target != null || (moving.isDirectory() && (dst + "/").startsWith(src + "/"))) {
      return false;
    }
    pending.delete(srcKey);
    byte[] dstKey = key(dstParent, name);
    pending.put(dstKey, value);
    open.replaceAll((id, k) -> Arrays.equals(k, srcKey) ? dstKey : k);
    String prefix = src + "/";
    dirs.keySet().removeIf(p -> p.equals(src) || p.startsWith(prefix));
    return true;
  }

  /** Deletes an entry made here (a directory with all it holds); returns the data objects to remove. */
  public synchronized List<String> delete(String path, boolean recursive) throws IOException {
    checkLive();
    List<String> names = below(path);
    Long parent = dirs.get(join(root, names, names.size() - 1));
    byte[] k = parent == null ? null : key(parent, names.get(names.size() - 1));
    byte[] v = k == null ? null : pending.get(k);
    if (v == null) {
      throw new NotLocal(path + " is not pending here");
    }
    Inode entry = Inode.decode(v);
    List<String> objects = new ArrayList<>();
    if (entry.isDirectory()) {
      if (publishedInto.contains(entry.inodeId) || !known.contains(entry.inodeId)) {
        throw new NotLocal(path + " holds published entries");
      }
      if (!recursive && !pending.scan(EntryKey.prefix(entry.inodeId)).isEmpty()) {
        throw new IndexFsException(Code.DIRECTORY_NOT_EMPTY, path + " is non empty': Directory is not empty");
      }
      Deque<Long> todo = new ArrayDeque<>(List.of(entry.inodeId));
      while (!todo.isEmpty()) {
        for (Map.Entry<byte[], byte[]> child : pending.scan(EntryKey.prefix(todo.poll()))) {
          Inode c = Inode.decode(child.getValue());
          if (c.isDirectory()) {
            todo.add(c.inodeId);
          } else if (c.dataObject != null) {
            objects.add(c.dataObject);
          }
          pending.delete(child.getKey());
        }
      }
      String prefix = path + "/";
      dirs.keySet().removeIf(p -> p.equals(path) || p.startsWith(prefix));
    } else if (entry.dataObject != null) {
      objects.add(entry.dataObject);
    }
    pending.delete(k);
    return objects;
  }

  /**
   * Publishes every pending entry but files still open (IndexFS §II-D): one SST file, shipped
   * through the data tier and ingested by the directory's slot. With {@code release}, and no file
   * open, the lease ends and the subtree is the server's again.
   */
  public synchronized PublishResult publish(boolean release) throws IOException {
    if (ended) {
      return lastResult;
    }
    Set<LocalStore.ByteKey> keep = new HashSet<>();
    open.values().forEach(k -> keep.add(new LocalStore.ByteKey(k)));
    boolean releasing = release && open.isEmpty();
    Path file = Files.createTempFile("indexfs-publish-", ".sst");
    Files.delete(file);
    String shipped = "";
    try {
      long n = pending.writeSst(file, keep);
      if (n > 0) {
        shipped = shipper.ship(file, publishDirectory());
        shippedAny = true;
      }
      PublishResult result;
      try {
        result = client.publish(root, shipped, releasing, importPrincipals);
      } catch (IOException e) {
        if (!shipped.isEmpty()) {
          shipper.discard(shipped);
        }
        throw e;
      }
      remember(keep);
      pending.clearExcept(keep);
      dirs.keySet().removeIf(p -> !p.equals(root)); // rejected directories must not linger
      ended = releasing;
      lastResult = result;
      if (releasing && shippedAny) {
        shipper.released(publishDirectory());
      }
      return result;
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /** Published names stay known without being held: a Bloom filter says which may be on the server. */
  private void remember(Set<LocalStore.ByteKey> keep) throws IOException {
    List<Map.Entry<byte[], byte[]>> all = pending.scan(new byte[0]);
    if (published == null) {
      // Sized for a few buffers' worth (no overflow for an unbounded buffer); it grows past that.
      published = new PublishedNames(Math.max(1_000_000L, 4L * Math.min(bufferEntries, 4_000_000L)));
    }
    for (Map.Entry<byte[], byte[]> e : all) {
      if (!keep.contains(new LocalStore.ByteKey(e.getKey()))) {
        published.put(e.getKey());
        publishedInto.add(EntryKey.parentOf(e.getKey()));
      }
    }
  }

  /** Renews the lease (the renewer calls this); a denied renewal makes this holder publish and end. */
  public void renew() throws IOException {
    // The call goes out without this subtree's lock: a publish holds it for as long as its ingest
    // takes, and a renewer waiting behind it let a 100-million-entry load's lease run out.
    if (ended) {
      return;
    }
    LocalizeGrant g = client.renewLocalization(root, idsLow ? idsWanted : 0);
    if (g.getBlocksCount() == 0 && !g.getRenewalDenied() && !ending) {
      return; // renewed; nothing to hand to the creating thread
    }
    synchronized (this) {
      g.getBlocksList().forEach(ids::add);
      idsLow = ids.remaining() < idsWanted / 4;
      if (g.getRenewalDenied()) {
        ending = true;
      }
      if (ending && !ended) {
        publish(open.isEmpty());
      }
    }
  }

  /** Gives the lease up without publishing (what is pending is dropped). */
  public synchronized void abandon() throws IOException {
    if (!ended) {
      ended = true;
      pending.clearExcept(Set.of());
      client.releaseLocalization(root);
    }
  }

  /**
   * Gives the lease up and drops everything pending, as a recursive delete of the whole subtree
   * would (an aborted task attempt): returns the data objects its files wrote, closed or still
   * open, for the caller to delete. What was published earlier is the server's to delete.
   */
  public synchronized List<String> discard() throws IOException {
    List<String> objects = new ArrayList<>();
    if (ended) {
      return objects;
    }
    for (Map.Entry<byte[], byte[]> e : pending.scan(new byte[0])) {
      Inode i = Inode.decode(e.getValue());
      if (!i.isDirectory() && i.dataObject != null) {
        objects.add(i.dataObject);
      }
    }
    for (long id : open.keySet()) {
      objects.add(objectName(id)); // a writer past the inline limit has made it already
    }
    abandon();
    return objects;
  }

  private void checkLive() throws NotLocal {
    if (ended) {
      throw new NotLocal("The localization of " + root + " has ended");
    }
  }

  private FileStatus status(String name, Inode i) {
    FileStatus.Builder b = FileStatus.newBuilder().setName(name)
        .setType(i.isDirectory() ? FileType.DIRECTORY : FileType.FILE).setInodeId(i.inodeId)
        .setPermission(i.permission).setOwner(user).setGroup(group).setMtime(i.mtime).setAtime(i.atime)
        .setZerothSlot(i.zerothSlot).setUnderConstruction(open.containsKey(i.inodeId));
    if (!i.isDirectory()) {
      b.setLength(i.length).setReplication(i.replication).setBlockSize(i.blockSize);
      if (i.dataObject != null) {
        b.setDataObject(i.dataObject);
      }
    }
    return b.build();
  }

  void closeStore() {
    pending.close();
  }

  int inlineMaxBytes() {
    return inlineMax;
  }
}
