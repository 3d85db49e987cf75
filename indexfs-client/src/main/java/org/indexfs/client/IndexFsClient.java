package org.indexfs.client;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.PathNames;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.proto.AccessRequest;
import org.indexfs.proto.DelegationToken;
import org.indexfs.proto.DelegationTokenRequest;
import org.indexfs.proto.TokenRequest;
import org.indexfs.proto.AclEditRequest;
import org.indexfs.proto.AclEntry;
import org.indexfs.proto.AclStatus;
import org.indexfs.proto.GetAclStatusRequest;
import org.indexfs.proto.GetXAttrsRequest;
import org.indexfs.proto.RemoveXAttrRequest;
import org.indexfs.proto.SetQuotaRequest;
import org.indexfs.common.policy.PolicyAt;
import org.indexfs.common.policy.SubtreePolicy;
import org.indexfs.proto.SetXAttrRequest;
import org.indexfs.proto.XAttr;
import org.indexfs.proto.AppendRequest;
import org.indexfs.proto.Caller;
import org.indexfs.proto.CompleteRequest;
import org.indexfs.proto.ConcatRequest;
import org.indexfs.proto.ContentSummary;
import org.indexfs.proto.ContentSummaryRequest;
import org.indexfs.proto.CreateRequest;
import org.indexfs.proto.DeleteRequest;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.FlushRequest;
import org.indexfs.proto.GetFileStatusRequest;
import org.indexfs.proto.ListStatusRequest;
import org.indexfs.proto.Listing;
import org.indexfs.proto.LocalizeGrant;
import org.indexfs.proto.LocalizeRequest;
import org.indexfs.proto.MkdirsRequest;
import org.indexfs.proto.OpenRequest;
import org.indexfs.proto.OpenResult;
import org.indexfs.proto.PublishRequest;
import org.indexfs.proto.PublishResult;
import org.indexfs.proto.RecoverLeaseRequest;
import org.indexfs.proto.RenameRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Resolution;
import org.indexfs.proto.Response;
import org.indexfs.proto.ServerInfo;
import org.indexfs.proto.ServerInfoRequest;
import org.indexfs.proto.SetOwnerRequest;
import org.indexfs.proto.SetPermissionRequest;
import org.indexfs.proto.SetReplicationRequest;
import org.indexfs.proto.SetTimesRequest;
import org.indexfs.proto.TruncateRequest;
import org.indexfs.proto.WriteHandle;

/**
 * The IndexFS namespace API for one caller, usable without Hadoop. Every call carries the
 * caller's identity; errors come back as {@link IndexFsException} with the server's code.
 */
public final class IndexFsClient implements AutoCloseable {
  private final ClusterConnection cluster;
  private final Caller caller;
  private final RpcCounters counters = new RpcCounters();
  /** The failover loop: one call to one slot, riding through failovers. */
  private final FailoverSender sender;
  /** The routing loop: which slot a path's call goes to, following the servers' redirects. */
  private final PathRouter router;
  /** Files this client writes, and the slot holding each one's write lease. */
  private final WriteLeases leases;
  private final SubtreePolicies policies;
  /**
   * Names this client's calls {@code (rpcClientId, callIds(operation))} for the servers' retry
   * caches instead of this process's connection id and a fresh number: a gateway passes on the names
   * its own callers gave a call, so the same call retried through another gateway is answered from
   * the retry cache instead of running twice. {@code callIds} must not repeat a number while this
   * process has a call with it in flight. Returns this client.
   */
  public IndexFsClient namingCalls(ByteString rpcClientId, java.util.function.ToLongFunction<Request.OpCase> callIds) {
    sender.namingCalls(rpcClientId, callIds);
    return this;
  }

  public IndexFsClient(ClusterConnection cluster, Caller caller, long timeoutMs) {
    this(cluster, caller, timeoutMs, IndexFsConfig.CLIENT_FAILOVER_WAIT_MS.defaultValue());
  }

  /**
   * {@code failoverWaitMs}: how long a call keeps being retried while its slot is unreachable,
   * not served (a failover) or busy, before the error is thrown.
   */
  public IndexFsClient(ClusterConnection cluster, Caller caller, long timeoutMs, long failoverWaitMs) {
    this.cluster = cluster;
    this.caller = caller;
    this.sender = new FailoverSender(cluster, caller, timeoutMs, failoverWaitMs, counters);
    this.router = new PathRouter(cluster, sender, counters, timeoutMs);
    this.leases = new WriteLeases(cluster, sender, router);
    this.policies = new SubtreePolicies(cluster, sender, router);
  }

