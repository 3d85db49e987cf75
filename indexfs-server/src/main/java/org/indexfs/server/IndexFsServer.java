package org.indexfs.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.Request.OpCase;
import org.indexfs.server.admin.AdminContext;
import org.indexfs.server.admin.AdminOps;
import org.indexfs.server.admin.SafeMode;
import org.indexfs.server.audit.AuditLog;
import org.indexfs.server.audit.Auditor;
import org.indexfs.server.data.DataTier;
import org.indexfs.server.data.Reclaimer;
import org.indexfs.server.data.Scrubber;
import org.indexfs.server.data.ServerDefaults;
import org.indexfs.server.filelease.LeaseMonitor;
import org.indexfs.server.filelease.LeaseRecovery;
import org.indexfs.server.filelease.LeaseTable;
import org.indexfs.server.health.DiskSpace;
import org.indexfs.server.health.Fence;
import org.indexfs.server.health.SpaceGuard;
import org.indexfs.server.lease.EntryLeases;
import org.indexfs.server.lease.LeaseKey;
import org.indexfs.server.lease.LeasePolicy;
import org.indexfs.server.membership.SlotLease;
import org.indexfs.server.http.StatusServer;
import org.indexfs.server.journal.ActiveJournal;
import org.indexfs.server.journal.Journal;
import org.indexfs.server.journal.Standby;
import org.indexfs.server.metrics.LiveGauges;
import org.indexfs.server.metrics.ServerMetrics;
import org.indexfs.server.ns.AccessChecker;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.ns.PathResolver;
import org.indexfs.server.op.AccessOp;
import org.indexfs.server.op.AppendOp;
import org.indexfs.server.op.CompleteOp;
import org.indexfs.server.op.ConcatOp;
import org.indexfs.server.op.ContentSummaryOp;
import org.indexfs.server.op.CreateOp;
import org.indexfs.server.op.DeleteOp;
import org.indexfs.server.op.FlushOp;
import org.indexfs.server.op.GetFileStatusOp;
import org.indexfs.server.op.ListStatusOp;
import org.indexfs.server.op.MkdirsOp;
import org.indexfs.server.op.OpContext;
import org.indexfs.server.op.OpenOp;
import org.indexfs.server.op.PartitionOp;
import org.indexfs.server.op.Operation;
import org.indexfs.server.op.RecoverLeaseOp;
import org.indexfs.server.op.AccessTimes;
import org.indexfs.server.op.ReferencedObjectsOp;
import org.indexfs.server.op.CrossSlotRename;
import org.indexfs.server.op.RenameInOp;
import org.indexfs.server.op.RenameOp;
import org.indexfs.server.rename.RenameIntents;
import org.indexfs.server.retry.AppliedAnswers;
import org.indexfs.server.retry.CallKey;
import org.indexfs.server.retry.RetriedOp;
import org.indexfs.server.retry.RetryCache;
import org.indexfs.server.split.Partitions;
import org.indexfs.server.split.SplitManager;
import org.indexfs.server.op.RenewLeaseOp;
import org.indexfs.server.op.ServerInfoOp;
import org.indexfs.server.op.SetOwnerOp;
import org.indexfs.server.op.SetPermissionOp;
import org.indexfs.server.op.SetReplicationOp;
import org.indexfs.server.op.SetTimesOp;
import org.indexfs.server.op.TruncateOp;
import org.indexfs.server.peer.Peers;
import org.indexfs.server.placement.HomeSync;
import org.indexfs.server.placement.Placement;
import org.indexfs.server.quota.QuotaRetry;
import org.indexfs.server.quota.QuotaShares;
import org.indexfs.server.rpc.Dispatcher;
import org.indexfs.server.rpc.RpcServer;
import org.indexfs.server.security.AncestorSeal;
import org.indexfs.server.security.CallerIdentity;
import org.indexfs.server.security.ResolutionKeys;
import org.indexfs.server.security.token.CancelDelegationTokenOp;
import org.indexfs.server.security.token.DelegationTokens;
import org.indexfs.server.security.token.GetDelegationTokenOp;
import org.indexfs.server.security.token.RenewDelegationTokenOp;
import org.indexfs.server.security.HadoopSettings;
import org.indexfs.server.security.KerberosTransport;
import org.indexfs.server.security.PeerSecret;
import org.indexfs.server.security.ServerZooKeeper;
import org.indexfs.server.security.ProxyUserRule;
import org.indexfs.server.security.ServerGroups;
import org.indexfs.server.store.MetadataStore;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One metadata server: owns one slot's RocksDB, serves it over Netty, and registers itself in
 * ZooKeeper. Everything it opens it closes, in reverse order.
 */
