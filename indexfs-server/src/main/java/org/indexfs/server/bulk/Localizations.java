package org.indexfs.server.bulk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.InodeIds;
import org.indexfs.common.schema.Bytes;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.server.call.Call;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.ns.PathResolver;
import org.indexfs.server.store.MetadataStore;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The subtrees localized on this slot (IndexFS §II-D): durable records ({@code localize/<dirId>}
 * in the meta column family, written in the batch that grants, extends or ends a lease) mirrored
 * in memory, with each holder's expiry and whether another client asked for the subtree.
 *
 * <p>Every path walk on this slot reports the directories it passed ({@link #walked}): a mutation
 * inside a localized subtree by anyone but a holder is refused with {@code SUBTREE_LOCALIZED}; a
 * read by anyone else is allowed (it sees the last publish) and denies the holders' next renewal,
 * so they publish within one lease period. While a publish of a subtree is being ingested, every
 * mutation inside it (a holder's too) is told to retry.
 *
 * <p>A client whose mutation was refused waits for its turn: for {@code yield} after its last
 * refusal, no other client may take a new lease on the localized directory or any directory above
 * it (not even the holder that just released it), so a holder re-taking its lease again and again
 * cannot keep others out for longer than a lease period and a retry (issue 31: a touchz was
 * delayed to 62 s).
 */
public final class Localizations implements PathResolver.LocalizedSubtrees {
  private static final Logger LOG = LoggerFactory.getLogger(Localizations.class);
  private static final byte[] PREFIX = "localize/".getBytes(StandardCharsets.UTF_8);
  /** A mirror for directories of the subtree homed here (not partitions of its root): its home slot. */
  private static final byte[] FROM = "localize.from/".getBytes(StandardCharsets.UTF_8);

  private final Namespace ns;
  private final long leaseNanos;
  private final Map<Long, Localization> byDir = new ConcurrentHashMap<>();
  private final Map<String, Long> expiry = new ConcurrentHashMap<>();
  private final Set<Long> contended = ConcurrentHashMap.newKeySet();
  private final Set<Long> publishing = ConcurrentHashMap.newKeySet();
  /**
   * Localized directories whose publish across slots is between its first PREPARE here and its
   * last COMMIT (or ABORT) everywhere: every walk through them — reads too — retries meanwhile, so
   * a publish spanning slots becomes visible at one moment ({@link SplitPublish}).
   */
  private final Set<Long> committing = ConcurrentHashMap.newKeySet();
  private final Map<Long, Integer> homes = new ConcurrentHashMap<>();
  /**
   * A mirror for directories of the subtree on this slot: the directories its home told it
   * ({@code localize.held/<dirId>}), walked again at start so they still take no split.
   */
  private static final byte[] HELD = "localize.held/".getBytes(StandardCharsets.UTF_8);
  private final Map<Long, Set<Long>> held = new ConcurrentHashMap<>();
  /** Told (directory, its home slot) when another client asks for a directory whose record is a mirror. */
  private volatile java.util.function.ObjLongConsumer<Integer> mirrorContended = (home, dirId) -> { };

  /** A client refused inside a localized subtree, and when it was last refused. */
  private record Waiting(String clientId, long atNanos) {}

  private final long yieldNanos;
  /** By directory on the way to a refused mutation, up to the localized one: who waits there. */
  private final Map<Long, Waiting> waiting = new ConcurrentHashMap<>();

  public Localizations(Namespace ns, long leaseMs) {
    this(ns, leaseMs, org.indexfs.common.IndexFsConfig.LOCALIZE_YIELD_MS.defaultValue());
  }

  public Localizations(Namespace ns, long leaseMs, long yieldMs) {
    this.ns = ns;
    this.leaseNanos = TimeUnit.MILLISECONDS.toNanos(leaseMs);
    this.yieldNanos = TimeUnit.MILLISECONDS.toNanos(yieldMs);
    long now = System.nanoTime();
    try (RocksIterator it = ns.store().iterator(ns.store().meta(), null)) {
      for (it.seek(FROM); it.isValid() && Bytes.startsWith(it.key(), FROM); it.next()) {
        homes.put(ByteBuffer.wrap(it.key(), FROM.length, 8).getLong(), ByteBuffer.wrap(it.value()).getInt());
      }
    }
    try (RocksIterator it = ns.store().iterator(ns.store().meta(), null)) {
      for (it.seek(HELD); it.isValid() && Bytes.startsWith(it.key(), HELD); it.next()) {
        held.put(ByteBuffer.wrap(it.key(), HELD.length, 8).getLong(), decodeIds(it.value()));
      }
    }
    for (Localization l : all(ns.store(), null)) {
      byDir.put(l.dirId(), l);
      for (Localization.Holder h : l.holders()) {
        if (!h.released()) {
          expiry.put(expiryKey(l.dirId(), h.clientId()), now + leaseNanos);
        }
      }
    }
  }

  void onMirrorContended(java.util.function.ObjLongConsumer<Integer> told) {
    this.mirrorContended = told;
  }

  /**
   * The home slot of {@code dirId} when this slot holds another partition of it (its record here is
   * a mirror of the home's, {@link Mirrors}: expiry and renewal are the home's business); -1 when
   * the directory is homed here.
   */
  int mirrorOf(long dirId) {
    Integer from = homes.get(dirId);
    if (from != null) {
      return from;
    }
    try {
      Inode record = ns.partition(dirId);
      return record == null || record.zerothSlot == ns.slot() ? -1 : record.zerothSlot;
    } catch (IOException e) {
      return -1;
    }
  }

  /** Marks {@code dirId} asked for (a partition's slot told its home). */
  void contend(long dirId) {
    if (byDir.containsKey(dirId) && contended.add(dirId)) {
      LOG.info("Another client asked for localized directory {} on a slot holding a partition of it: its holders' "
          + "renewals are denied from now on", InodeIds.format(dirId));
    }
  }

  /** Records homed here whose holders are all gone but whose partitions' slots have not heard yet. */
  List<Long> endedSplit() {
    List<Long> out = new ArrayList<>();
    for (Localization l : byDir.values()) {
      if (!l.hasLiveHolders() && mirrorOf(l.dirId()) < 0) {
        out.add(l.dirId());
      }
    }
    return out;
  }

  public long leaseMs() {
    return TimeUnit.NANOSECONDS.toMillis(leaseNanos);
  }

  private static byte[] key(long dirId) {
    return Bytes.concat(PREFIX, ByteBuffer.allocate(8).putLong(dirId).array());
  }

  private static String expiryKey(long dirId, String clientId) {
    return dirId + "/" + clientId;
  }

  /** Every durable record as {@code read} sees it (the scrubber reads them from its snapshot). */
  public static List<Localization> all(MetadataStore store, ReadOptions read) {
    List<Localization> out = new ArrayList<>();
    try (RocksIterator it = store.iterator(store.meta(), read)) {
      for (it.seek(PREFIX); it.isValid() && Bytes.startsWith(it.key(), PREFIX); it.next()) {
        out.add(Localization.decode(it.value()));
      }
    }
    return out;
  }

  /** The localization of {@code dirId}, or null. */
  public Localization get(long dirId) {
    return byDir.get(dirId);
  }

  public int count() {
    return byDir.size();
  }

  /** The directories localized here (homed here, or mirrored from their home). */
  java.util.Collection<Long> roots() {
    return byDir.keySet();
  }

  /** Records {@code l} in the caller's batch; the mirror follows once the batch is written. */
  void put(WriteBatch batch, Localization l) throws IOException {
    try {
      batch.put(ns.store().meta(), key(l.dirId()), l.encode());
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    ns.afterWrite(() -> byDir.put(l.dirId(), l));
  }

  /** Notes in the caller's batch that the record of {@code dirId} here mirrors the one on slot {@code home}. */
  void putHome(WriteBatch batch, long dirId, int home) throws IOException {
    try {
      batch.put(ns.store().meta(), Bytes.concat(FROM, ByteBuffer.allocate(8).putLong(dirId).array()),
          ByteBuffer.allocate(4).putInt(home).array());
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    ns.afterWrite(() -> homes.put(dirId, home));
  }

  /** Adds, in the caller's batch, directories of {@code dirId}'s subtree this slot was told to hold. */
  void putHeld(WriteBatch batch, long dirId, List<Long> dirs) throws IOException {
    Set<Long> all = ConcurrentHashMap.newKeySet();
    all.addAll(held.getOrDefault(dirId, Set.of()));
    all.addAll(dirs);
    ByteBuffer v = ByteBuffer.allocate(8 * all.size());
    all.forEach(v::putLong);
    try {
      batch.put(ns.store().meta(), heldKey(dirId), v.array());
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    ns.afterWrite(() -> held.put(dirId, all));
  }

  /** Per localized directory mirrored here: the directories of its subtree this slot was told to hold. */
  Map<Long, Set<Long>> held() {
    return held;
  }

  private static byte[] heldKey(long dirId) {
    return Bytes.concat(HELD, ByteBuffer.allocate(8).putLong(dirId).array());
  }

  private static Set<Long> decodeIds(byte[] value) {
    Set<Long> out = ConcurrentHashMap.newKeySet();
    ByteBuffer b = ByteBuffer.wrap(value);
    while (b.remaining() >= 8) {
      out.add(b.getLong());
    }
    return out;
  }

  /** Ends the localization of {@code dirId} in the caller's batch. */
  void remove(WriteBatch batch, long dirId) throws IOException {
    try {
      batch.delete(ns.store().meta(), key(dirId));
      batch.delete(ns.store().meta(), Bytes.concat(FROM, ByteBuffer.allocate(8).putLong(dirId).array()));
      batch.delete(ns.store().meta(), heldKey(dirId));
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    ns.afterWrite(() -> {
      byDir.remove(dirId);
      homes.remove(dirId);
      held.remove(dirId);
      contended.remove(dirId);
    });
  }

  /** The holder's lease runs for a full period from now. */
  void extend(long dirId, String clientId) {
    expiry.put(expiryKey(dirId, clientId), System.nanoTime() + leaseNanos);
  }

  void forgetExpiry(long dirId, String clientId) {
    expiry.remove(expiryKey(dirId, clientId));
  }

  /** Milliseconds left of the holder's lease (0: expired or not a holder). */
  public long remainingMs(long dirId, String clientId) {
    Long until = expiry.get(expiryKey(dirId, clientId));
    return until == null ? 0 : Math.max(0, TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime()));
  }

  /** True once another client asked for the subtree: renewals are denied from then on. */
  public boolean isContended(long dirId) {
    return contended.contains(dirId);
  }

  /**
   * Refuses a new lease on {@code dirId} for {@code clientId} while another client waits to change
   * something below it (see the class comment); the waiting client itself may take one.
   */
  void refuseWhileOthersWait(long dirId, String clientId) throws IndexFsException {
    Waiting w = waiting.get(dirId);
    if (w == null) {
      return;
    }
    if (System.nanoTime() - w.atNanos() - yieldNanos > 0) {
      waiting.remove(dirId, w);
      return;
    }
    if (!w.clientId().equals(clientId)) {
      throw new IndexFsException(Code.SUBTREE_LOCALIZED, "Directory " + InodeIds.format(dirId)
          + " cannot be localized yet: another client's change below it was refused while it was localized,"
          + " and goes first; retry in " + TimeUnit.NANOSECONDS.toMillis(yieldNanos) + " ms");
    }
  }

  /** Holders whose lease ran out, as {dirId, clientId}: the monitor releases them. */
  List<Object[]> expired() {
    List<Object[]> out = new ArrayList<>();
    long now = System.nanoTime();
    waiting.values().removeIf(w -> now - w.atNanos() - yieldNanos > 0);
    for (Localization l : byDir.values()) {
      if (mirrorOf(l.dirId()) >= 0) {
        continue; // its home ends it
      }
      for (Localization.Holder h : l.holders()) {
        Long until = expiry.get(expiryKey(l.dirId(), h.clientId()));
        if (!h.released() && (until == null || until - now < 0) && !publishing.contains(l.dirId())) {
          out.add(new Object[] {l.dirId(), h.clientId()});
        }
      }
    }
    return out;
  }

  /** A publish of {@code dirId} is being validated and ingested: mutations inside retry meanwhile. */
  boolean beginPublish(long dirId) {
    return publishing.add(dirId);
  }

  void endPublish(long dirId) {
    publishing.remove(dirId);
  }

  /** Readers and writers of {@code dirId} retry until {@link #releaseWalks}: a publish across slots is committing. */
  void holdWalks(long dirId) {
    committing.add(dirId);
  }

  void releaseWalks(long dirId) {
    committing.remove(dirId);
  }

  boolean walksHeld(long dirId) {
    return committing.contains(dirId);
  }

  /** True when a holder of a live localization may write object {@code name} (the scrubber keeps it). */
  public static boolean reserved(List<Localization> all, String name) {
    for (Localization l : all) {
      for (Localization.Holder h : l.holders()) {
        if (h.mayWrite(name)) {
          return true;
        }
      }
    }
    return false;
  }

  /** A walk by the localize and publish calls themselves, which check holders on their own. */
  static Exempt exempt() {
    Call call = Call.current();
    if (call == null) {
      return () -> { }; // no caller: no walk is checked anyway
    }
    call.exemptFromLocalization(true);
    return () -> call.exemptFromLocalization(false);
  }

  /** Ends an {@link #exempt} walk. */
  @FunctionalInterface
  interface Exempt extends AutoCloseable {
    @Override
    void close();
  }

  @Override
  public void walked(Inode[] dirs, int count, boolean mutating) throws IOException {
    if (byDir.isEmpty() && committing.isEmpty()) {
      return;
    }
    Call call = Call.current();
    Caller caller = call == null ? null : call.acting();
    if (caller == null || call.exemptFromLocalization()) {
      return; // this server's own background work, or the localize and publish calls' own walks
    }
    for (int i = 0; i < count; i++) {
      Inode dir = dirs[i];
      if (dir == null || !dir.isDirectory()) {
        return;
      }
      if (committing.contains(dir.inodeId)) {
        // The localization itself may have ended (published and released) while the last slots ingest.
        throw new IndexFsException(Code.STALE_RESOLUTION, "A publish into localized directory "
            + InodeIds.format(dir.inodeId) + " is becoming visible on every slot it reaches; retry");
      }
      Localization l = byDir.get(dir.inodeId);
      if (l == null) {
        continue;
      }
      Localization.Holder h = l.holder(caller.getClientId());
      boolean holder = h != null && !h.released();
      if (mutating && publishing.contains(l.dirId())) {
        throw new IndexFsException(Code.STALE_RESOLUTION, "A publish into localized directory "
            + InodeIds.format(l.dirId()) + " is being ingested; retry");
      }
      if (holder) {
        return;
      }
      if (contended.add(l.dirId())) {
        LOG.info("Client {} ({}) asked for localized directory {}: its holders' renewals are denied from now on",
            caller.getClientId(), caller.getUser(), InodeIds.format(l.dirId()));
        int home = mirrorOf(l.dirId());
        if (home >= 0) {
          mirrorContended.accept(home, l.dirId());
        }
      }
      if (mutating) {
        // The directories from the root to the localized one: none of them is leased to anyone else
        // until this client had its turn (keyed by these, so the map stays as small as the roots).
        Waiting w = new Waiting(caller.getClientId(), System.nanoTime());
        for (int j = 0; j <= i; j++) {
          waiting.put(dirs[j].inodeId, w);
        }
        throw new IndexFsException(Code.SUBTREE_LOCALIZED, "Directory " + InodeIds.format(l.dirId())
            + " on the way is localized by another client (bulk insertion) until it publishes; retry later");
      }
      return;
    }
  }
}
