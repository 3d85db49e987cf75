package org.indexfs.server.op;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.InodeIds;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import com.google.protobuf.ByteString;
import org.indexfs.proto.Caller;
import org.indexfs.proto.CompleteRequest;
import org.indexfs.proto.CreateRequest;
import org.indexfs.proto.DeleteRequest;
import org.indexfs.proto.MkdirsRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.data.DataTier;
import org.indexfs.server.data.Reclaimer;
import org.indexfs.server.filelease.LeaseRecovery;
import org.indexfs.server.filelease.LeaseTable;
import org.indexfs.server.lease.EntryLeases;
import org.indexfs.server.lease.LeasePolicy;
import org.indexfs.server.metrics.ServerMetrics;
import org.indexfs.server.ns.AccessChecker;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.ns.PathResolver;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.peer.Peers;
import org.indexfs.server.placement.HomeSync;
import org.indexfs.server.placement.Placement;
import org.indexfs.server.quota.QuotaShares;
import org.indexfs.server.split.Partitions;
import org.indexfs.server.split.SplitManager;
import org.indexfs.server.store.MetadataStore;

/**
 * What an operation needs for slot 0 of a one-slot cluster, built as {@link org.indexfs.server.IndexFsServer}
 * builds it (same classes, same order, same configuration keys) on a real RocksDB in {@code dir},
 * without the transport, ZooKeeper or the background threads: operations are called directly.
 *
 * <p>The data tier is a real {@link DataTier} on a local directory. {@link Peers} is the real
 * class, never attached to ZooKeeper: with one slot it is asked only for the slot count (1), so no
 * operation under test reaches another server. The root is owned by {@link #OWNER}, so that an
 * ordinary user's permission checks run; {@link #SUPERUSER} is someone else.
 */
final class OneSlot implements AutoCloseable {
  static final String SUPERUSER = "hdfs";
  static final String SUPERGROUP = "supergroup";
  static final String OWNER = "alice";
  static final String OWNER_GROUP = "users";

  final MetadataStore store;
  final Namespace ns;
  final OpContext ctx;
  final Reclaimer reclaimer;
  private final DataTier data;
  final Peers peers;
  private final SplitManager splits;
  private final ServerMetrics metrics;

  OneSlot(Path dir) throws IOException {
    this(dir, Map.of());
  }

  OneSlot(Path dir, Map<String, String> overrides) throws IOException {
    Map<String, String> conf = new HashMap<>();
    // A freshly built EntryLeases holds every directory mutation for its restart grace (the longest
    // lease, 1 s by default): a slot that never granted a lease needs none.
    conf.put(IndexFsConfig.LEASE_MAX_MS.name(), "0");
    conf.putAll(overrides);
    int slot = 0;
    store = MetadataStore.open(dir.resolve("store"), IndexFsConfig.STORE_BLOB_MIN_BYTES.get(conf));
    ns = new Namespace(store, slot, IndexFsConfig.WAL_SYNC.get(conf), OWNER, OWNER_GROUP,
        IndexFsConfig.SERVER_CACHE_ENTRIES.get(conf));
    data = new DataTier(Files.createDirectories(dir.resolve("data")).toUri().toString(), slot);
    reclaimer = new Reclaimer(ns, data);
    LeaseTable leases = new LeaseTable(ns, IndexFsConfig.LEASE_SOFT_LIMIT_MS.get(conf),
        IndexFsConfig.LEASE_HARD_LIMIT_MS.get(conf));
    LeaseRecovery recovery = new LeaseRecovery(ns, leases, data, reclaimer);
    AccessChecker access = new AccessChecker(ns, IndexFsConfig.PERMISSIONS_ENABLED.get(conf), SUPERUSER, SUPERGROUP);
    peers = new Peers(slot, SUPERUSER, IndexFsConfig.RPC_MAX_FRAME_BYTES.get(conf),
        IndexFsConfig.RPC_TIMEOUT_MS.get(conf), null);
    HomeSync homes = new HomeSync(ns, peers);
    reclaimer.useHomes(homes);
    Placement placement = new Placement(ns, peers);
    EntryLeases entryLeases = new EntryLeases(LeasePolicy.of(IndexFsConfig.LEASE_POLICY.get(conf),
        IndexFsConfig.LEASE_FIXED_MS.get(conf), IndexFsConfig.LEASE_MAX_MS.get(conf)),
        IndexFsConfig.LEASE_TABLE_ENTRIES.get(conf), System::nanoTime);
    Partitions partitions = new Partitions(ns);
    partitions.useSlotCount(peers::slotCount);
    PathResolver resolver = new PathResolver(ns, IndexFsConfig.MAX_COMPONENT_LENGTH.get(conf), partitions);
    metrics = new ServerMetrics("oneslot-" + dir.getFileName(), slot);
    splits = new SplitManager(ns, partitions, peers, data, leases, metrics, IndexFsConfig.SPLIT_THRESHOLD.get(conf));
    ctx = new OpContext(ns, resolver, access, reclaimer, data.dataUri(), IndexFsConfig.INLINE_MAX_BYTES.get(conf),
        IndexFsConfig.LIST_PAGE_SIZE.get(conf), leases, recovery, data, peers, homes, placement, entryLeases,
        partitions, splits, new QuotaShares(ns, peers));
  }