public final class IndexFsServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(IndexFsServer.class);

  private MetadataStore store;
  private final Namespace ns;
  private final DataTier data;
  private final Reclaimer reclaimer;
  private final AuditLog auditLog;
  private final LeaseTable leases;
  private final LeaseMonitor leaseMonitor;
  private final Scrubber scrubber;
  private final Dispatcher dispatcher;
  private final RpcServer rpc;
  private SlotLease lease;
  private ActiveJournal journal;
  private volatile boolean started;
  private final Peers peers;
  private final EntryLeases entryLeases;
  private final Periodic placementRefresh;
  private final ServerMetrics metrics;
  private final SplitManager splits;
  private final Periodic metricsLog;
  private final Periodic retryPurge;
  private final InetSocketAddress address;
  private final SafeMode safeMode = new SafeMode();
  private final StatusServer status;
  private final Fence fence;
  private volatile Runnable onSuperseded = () -> {};
  private volatile Runnable onHandedOver = () -> {};
  /** Set once superseded or handed over: a hook registered later runs at once. */
  private volatile boolean superseded;
  private volatile boolean handedOver;
  private org.indexfs.server.bulk.Localizer localizer;
  private final ResolutionKeys resolutionKeys;
  private final DelegationTokens tokens;
  private final Periodic keyRotation;

  private IndexFsServer(Map<String, String> conf, java.util.function.Consumer<Standby> onStandby) throws IOException {
    String dir = IndexFsConfig.SERVER_DIR.get(conf);
    if (dir.isEmpty()) {
      throw new IllegalArgumentException(IndexFsConfig.SERVER_DIR.name() + " must be set");
    }
    int slot = IndexFsConfig.SERVER_SLOT.get(conf);
    Configuration hadoopConf = HadoopSettings.of(conf);
    // With Kerberos, the server logs in from its keytab and is its principal's short name.
    KerberosTransport kerberos = KerberosTransport.start(hadoopConf, conf, IndexFsConfig.SERVER_BIND_HOST.get(conf));
    String superuser = IndexFsConfig.SUPERUSER.get(conf);
    if (superuser.isEmpty()) {
      superuser = kerberos != null ? kerberos.shortName() : System.getProperty("user.name");
    }
    String supergroup = IndexFsConfig.SUPERGROUP.get(conf);
    String dataUri = IndexFsConfig.DATA_URI.get(conf);
    // How this server is known in ZooKeeper (digest, or SASL with Kerberos): all it writes there is the servers' (issue 31).
    ServerZooKeeper zooKeeper = ServerZooKeeper.of(conf, hadoopConf, IndexFsConfig.SERVER_BIND_HOST.get(conf));
    store = MetadataStore.open(Path.of(dir), IndexFsConfig.STORE_BLOB_MIN_BYTES.get(conf));
    fence = new Fence(IndexFsConfig.CLUSTER_NAME.get(conf) + "/" + slot);
    try {
      // The slot first (DESIGN §11): its lease and a new epoch — a standby follows the journal while
      // it waits for them — then, with a journal, every earlier writer fenced and this store brought
      // to the end of the slot's history.
      boolean standing = IndexFsConfig.SERVER_STANDBY.get(conf);
      if (standing && !IndexFsConfig.JOURNAL_ENABLED.get(conf)) {
        throw new IOException("A standby follows the slot's journal: set " + IndexFsConfig.JOURNAL_ENABLED.name() + "=true");
      }
      // The journal is on the data tier: reached with the server's Hadoop settings and, with Kerberos, its login.
      Journal.Access journalAccess = new Journal.Access(hadoopConf, kerberos == null ? null : kerberos::as);
      Standby standby = standing ? Standby.follow(conf, slot, store, Path.of(dir), name(conf), journalAccess) : null;
      try {
        if (standby != null) {
          onStandby.accept(standby);
        }
        lease = new SlotLease(zooKeeper, IndexFsConfig.ZOOKEEPER_QUORUM.get(conf),
            IndexFsConfig.ZOOKEEPER_SESSION_TIMEOUT_MS.get(conf), IndexFsConfig.CLUSTER_NAME.get(conf), slot,
            name(conf), standby != null ? Long.MAX_VALUE : IndexFsConfig.SLOT_LEASE_WAIT_MS.get(conf),
            holder(standby, IndexFsConfig.CLUSTER_NAME.get(conf)));
      } finally {
        if (standby != null) {
          store = standby.stop();
        }
      }
      if (IndexFsConfig.JOURNAL_ENABLED.get(conf)) {
        journal = ActiveJournal.takeOver(conf, slot, store, Path.of(dir), lease.epoch(), journalAccess, () -> {
          fence.close("a successor fenced this writer's journal");
          superseded();
        });
        store = journal.store();
      }
      ns = new Namespace(store, slot, IndexFsConfig.WAL_SYNC.get(conf), superuser, supergroup,
          IndexFsConfig.SERVER_CACHE_ENTRIES.get(conf));
      ns.groupCommit().asyncWindowMs(IndexFsConfig.WAL_ASYNC_WINDOW_MS.get(conf));
      data = new DataTier(dataUri, slot, hadoopConf);
      if (kerberos != null) {
        data.useLogin(kerberos::as);
      }
      reclaimer = new Reclaimer(ns, data);
      leases = new LeaseTable(ns, IndexFsConfig.LEASE_SOFT_LIMIT_MS.get(conf), IndexFsConfig.LEASE_HARD_LIMIT_MS.get(conf));
      LeaseRecovery recovery = new LeaseRecovery(ns, leases, data, reclaimer);
      leaseMonitor = new LeaseMonitor(ns, leases, recovery, data);
      scrubber = new Scrubber(ns, data, leases, IndexFsConfig.SCRUB_INTERVAL_MS.get(conf),
          IndexFsConfig.SCRUB_GRACE_MS.get(conf));
      AccessChecker access = new AccessChecker(ns, IndexFsConfig.PERMISSIONS_ENABLED.get(conf), superuser, supergroup);
      // Servers prove themselves to each other in every mode: Kerberos, or the cluster secret (issue 31).
      PeerSecret peerSecret = kerberos == null ? PeerSecret.fromDigest(zooKeeper.digest()) : null;
      peers = new Peers(slot, superuser, IndexFsConfig.RPC_MAX_FRAME_BYTES.get(conf),
          IndexFsConfig.RPC_TIMEOUT_MS.get(conf), kerberos == null ? peerSecret.toPeers(slot) : kerberos.toPeers());
      HomeSync homes = new HomeSync(ns, peers);
      reclaimer.useHomes(homes);
      reclaimer.useLeases(leases);
      Placement placement = new Placement(ns, peers);
      // Built at start: its restart grace covers leases a previous incarnation may have granted.
      entryLeases = new EntryLeases(LeasePolicy.of(IndexFsConfig.LEASE_POLICY.get(conf),
          IndexFsConfig.LEASE_FIXED_MS.get(conf), IndexFsConfig.LEASE_MAX_MS.get(conf)),
          IndexFsConfig.LEASE_TABLE_ENTRIES.get(conf), System::nanoTime);
      Partitions partitions = new Partitions(ns);
      partitions.useSlotCount(peers::slotCount);
      PathResolver resolver = new PathResolver(ns, IndexFsConfig.MAX_COMPONENT_LENGTH.get(conf), partitions);
      metrics = new ServerMetrics(IndexFsConfig.CLUSTER_NAME.get(conf), slot);
      splits = new SplitManager(ns, partitions, peers, data, leases, metrics, IndexFsConfig.SPLIT_THRESHOLD.get(conf));
      resolver.useLeases((parentId, name, depth) -> entryLeases.grant(new LeaseKey(parentId, name), depth));
      // Cached entries clients present are believed only with a seal a server made (DESIGN §14).
      resolutionKeys = new ResolutionKeys(zooKeeper, IndexFsConfig.ZOOKEEPER_QUORUM.get(conf),
          IndexFsConfig.ZOOKEEPER_SESSION_TIMEOUT_MS.get(conf), IndexFsConfig.CLUSTER_NAME.get(conf),
          IndexFsConfig.SECURITY_KEY_ROTATION_MS.get(conf));
      resolver.useSeal(new AncestorSeal(resolutionKeys, IndexFsConfig.SECURITY_RESOLUTION_GRACE_MS.get(conf)));
      keyRotation = new Periodic("indexfs-keys-" + slot,
          Math.max(1_000, Math.min(IndexFsConfig.SECURITY_KEY_ROTATION_MS.get(conf) / 4, 60_000)), true, () -> {
            try {
              resolutionKeys.refresh();
            } catch (Exception e) {
              LOG.warn("Could not refresh the resolution keys: {}", e.toString());
            }
          });
      OpContext ctx = new OpContext(ns, resolver,
          access, reclaimer, dataUri, IndexFsConfig.INLINE_MAX_BYTES.get(conf), IndexFsConfig.LIST_PAGE_SIZE.get(conf),
          leases, recovery, data, peers, homes, placement, entryLeases, partitions, splits,
          new QuotaShares(ns, peers));
      // Bulk insertion (IndexFS §II-D): leases on localized subtrees, and the ingest of what their holders publish.
      org.indexfs.server.bulk.Localizations localizations = new org.indexfs.server.bulk.Localizations(ns,
          IndexFsConfig.LOCALIZE_LEASE_MS.get(conf), IndexFsConfig.LOCALIZE_YIELD_MS.get(conf));
      resolver.useLocalized(localizations);
      org.indexfs.server.bulk.BulkIngest bulk = new org.indexfs.server.bulk.BulkIngest(ctx, localizations,
          Path.of(dir, "bulk"));
      splits.holdWhile(bulk::inLocalizedSubtree);
      localizer = new org.indexfs.server.bulk.Localizer(ctx, localizations, bulk,
          IndexFsConfig.LOCALIZE_MAX_ID_BLOCK.get(conf));
      RenameIntents renames = new RenameIntents(ns);
      CrossSlotRename crossSlot = new CrossSlotRename(ctx, renames);
      resolver.useFreeze((dirId, name) -> splits.isFrozen(dirId, name) || crossSlot.isMoving(dirId, name));
      splits.pinWhile(crossSlot::pins);
      placementRefresh = new Periodic("indexfs-placement-" + slot, IndexFsConfig.HOME_SYNC_INTERVAL_MS.get(conf),
          true, () -> {
            if (!fence.serving()) {
              return;
            }
            placement.refresh();
            homes.driveAll();
            crossSlot.settleAll();
            splits.recover();
          });
      auditLog = IndexFsConfig.AUDIT_ENABLED.get(conf)
          ? AuditLog.start(IndexFsConfig.AUDIT_QUEUE.get(conf)) : AuditLog.disabled();
      metricsLog = new Periodic("indexfs-metrics-" + slot, IndexFsConfig.METRICS_LOG_INTERVAL_MS.get(conf), false,
          () -> LOG.info("{}", metrics.summary()));
      // Operators: admin requests, and safe mode over client mutations and background changes.
      AdminContext admin = new AdminContext(ctx, safeMode, metrics);
      if (journal != null) {
        admin.useHighAvailability(highAvailability(IndexFsConfig.CLUSTER_NAME.get(conf), slot));
      }
      // No change of its own while in safe mode, or while the slot's lease is in doubt.
      java.util.function.BooleanSupplier hold = () -> safeMode.isOn() || !fence.serving();
      leaseMonitor.pauseWhile(hold);
      scrubber.pauseWhile(hold);
      reclaimer.pauseWhile(hold);
      splits.pauseWhile(hold);
      Map<OpCase, Operation> ops = operations(ctx, crossSlot, renames, scrubber, conf);
      NamespaceFeatures.install(ops, ctx, conf);
      // Delegation tokens, shared by every server through ZooKeeper: only with Kerberos (DESIGN §14).
      if (kerberos != null) {
        tokens = DelegationTokens.start(hadoopConf, lease.curator(), IndexFsConfig.CLUSTER_NAME.get(conf));
        kerberos.useTokens(tokens);
        ops.put(OpCase.GET_DELEGATION_TOKEN, new GetDelegationTokenOp(tokens));
        ops.put(OpCase.RENEW_DELEGATION_TOKEN, new RenewDelegationTokenOp(tokens));
        ops.put(OpCase.CANCEL_DELEGATION_TOKEN, new CancelDelegationTokenOp(tokens));
      } else {
        tokens = null;
      }
      // Snapshots (issue 17): client mutations pass a gate a snapshot's barrier closes for moments.
      org.indexfs.server.snapshot.SnapshotGate snapshotGate = new org.indexfs.server.snapshot.SnapshotGate(ns,
          org.indexfs.server.snapshot.SnapshotGate.Limits.of(conf));
      ops.put(OpCase.SNAPSHOT, new org.indexfs.server.snapshot.SnapshotOp(ctx, snapshotGate,
          new org.indexfs.server.xattr.XAttrRules(IndexFsConfig.XATTRS_ENABLED.get(conf),
              IndexFsConfig.MAX_XATTRS_PER_INODE.get(conf), IndexFsConfig.MAX_XATTR_SIZE.get(conf)),
          new org.indexfs.server.acl.AclSwitch(IndexFsConfig.ACLS_ENABLED.get(conf))));
      splits.useGate(snapshotGate);
      // Bulk insertion (DESIGN §12): leases on subtrees and the publishes that end them.
      ops.put(OpCase.LOCALIZE, new org.indexfs.server.bulk.LocalizeOp(ctx, localizer));
      org.indexfs.server.bulk.PublishOp publishOp = new org.indexfs.server.bulk.PublishOp(ctx, localizer);
      ops.put(OpCase.PUBLISH, publishOp);
      // Every operation is in: the guards wrap those their trait names in OperationTable, innermost first.
      QuotaRetry.install(ops, ctx.quotas());
      AdminOps.install(ops, admin);
      org.indexfs.server.snapshot.GatedOp.install(ops, snapshotGate);
      SpaceGuard.install(ops, new DiskSpace(Path.of(dir), IndexFsConfig.STORE_RESERVED_BYTES.get(conf)), slot);
      // At-most-once calls: a retry gets the first answer (outermost, DESIGN §11).
      RetryCache retries = new RetryCache(ns, IndexFsConfig.RETRY_CACHE_EXPIRY_MS.get(conf),
          IndexFsConfig.RETRY_CACHE_ENTRIES.get(conf));
      crossSlot.useCallIds(request -> {
        CallKey key = CallKey.of(request);
        return key == null ? java.util.UUID.randomUUID().toString() : key.newTxid();
      }, (batch, txid, landed) -> {
        CallKey key = CallKey.ofTxid(txid);
        if (key != null && landed) {
          retries.recordIn(batch, key, org.indexfs.proto.Response.newBuilder()
              .setBool(org.indexfs.proto.BoolResult.newBuilder().setValue(true)).build());
        } else if (key != null) {
          retries.forgetIn(batch, key);
        }
      });
      RetriedOp.install(ops, retries, new AppliedAnswers(ctx, crossSlot, publishOp::landed));
      retryPurge = new Periodic("indexfs-retry-purge-" + slot, IndexFsConfig.RETRY_CACHE_EXPIRY_MS.get(conf) / 2,
          false, () -> {
            if (fence.serving()) {
              retries.purge();
            }
          });
      CallerIdentity identity = new CallerIdentity(new ServerGroups(hadoopConf), new ProxyUserRule(hadoopConf));
      if (kerberos != null) {
        identity.serversAre(kerberos.shortName());
      }
      identity.trustAddressesFrom(IndexFsConfig.SECURITY_ADDRESS_PROXY_USERS.get(conf));
      dispatcher = new Dispatcher(ops, IndexFsConfig.SERVER_HANDLERS.get(conf),
          IndexFsConfig.SERVER_QUEUE.get(conf), new Auditor(auditLog, ctx), metrics, ns,
          IndexFsConfig.RPC_MAX_FRAME_BYTES.get(conf), IndexFsConfig.CLUSTER_NAME.get(conf) + "/" + slot, fence,
          identity, ctx.partitions()::slotCount);
      rpc = new RpcServer(dispatcher, IndexFsConfig.RPC_MAX_FRAME_BYTES.get(conf),
          IndexFsConfig.RPC_IDLE_TIMEOUT_SECONDS.get(conf), ioThreads(IndexFsConfig.SERVER_IO_THREADS.get(conf)), slot,
          RpcServer.Limits.from(conf), kerberos, peerSecret);
      address = rpc.start(IndexFsConfig.SERVER_BIND_HOST.get(conf), IndexFsConfig.SERVER_PORT.get(conf));
      data.prepare();
      reclaimer.start();
      leaseMonitor.start();
      scrubber.start();
      localizer.start();
      peers.attach(lease.curator(), zooKeeper, IndexFsConfig.CLUSTER_NAME.get(conf), lease.clusterConfig().slots());
      scrubber.usePeers(peers);
      safeMode.attach(lease.curator(), IndexFsConfig.CLUSTER_NAME.get(conf));
      status = StatusServer.start(admin, IndexFsConfig.SERVER_BIND_HOST.get(conf), IndexFsConfig.HTTP_PORT.get(conf));
      admin.listening(address.getHostString() + ":" + address.getPort(), status == null ? "" : status.hostPort());
      if (status != null) {
        status.publish(lease.curator(), IndexFsConfig.CLUSTER_NAME.get(conf), slot);
      }
      metrics.start(new LiveGauges(ns, entryLeases, leases, splits, safeMode::isOn),
          IndexFsConfig.METRICS_WINDOW_MS.get(conf));
      lease.publish(address.getHostString() + ":" + address.getPort());
      started = true;
      fence.open();
      if (journal != null) {
        journal.startCheckpoints(slot, fence::serving);
      }
      placementRefresh.start();
      metricsLog.start();
      retryPurge.start();
      keyRotation.start();
    } catch (Exception e) {
      closeQuietly();
      throw e instanceof IOException io ? io : new IOException("Server start failed: " + e.getMessage(), e);
    }
    LOG.info("IndexFS server for slot {} serving {} from {} (wal.sync={}, status page {})", slot, address, dir,
        IndexFsConfig.WAL_SYNC.get(conf), status == null ? "off" : "http://" + status.hostPort() + "/");
  }

  private AdminContext.HighAvailability highAvailability(String cluster, int slot) {
    return new AdminContext.HighAvailability() {
      @Override
      public long epoch() {
        return lease.epoch();
      }

      @Override
      public java.util.List<String> standbys() throws IOException {
        java.util.List<String> out = new java.util.ArrayList<>();
        String dir = org.indexfs.common.ClusterPaths.standbys(cluster, slot);
        try {
          for (String child : lease.curator().getChildren().forPath(dir)) {
            out.add(new String(lease.curator().getData().forPath(dir + "/" + child), java.nio.charset.StandardCharsets.UTF_8));
          }
        } catch (org.apache.zookeeper.KeeperException.NoNodeException none) {
          return out;
        } catch (Exception e) {
          throw new IOException("Cannot list the standbys of slot " + slot + ": " + e.getMessage(), e);
        }
        java.util.Collections.sort(out);
        return out;
      }

      @Override
      public long journalDurableSeq() {
        return journal.durableUpTo();
      }

      @Override
      public void handOver(String to) throws IOException {
        IndexFsServer.this.handOver(cluster, slot, to);
      }
    };
  }

  /** How this server names itself: {@code indexfs.server.name} (or its bind host) and its process id. */
  static String name(Map<String, String> conf) {
    String name = IndexFsConfig.SERVER_NAME.get(conf);
    return (name.isEmpty() ? IndexFsConfig.SERVER_BIND_HOST.get(conf) : name) + " (pid " + ProcessHandle.current().pid() + ")";
  }

  /** What the slot's lease tells this server: stop answering when it is in doubt, resume when it is back. */
  private SlotLease.Holder holder(Standby standby, String cluster) {
    return new SlotLease.Holder() {
      @Override
      public void waiting(org.apache.curator.framework.CuratorFramework curator) throws IOException {
        if (standby != null) {
          standby.register(curator, cluster);
        }
      }

      @Override
      public void lost(String why) {
        fence.close(why);
      }

      @Override
      public void regained() {
        if (started) {
          fence.open();
        }
      }

      @Override
      public void superseded(long epoch) {
        fence.close("another server took the slot over (epoch " + epoch + ")");
        IndexFsServer.this.superseded();
      }
    };
  }

  private void superseded() {
    superseded = true;
    onSuperseded.run();
  }

  private static int ioThreads(int configured) {
    return configured > 0 ? configured : Math.max(2, Runtime.getRuntime().availableProcessors());
  }

  public static IndexFsServer start(Map<String, String> conf) throws IOException {
    return new IndexFsServer(conf, s -> {});
  }

  /**
   * Starts a server; with {@code indexfs.server.standby=true} this returns only once the server
   * took the slot over, and {@code onStandby} is told as soon as it follows the journal.
   */
  public static IndexFsServer start(Map<String, String> conf, java.util.function.Consumer<Standby> onStandby)
      throws IOException {
    return new IndexFsServer(conf, onStandby);
  }

  private static Map<OpCase, Operation> operations(OpContext ctx, CrossSlotRename crossSlot, RenameIntents renames,
      Scrubber scrubber, Map<String, String> conf) {
    Map<OpCase, Operation> ops = new EnumMap<>(OpCase.class);
    AccessTimes accessTimes = new AccessTimes(IndexFsConfig.ACCESS_TIME_PRECISION_MS.get(conf));
    ops.put(OpCase.MKDIRS, new MkdirsOp(ctx));
    ops.put(OpCase.CREATE, new CreateOp(ctx, IndexFsConfig.MIN_BLOCK_SIZE.get(conf)));
    ops.put(OpCase.GET_FILE_STATUS, new GetFileStatusOp(ctx));
    ops.put(OpCase.LIST_STATUS, new ListStatusOp(ctx));
    ops.put(OpCase.DELETE, new DeleteOp(ctx));
    ops.put(OpCase.RENAME, new RenameOp(ctx, crossSlot));
    ops.put(OpCase.RENAME_IN, new RenameInOp(ctx, renames));
    ops.put(OpCase.SET_PERMISSION, new SetPermissionOp(ctx));
    ops.put(OpCase.SET_OWNER, new SetOwnerOp(ctx));
    ops.put(OpCase.SET_TIMES, new SetTimesOp(ctx, accessTimes));
    ops.put(OpCase.SET_REPLICATION, new SetReplicationOp(ctx));
    ops.put(OpCase.CONTENT_SUMMARY, new ContentSummaryOp(ctx));
    ops.put(OpCase.OPEN, new OpenOp(ctx, accessTimes));
    ops.put(OpCase.COMPLETE, new CompleteOp(ctx));
    ops.put(OpCase.SERVER_INFO, new ServerInfoOp(ctx, new ServerDefaults(ctx.data())));
    ops.put(OpCase.APPEND, new AppendOp(ctx));
    ops.put(OpCase.FLUSH, new FlushOp(ctx));
    ops.put(OpCase.RENEW_LEASE, new RenewLeaseOp(ctx));
    ops.put(OpCase.RECOVER_LEASE, new RecoverLeaseOp(ctx));
    ops.put(OpCase.TRUNCATE, new TruncateOp(ctx));
    ops.put(OpCase.CONCAT, new ConcatOp(ctx));
    ops.put(OpCase.ACCESS, new AccessOp(ctx));
    ops.put(OpCase.PARTITION, new PartitionOp(ctx));
    ops.put(OpCase.REFERENCED, new ReferencedObjectsOp(scrubber, ctx.access()));
    return ops;
  }

  public InetSocketAddress address() {
    return address;
  }

  /** The transport (tests look at what it holds). */
  public RpcServer rpc() {
    return rpc;
  }

  public Namespace namespace() {
    return ns;
  }

  public Reclaimer reclaimer() {
    return reclaimer;
  }

  /** True while this server answers for its slot (its lease is held). */
  public boolean serving() {
    return fence.serving();
  }

  /**
   * What to do when the slot's lease comes back after another writer took the slot over meanwhile:
   * this server's state is no longer the slot's. It stays fenced; {@code main} exits (see there).
   */
  public void onSuperseded(Runnable action) {
    onSuperseded = action;
    if (superseded) {
      action.run();
    }
  }

  /** What to do once this server handed its slot over ({@code admin -handover}): {@link SlotRunner} closes it. */
  public void onHandedOver(Runnable action) {
    onHandedOver = action;
    if (handedOver) {
      action.run();
    }
  }

  /** Names the successor, stops answering, and asks to be stopped (the lease passes when the journal is closed). */
  private void handOver(String cluster, int slot, String to) throws IOException {
    org.indexfs.server.membership.Handovers.name(lease.curator(), cluster, slot, to);
    fence.close("the slot is being handed over" + (to.isEmpty() ? "" : " to " + to));
    LOG.info("Slot {}: handing over to {}", slot, to.isEmpty() ? "any standby" : to);
    handedOver = true;
    Thread t = new Thread(onHandedOver, "indexfs-handover-" + slot);
    t.start();
  }

  /** The journal this server writes, or null without {@code indexfs.journal.enabled}. */
  public ActiveJournal journal() {
    return journal;
  }

  public SplitManager splits() {
    return splits;
  }

  public ServerMetrics metrics() {
    return metrics;
  }

  /** The status page and /prom, or null when {@code indexfs.http.port=-1}. */
  public StatusServer statusServer() {
    return status;
  }

  public SafeMode safeMode() {
    return safeMode;
  }

  public EntryLeases entryLeases() {
    return entryLeases;
  }

  public Scrubber scrubber() {
    return scrubber;
  }

  /** The write leases of files open here (tests read a writer's reserved object name). */
  public LeaseTable writeLeases() {
    return leases;
  }

  public LeaseMonitor leaseMonitor() {
    return leaseMonitor;
  }

  private void closeQuietly() {
    try {
      close();
    } catch (RuntimeException e) {
      LOG.warn("Error while closing a server that failed to start", e);
    }
  }

  @Override
  public void close() {
    // Nothing more is answered or acknowledged; the slot's lease is released last, once the journal
    // is closed, so a successor finds it complete. Everything that uses the ZooKeeper session stops
    // before the lease closes it.
    fence.close("the server is stopping");
    if (placementRefresh != null) {
      placementRefresh.close();
    }
    if (metricsLog != null) {
      metricsLog.close();
    }
    if (retryPurge != null) {
      retryPurge.close();
    }
    if (keyRotation != null) {
      keyRotation.close();
    }
    if (status != null) {
      status.close();
    }
    safeMode.close();
    if (splits != null) {
      splits.close();
    }
    if (metrics != null) {
      metrics.close();
    }
    if (rpc != null) {
      rpc.close();
    }
    if (peers != null) {
      peers.close();
    }
    if (dispatcher != null) {
      dispatcher.close();
    }
    if (scrubber != null) {
      scrubber.close();
    }
    if (localizer != null) {
      localizer.close();
    }
    if (leaseMonitor != null) {
      leaseMonitor.close();
    }
    if (auditLog != null) {
      auditLog.close();
    }
    if (reclaimer != null) {
      reclaimer.close();
    }
    if (ns != null) {
      ns.close();
    }
    if (journal != null) {
      journal.close();
    }
    if (tokens != null) {
      tokens.close(); // on the lease's session: before it ends
    }
    if (lease != null) {
      lease.close();
    }
    if (resolutionKeys != null) {
      resolutionKeys.close();
    }
    if (data != null) {
      try {
        data.close();
      } catch (IOException e) {
        LOG.warn("Data tier client did not close cleanly", e);
      }
    }
    if (store != null) {
      store.close();
    }
  }

  /** Exit status of a server whose slot was taken over by another while its lease was in doubt (EX_TEMPFAIL). */
  public static final int EXIT_SUPERSEDED = 75;

  /**
   * {@code bin/indexfs server [-D key=value ...] [--conf file.xml] [--standby]}: runs one slot's server
   * until killed. Prints {@code INDEXFS_SERVER_READY host:port} whenever it serves the slot, and
   * {@code INDEXFS_STANDBY_READY slot} whenever it follows it as a standby; exits 75 when another
   * server took the slot over and there is no journal to follow (its supervisor should restart it).
   * With {@code indexfs.server.gateway.enabled} it also runs a gateway and prints
   * {@code INDEXFS_GATEWAY_READY hdfs://host:port}.
   */
  public static void main(String[] args) throws Exception {
    Map<String, String> conf = new HashMap<>(ServerConf.load(args));
    List<Map<String, String>> slots = ServerConf.perSlot(conf);
    boolean several = !IndexFsConfig.SERVER_SLOTS.get(conf).isBlank();
    List<SlotRunner> runners = new java.util.concurrent.CopyOnWriteArrayList<>();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> runners.forEach(SlotRunner::close), "indexfs-shutdown"));
    for (Map<String, String> c : slots) {
      int slot = IndexFsConfig.SERVER_SLOT.get(c);
      runners.add(SlotRunner.start(c, new SlotRunner.Events() {
        @Override
        public void standing(Standby standby) {
          // One line per change, for supervisors and tests; a process of several slots names the slot.
          System.out.println(several ? "INDEXFS_SLOT_STANDBY " + slot : "INDEXFS_STANDBY_READY " + slot);
          System.out.flush();
        }

        @Override
        public void serving(IndexFsServer server) {
          String at = server.address().getHostString() + ":" + server.address().getPort();
          System.out.println(several ? "INDEXFS_SLOT_SERVING " + slot + " " + at : "INDEXFS_SERVER_READY " + at);
          System.out.flush();
        }

        @Override
        public void stopped(int status) {
          // One slot given up for good takes its process with it, so a supervisor restarts them all.
          LOG.error("Slot {}: exiting with status {}", slot, status);
          new Thread(() -> System.exit(status), "indexfs-exit").start();
        }
      }));
    }
    if (several) {
      System.out.println("INDEXFS_PROCESS_READY " + slots.size());
      System.out.flush();
    }
    InProcessGateway gateway;
    try {
      gateway = InProcessGateway.startIfEnabled(conf);
    } catch (IOException | RuntimeException e) {
      // Asked for and not there: the process fails as a whole, so its supervisor sees it.
      LOG.error("Could not start the gateway of this server process", e);
      System.err.println("indexfs server: could not start its gateway: " + e.getMessage());
      runners.forEach(SlotRunner::close);
      System.exit(1);
      return;
    }
    if (gateway != null) {
      Runtime.getRuntime().addShutdownHook(new Thread(gateway::close, "indexfs-gateway-shutdown"));
      System.out.println("INDEXFS_GATEWAY_READY " + gateway.uri());
      System.out.flush();
    }
    Thread.currentThread().join();
  }
}