  /** Tests only: the next call of this thread goes out with {@code callId}, as a retry of that call would. */
  void reuseCallId(long callId) {
    sender.reuseCallId(callId);
  }

  /** RPCs sent by this client, by operation (and re-routings), since it was opened. */
  public RpcCounters rpcCounters() {
    return counters;
  }

  public static Caller caller(String user, List<String> groups, String clientId) {
    return Caller.newBuilder().setUser(user).addAllGroups(groups).setClientId(clientId).build();
  }

  public Caller caller() {
    return caller;
  }

  public boolean mkdirs(String path, int permission) throws IOException {
    return mkdirs(path, permission, null);
  }

  /** {@code unmasked}: the mode before the umask, used under a default ACL (HDFS-6962); null: not sent. */
  public boolean mkdirs(String path, int permission, Integer unmasked) throws IOException {
    MkdirsRequest.Builder b = MkdirsRequest.newBuilder().setPath(path).setPermission(permission);
    if (unmasked != null) {
      b.setUnmasked(unmasked);
    }
    return call(Request.newBuilder().setMkdirs(b), path, false).getBool().getValue();
  }

  /** What a mkdirs did, and the subtree policy in force at the directory (the server says so in its answer). */
  public record Made(boolean created, SubtreePolicy policy) {}

  /** As {@link #mkdirs(String, int, Integer)}, telling also the policy in force at {@code path}. */
  public Made mkdirsInPolicy(String path, int permission, Integer unmasked) throws IOException {
    MkdirsRequest.Builder b = MkdirsRequest.newBuilder().setPath(path).setPermission(permission);
    if (unmasked != null) {
      b.setUnmasked(unmasked);
    }
    Response r = call(Request.newBuilder().setMkdirs(b), path, false);
    SubtreePolicy policy = SubtreePolicy.fromFlags(r.getPolicyFlags());
    return new Made(r.getBool().getValue(), policy == null ? SubtreePolicy.DEFAULT : policy);
  }

  /**
   * The policy in force at {@code path} as this client's lease cache knows it (the sealed directory
   * entries servers handed out carry their flags), with no call; null when the cache does not hold
   * every directory from the root to {@code path}'s parent.
   */
  public SubtreePolicy cachedPolicy(String path) throws IOException {
    return policies.cached(path);
  }

  public FileStatus create(String path, int permission, boolean overwrite, int replication, long blockSize,
      boolean createParent) throws IOException {
    return create(path, permission, null, overwrite, replication, blockSize, createParent);
  }

  public FileStatus create(String path, int permission, Integer unmasked, boolean overwrite, int replication,
      long blockSize, boolean createParent) throws IOException {
    CreateRequest.Builder b = CreateRequest.newBuilder().setPath(path)
        .setPermission(permission).setOverwrite(overwrite).setReplication(replication).setBlockSize(blockSize)
        .setCreateParent(createParent);
    if (unmasked != null) {
      b.setUnmasked(unmasked);
    }
    PathRouter.Routed r = router.route(Request.newBuilder().setCreate(b), path, false, 0, null);
    FileStatus created = r.response().getStatus();
    leases.opened(created.getInodeId(), r.slot());
    return created;
  }

  public FileStatus getFileStatus(String path) throws IOException {
    return call(Request.newBuilder().setGetFileStatus(GetFileStatusRequest.newBuilder().setPath(path)), path, false)
        .getStatus();
  }

  /** HDFS checkAccess: returns if the caller may perform {@code mode} (rwx bits) on {@code path}. */
  public void access(String path, int mode) throws IOException {
    call(Request.newBuilder().setAccess(AccessRequest.newBuilder().setPath(path).setMode(mode)), path, false);
  }

  /** A delegation token for this caller, renewable by {@code renewer} (Kerberos callers only). */
  public DelegationToken getDelegationToken(String renewer) throws IOException {
    return anySlot(Request.newBuilder().setGetDelegationToken(DelegationTokenRequest.newBuilder().setRenewer(renewer)))
        .getToken();
  }

  /** Renews a token (its renewer only); the new expiry, in ms since the epoch. */
  public long renewDelegationToken(byte[] identifier, byte[] password) throws IOException {
    return anySlot(Request.newBuilder().setRenewDelegationToken(TokenRequest.newBuilder()
        .setIdentifier(ByteString.copyFrom(identifier)).setPassword(ByteString.copyFrom(password)))).getToken().getExpiryMs();
  }