  static Caller caller(String user, String... groups) {
    return Caller.newBuilder().setUser(user).addAllGroups(java.util.List.of(groups))
        .setClientId("client-of-" + user).build();
  }

  static Request mkdirs(Caller caller, String path, int permission) {
    return Request.newBuilder().setCaller(caller)
        .setMkdirs(MkdirsRequest.newBuilder().setPath(path).setPermission(permission)).build();
  }

  static CreateRequest.Builder create(String path) {
    // What DistributedFileSystem.create sends by default: 0644 after the umask, 3 replicas, 128 MiB blocks.
    return CreateRequest.newBuilder().setPath(path).setPermission(0644).setReplication(3)
        .setBlockSize(128L << 20);
  }

  static Request create(Caller caller, CreateRequest.Builder create) {
    return Request.newBuilder().setCaller(caller).setCreate(create).build();
  }

  static Request delete(Caller caller, String path, boolean recursive) {
    return Request.newBuilder().setCaller(caller)
        .setDelete(DeleteRequest.newBuilder().setPath(path).setRecursive(recursive)).build();
  }

  /** Makes {@code path} as the root's owner, with every missing parent. */
  void mkdirs(String path, int permission) throws IOException {
    new MkdirsOp(ctx).apply(mkdirs(caller(OWNER), path, permission));
  }

  /** A file written and closed by the root's owner (with any missing parent), its bytes inline. */
  Inode closedFile(String path, byte[] bytes) throws IOException {
    Caller owner = caller(OWNER);
    long id = new CreateOp(ctx, IndexFsConfig.MIN_BLOCK_SIZE.get(Map.of()))
        .apply(create(owner, create(path).setOverwrite(true).setCreateParent(true))).getStatus().getInodeId();
    new CompleteOp(ctx).apply(Request.newBuilder().setCaller(owner).setComplete(CompleteRequest.newBuilder()
        .setPath(path).setInodeId(id).setLength(bytes.length).setInlineData(ByteString.copyFrom(bytes))).build());
    return stored(path);
  }

  /** Waits until the clock has passed {@code millis}: a time set from now on differs from one set then. */
  static long after(long millis) {
    long now;
    while ((now = System.currentTimeMillis()) <= millis) {
      Thread.onSpinWait();
    }
    return now;
  }

  static boolean bool(Response.Builder answer) {
    return answer.getBool().getValue();
  }

  /** The stored entry at {@code path}, read from RocksDB (not from the namespace's cache), or null. */
  Inode stored(String path) throws IOException {
    ResolvedPath p = ns.read(none -> ctx.resolver().resolve(path));
    if (p.last() == null) {
      return null;
    }
    EntryKey key = p.isRoot() ? new EntryKey(InodeIds.NO_PARENT, 0, "")
        : EntryKey.of(p.parent().inodeId, p.lastName());
    byte[] raw = store.get(store.entries(), key.encode());
    return raw == null ? null : Inode.decode(raw);
  }

  String ownerOf(Inode inode) {
    return ns.principals().nameOf(inode.ownerId);
  }

  String groupOf(Inode inode) {
    return ns.principals().nameOf(inode.groupId);
  }

  @Override
  public void close() {
    splits.close();
    metrics.close();
    peers.close();
    reclaimer.close();
    ns.close();
    try {
      data.close();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    store.close();
  }
}