  public void cancelDelegationToken(byte[] identifier, byte[] password) throws IOException {
    anySlot(Request.newBuilder().setCancelDelegationToken(TokenRequest.newBuilder()
        .setIdentifier(ByteString.copyFrom(identifier)).setPassword(ByteString.copyFrom(password))));
  }

  /** Calls that any server answers alike (tokens live in ZooKeeper): slot 0's. */
  private Response anySlot(Request.Builder request) throws IOException {
    return call(request, "/", false);
  }

  /**
   * One page of partition {@code partition} of a directory: its names after {@code startAfter}
   * (UTF-8; empty for the first page) in HDFS order. {@link #list} merges the partitions.
   */
  public Listing listPage(String path, int partition, ByteString startAfter, int limit) throws IOException {
    // A page goes to the slot of the partition (its lowest hash routes there, DESIGN §4).
    return router.route(Request.newBuilder().setListStatus(ListStatusRequest.newBuilder().setPath(path)
        .setPartition(partition).setStartAfter(startAfter).setLimit(limit)), path, true,
        Long.reverse(partition), null).response().getListing();
  }

  /** A directory's entries (or the file itself) in HDFS order, streamed page by page. */
  public DirectoryListing list(String path) {
    return list(path, () -> {});
  }

  /** As {@link #list}; {@code onPage} runs after every page fetched (statistics). */
  public DirectoryListing list(String path, Runnable onPage) {
    return new DirectoryListing(this, path, 0, onPage, cachedPartitions(path), ByteString.EMPTY);
  }

  /** The entries after name {@code startAfter} (UTF-8; empty: from the start), as HDFS's getListing resumes. */
  public DirectoryListing listAfter(String path, ByteString startAfter) {
    return new DirectoryListing(this, path, 0, () -> {}, cachedPartitions(path), startAfter);
  }

  /** The GIGA+ partitions of directory {@code path} this client has heard of (none: only partition 0). */
  private int[] cachedPartitions(String path) {
    List<String> names;
    try {
      names = PathNames.components(path, Integer.MAX_VALUE);
    } catch (IndexFsException invalid) {
      return new int[0]; // the first page's answer says what is wrong with the path
    }
    Resolution known = cluster.resolutions().resolve(names, names.size());
    if (known.getAncestorsCount() != names.size() + 1) {
      return new int[0];
    }
    PartitionBitmap bitmap = cluster.resolutions().bitmap(known.getAncestors(names.size()).getInodeId());
    return bitmap == null ? new int[0] : bitmap.partitions();
  }

  /** Every entry of a directory (or the file itself), in HDFS order. */
  public List<FileStatus> listAll(String path) throws IOException {
    List<FileStatus> all = new ArrayList<>();
    DirectoryListing listing = list(path);
    while (listing.hasNext()) {
      all.add(listing.next());
    }
    return all;
  }

  public boolean delete(String path, boolean recursive) throws IOException {
    return call(Request.newBuilder().setDelete(DeleteRequest.newBuilder().setPath(path).setRecursive(recursive)),
        path, false).getBool().getValue();
  }

  /** {@code FileSystem.rename} rules: false instead of most refusals. */
  public boolean rename(String src, String dst) throws IOException {
    return router.route(Request.newBuilder().setRename(RenameRequest.newBuilder().setSrc(src).setDst(dst)
        .setMode(RenameRequest.Mode.LEGACY)), src, false, 0, dst).response().getBool().getValue();
  }

  /** {@code FileContext.rename} rules: exact destination, refusals as exceptions. */
  public void renameExact(String src, String dst, boolean overwrite) throws IOException {
    router.route(Request.newBuilder().setRename(RenameRequest.newBuilder().setSrc(src).setDst(dst)
        .setMode(RenameRequest.Mode.EXACT).setOverwrite(overwrite)), src, false, 0, dst);
  }

  public void setPermission(String path, int permission) throws IOException {
    call(Request.newBuilder().setSetPermission(SetPermissionRequest.newBuilder().setPath(path)
        .setPermission(permission)), path, false);
  }

  /** Null or empty leaves that field unchanged. */
  public void setOwner(String path, String owner, String group) throws IOException {
    call(Request.newBuilder().setSetOwner(SetOwnerRequest.newBuilder().setPath(path)
        .setOwner(owner == null ? "" : owner).setGroup(group == null ? "" : group)), path, false);
  }

  public void setTimes(String path, long mtime, long atime) throws IOException {
    call(Request.newBuilder().setSetTimes(SetTimesRequest.newBuilder().setPath(path).setMtime(mtime)
        .setAtime(atime)), path, false);
  }

  public boolean setReplication(String path, int replication) throws IOException {
    return call(Request.newBuilder().setSetReplication(SetReplicationRequest.newBuilder().setPath(path)
        .setReplication(replication)), path, false).getBool().getValue();
  }

  public ContentSummary contentSummary(String path) throws IOException {
    return call(Request.newBuilder().setContentSummary(ContentSummaryRequest.newBuilder().setPath(path)), path, true)
        .getSummary();
  }

  public OpenResult open(String path) throws IOException {
    return call(Request.newBuilder().setOpen(OpenRequest.newBuilder().setPath(path)), path, false).getOpen();
  }

  /** Records a written file's length and where its bytes are (exactly one of the two forms). */
  public void complete(String path, long inodeId, long length, byte[] inlineData, String dataObject)
      throws IOException {
    CompleteRequest.Builder b = CompleteRequest.newBuilder().setPath(path).setInodeId(inodeId).setLength(length);
    if (inlineData != null) {
      b.setInlineData(ByteString.copyFrom(inlineData));
    }
    if (dataObject != null) {
      b.setDataObject(dataObject);
    }
    leases.call(Request.newBuilder().setComplete(b), path, inodeId);
    leases.closed(inodeId);
  }

  /** Opens a closed file for appending; the caller becomes its writer. */
  public WriteHandle append(String path) throws IOException {
    PathRouter.Routed r = router.route(Request.newBuilder().setAppend(AppendRequest.newBuilder().setPath(path)), path,
        false, 0, null);
    WriteHandle handle = r.response().getWriteHandle();
    leases.opened(handle.getStatus().getInodeId(), r.slot());
    return handle;
  }

  /**
   * Records an open file's current state (hflush/hsync, or a spill): exactly one of
   * {@code inlineData} (every byte so far) and {@code dataObject}.
   */
  public void flush(String path, long inodeId, long length, byte[] inlineData, String dataObject, boolean sync)
      throws IOException {
    FlushRequest.Builder b = FlushRequest.newBuilder().setPath(path).setInodeId(inodeId).setLength(length)
        .setSync(sync);
    if (inlineData != null) {
      b.setInlineData(ByteString.copyFrom(inlineData));
    }
    if (dataObject != null) {
      b.setDataObject(dataObject);
    }
    leases.call(Request.newBuilder().setFlush(b), path, inodeId);
  }

  /**
   * Keeps every write lease of this client alive. A directory split may have moved an open file's
   * lease to another slot, so with more than one slot every slot is told.
   */
  public void renewLease() throws IOException {
    leases.renewAll();
  }

  /** Closes a file whose writer is gone; true once it is closed. */
  public boolean recoverLease(String path) throws IOException {
    return call(Request.newBuilder().setRecoverLease(RecoverLeaseRequest.newBuilder().setPath(path)), path, false)
        .getBool().getValue();
  }

  /** True if done at once; false while the data tier settles the last block. */
  public boolean truncate(String path, long newLength) throws IOException {
    return call(Request.newBuilder().setTruncate(TruncateRequest.newBuilder().setPath(path)
        .setNewLength(newLength)), path, false).getBool().getValue();
  }

  public void concat(String target, List<String> sources) throws IOException {
    call(Request.newBuilder().setConcat(ConcatRequest.newBuilder().setTarget(target).addAllSources(sources)),
        target, false);
  }

  public void setXAttr(String path, XAttr xattr, boolean create, boolean replace) throws IOException {
    call(Request.newBuilder().setSetXattr(SetXAttrRequest.newBuilder().setPath(path).setXattr(xattr)
        .setCreate(create).setReplace(replace)), path, false);
  }

  /** The named attributes (all of them: every one must exist), or every visible one when {@code names} is empty. */
  public List<XAttr> getXAttrs(String path, List<XAttr> names) throws IOException {
    return call(Request.newBuilder().setGetXattrs(GetXAttrsRequest.newBuilder().setPath(path).addAllNames(names)),
        path, false).getXattrs().getXattrsList();
  }

  /** The names of the visible attributes (no values). */
  public List<XAttr> listXAttrs(String path) throws IOException {
    return call(Request.newBuilder().setGetXattrs(GetXAttrsRequest.newBuilder().setPath(path).setNamesOnly(true)),
        path, false).getXattrs().getXattrsList();
  }

  /** Sets ({@code policyName} non-null) or unsets an entry's storage policy (HDFS's checks happen on the server). */
  public void setStoragePolicy(String path, int policyId, String policyName, boolean copyOnCreate, String policyText)
      throws IOException {
    org.indexfs.proto.StoragePolicyRequest.Builder b = org.indexfs.proto.StoragePolicyRequest.newBuilder().setPath(path);
    if (policyName == null) {
      b.setAction(org.indexfs.proto.StoragePolicyRequest.Action.UNSET);
    } else {
      b.setAction(org.indexfs.proto.StoragePolicyRequest.Action.SET).setPolicyId(policyId).setPolicyName(policyName)
          .setCopyOnCreate(copyOnCreate).setPolicyText(policyText);
    }
    call(Request.newBuilder().setStoragePolicy(b), path, false);
  }

  /**
   * The entry's own storage policy id, 0 when it has none (then its parent's applies). {@code inherited}:
   * asked on the way up from the path the caller named, so no READ check (HDFS checks only that path).
   */
  public int storagePolicyId(String path, boolean inherited) throws IOException {
    return call(Request.newBuilder().setStoragePolicy(org.indexfs.proto.StoragePolicyRequest.newBuilder().setPath(path)
        .setAction(org.indexfs.proto.StoragePolicyRequest.Action.GET).setInherited(inherited)), path, false)
        .getStoragePolicy().getPolicyId();
  }

  public void removeXAttr(String path, XAttr xattr) throws IOException {
    call(Request.newBuilder().setRemoveXattr(RemoveXAttrRequest.newBuilder().setPath(path).setXattr(xattr)),
        path, false);
  }

  public void editAcl(String path, AclEditRequest.Action action, List<AclEntry> spec) throws IOException {
    call(Request.newBuilder().setAclEdit(AclEditRequest.newBuilder().setPath(path).setAction(action)
        .addAllSpec(spec)), path, false);
  }

  public AclStatus getAclStatus(String path) throws IOException {
    return call(Request.newBuilder().setGetAclStatus(GetAclStatusRequest.newBuilder().setPath(path)), path, false)
        .getAclStatus();
  }

  /** HDFS's setQuota: Long.MAX_VALUE leaves a quota unchanged, -1 clears it (superuser only). */
  public void setQuota(String path, long nsQuota, long dsQuota) throws IOException {
    call(Request.newBuilder().setSetQuota(SetQuotaRequest.newBuilder().setPath(path).setNsQuota(nsQuota)
        .setDsQuota(dsQuota)), path, false);
  }

  /**
   * Sets the subtree policy of directory {@code path} (issue 18); {@code policy} null clears it so
   * the directory inherits again. The directory's owner or the superuser.
   */
  public void setPolicy(String path, SubtreePolicy policy) throws IOException {
    policies.set(path, policy);
  }

  /** The policy in force at {@code path} and where it is set. */
  public PolicyAt getPolicy(String path) throws IOException {
    return policies.get(path);
  }

  /**
   * Every policy set in the namespace, by path: each slot's records, each confirmed by a walk to it
   * (a directory renamed or deleted since its policy was set is left out; README, Not yet).
   */
  public List<PolicyAt> listPolicies() throws IOException {
    return policies.list();
  }

  /**
   * LOCALIZE ({@code shared}: SHARED_LOCALIZE) the existing directory {@code path} for this client
   * (IndexFS §II-D), reserving {@code idsWanted} inode ids for it. See {@code client.bulk}.
   */
  public LocalizeGrant localize(String path, boolean shared, int idsWanted) throws IOException {
    return call(Request.newBuilder().setLocalize(LocalizeRequest.newBuilder().setPath(path)
        .setAction(LocalizeRequest.Action.GRANT).setShared(shared).setIdsWanted(idsWanted)), path, true)
        .getLocalizeGrant();
  }

  /** Renews this client's localization of {@code path} (and reserves more ids); may come back denied. */
  public LocalizeGrant renewLocalization(String path, int idsWanted) throws IOException {
    return call(Request.newBuilder().setLocalize(LocalizeRequest.newBuilder().setPath(path)
        .setAction(LocalizeRequest.Action.RENEW).setIdsWanted(idsWanted)), path, true).getLocalizeGrant();
  }

  /** Ends this client's localization of {@code path}; what it did not publish is dropped. */
  public void releaseLocalization(String path) throws IOException {
    call(Request.newBuilder().setLocalize(LocalizeRequest.newBuilder().setPath(path)
        .setAction(LocalizeRequest.Action.RELEASE)), path, true);
  }

  /**
   * How long a publish whose answer is overdue is asked for again: the server answers each resend
   * with the first try's outcome (waiting for it while it runs), and remembers it for the retry
   * cache's expiry (10 min by default).
   */
  private static final long PUBLISH_PATIENCE_MS = 600_000;

  /**
   * Has the localized directory's slot ingest {@code file} (an SST on the data tier); empty: none.
   * A publish can outlast the reply timeout (a large file, a slot of the subtree away): while the
   * answer is overdue the same call is sent again, so the caller hears how the one publish ended
   * (its report, or an error only when nothing landed) and never "file not found" from a second
   * execution.
   */
  public PublishResult publish(String path, String file, boolean release) throws IOException {
    return publish(path, file, release, null);
  }

  /**
   * {@code importPrincipals} non-null: an import's publish (superusers only, docs/import.md): the
   * file's owner/group ids are the ones this map names, and the file lands whole or not at all.
   */
  public PublishResult publish(String path, String file, boolean release, java.util.Map<Integer, String> importPrincipals)
      throws IOException {
    PublishRequest.Builder publish = PublishRequest.newBuilder().setPath(path).setFile(file).setRelease(release);
    if (importPrincipals != null) {
      publish.setImportEntries(true).putAllPrincipals(importPrincipals);
    }
    Request.Builder request = Request.newBuilder().setPublish(publish);
    request.setCallId(sender.nextCallId(request));
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PUBLISH_PATIENCE_MS);
    while (true) {
      try {
        return call(request, path, true).getPublishResult();
      } catch (FailoverSender.ReplyOverdue e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        counters.count("publish.resend");
      }
    }
  }

  /**
   * How long a call into a subtree another client has localized waits for it to publish before
   * failing with SUBTREE_LOCALIZED (0: fail at once). The holder's renewal is denied by the first
   * refusal, so it publishes within one lease period.
   */
  public void waitForLocalized(long ms) {
    router.waitForLocalized(ms);
  }

  /**
   * A snapshot call (issue 17): allow/disallow go to the slot holding the directory's entry, every
   * other one to the directory's home, where its snapshots are kept.
   */
  public org.indexfs.proto.SnapshotPage snapshot(org.indexfs.proto.SnapshotRequest.Builder r) throws IOException {
    org.indexfs.proto.SnapshotRequest.Action a = r.getAction();
    boolean atHome = a != org.indexfs.proto.SnapshotRequest.Action.ALLOW
        && a != org.indexfs.proto.SnapshotRequest.Action.DISALLOW;
    return call(Request.newBuilder().setSnapshot(r), r.getPath(), atHome).getSnapshotPage();
  }

  /**
   * The address of the server holding {@code path}'s entry, as far as this client's cache knows
   * (a hint for locality: an inline file's bytes come from there).
   */
  public java.net.InetSocketAddress serverOf(String path) throws IOException {
    List<String> names = PathNames.components(path, Integer.MAX_VALUE);
    Resolution known = cluster.resolutions().resolve(names, names.size() - 1);
    return cluster.connection(router.slotOf(known, names, 0)).address();
  }

  public ServerInfo serverInfo() throws IOException {
    return call(Request.newBuilder().setServerInfo(ServerInfoRequest.getDefaultInstance()), 0).getServerInfo();
  }

  /** A call about {@code path}, sent to its parent directory's home slot (or the directory's own, {@code into}). */
  private Response call(Request.Builder request, String path, boolean into) throws IOException {
    return router.route(request, path, into, 0, null).response();
  }

  /** A call that names no path (an operator's request), to the server of {@code slot}; errors are thrown. */
  public Response callSlot(int slot, Request.Builder request) throws IOException {
    return call(request, slot);
  }

  /** The cluster this client talks to. */
  public ClusterConnection connection() {
    return cluster;
  }

  /** A call that names no path, to one slot. */
  private Response call(Request.Builder request, int slot) throws IOException {
    return sender.call(slot, request);
  }

  /** Closing twice releases the connection once (a shared one is counted per user). */
  private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      cluster.close();
    }
  }
}
