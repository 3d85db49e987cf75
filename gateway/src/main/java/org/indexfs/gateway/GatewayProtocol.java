package org.indexfs.gateway;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedListEntries;
import org.apache.hadoop.fs.CacheFlag;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.ha.HAServiceProtocol;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.inotify.EventBatchList;
import org.apache.hadoop.hdfs.protocol.AddErasureCodingPolicyResponse;
import org.apache.hadoop.hdfs.protocol.BatchedDirectoryListing;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveEntry;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolEntry;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.CorruptFileBlocks;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.ECBlockGroupStats;
import org.apache.hadoop.hdfs.protocol.ECTopologyVerifierResult;
import org.apache.hadoop.hdfs.protocol.EncryptionZone;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicyInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.protocol.OpenFileEntry;
import org.apache.hadoop.hdfs.protocol.OpenFilesIterator;
import org.apache.hadoop.hdfs.protocol.ReplicatedBlockStats;
import org.apache.hadoop.hdfs.protocol.RollingUpgradeInfo;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReport;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReportListing;
import org.apache.hadoop.hdfs.protocol.SnapshotStatus;
import org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus;
import org.apache.hadoop.hdfs.protocol.ZoneReencryptionStatus;
import org.apache.hadoop.hdfs.security.token.block.DataEncryptionKey;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.Token;
import org.indexfs.proto.AclEditRequest;

/**
 * HDFS's {@link ClientProtocol} on IndexFS, the object behind HDFS's server-side protobuf
 * translator in the gateway's RPC server. It only routes: each call goes to the class that owns
 * its kind (names, writes, reads, the extended namespace, the cluster, tokens); what the gateway
 * cannot serve is refused by {@link Refusals} with HDFS's exception type and a reason naming
 * IndexFS.
 */
final class GatewayProtocol implements ClientProtocol {
  private final NamespaceCalls names;
  private final WriteCalls writes;
  private final Appends appends;
  private final LeaseCalls leases;
  private final Reads reads;
  private final ExtendedCalls extended;
  private final ClusterCalls cluster;
  private final TokenCalls tokens;

  GatewayProtocol(NamespaceCalls names, WriteCalls writes, Appends appends, LeaseCalls leases, Reads reads,
      ExtendedCalls extended, ClusterCalls cluster, TokenCalls tokens) {
    this.names = names;
    this.writes = writes;
    this.appends = appends;
    this.leases = leases;
    this.reads = reads;
    this.extended = extended;
    this.cluster = cluster;
    this.tokens = tokens;
  }

  // Reads and names.

  @Override
  public LocatedBlocks getBlockLocations(String src, long offset, long length) throws IOException {
    return reads.getBlockLocations(src, offset, length);
  }

  @Override
  public HdfsFileStatus getFileInfo(String src) throws IOException {
    return names.getFileInfo(src);
  }

  @Override
  public HdfsFileStatus getFileLinkInfo(String src) throws IOException {
    return names.getFileInfo(src); // IndexFS has no symlinks: every path is its own target
  }

  @Override
  public HdfsLocatedFileStatus getLocatedFileInfo(String src, boolean needBlockToken) throws IOException {
    return names.getLocatedFileInfo(src);
  }

  @Override
  public DirectoryListing getListing(String src, byte[] startAfter, boolean needLocation) throws IOException {
    return names.getListing(src, startAfter, needLocation);
  }

  @Override
  public BatchedDirectoryListing getBatchedListing(String[] srcs, byte[] startAfter, boolean needLocation)
      throws IOException {
    throw Refusals.unsupported("getBatchedListing", "list each directory on its own (getListing)");
  }

  @Override
  public boolean mkdirs(String src, FsPermission masked, boolean createParent) throws IOException {
    return names.mkdirs(src, masked, createParent);
  }

  @Override
  public boolean delete(String src, boolean recursive) throws IOException {
    return names.delete(src, recursive);
  }

  @Override
  @Deprecated
  public boolean rename(String src, String dst) throws IOException {
    return names.rename(src, dst);
  }

  @Override
  public void rename2(String src, String dst, Options.Rename... options) throws IOException {
    names.rename2(src, dst, options);
  }

  @Override
  public void concat(String trg, String[] srcs) throws IOException {
    names.concat(trg, srcs);
  }

  @Override
  public boolean truncate(String src, long newLength, String clientName) throws IOException {
    return names.truncate(src, newLength, clientName);
  }

  @Override
  public void setPermission(String src, FsPermission permission) throws IOException {
    names.setPermission(src, permission);
  }

  @Override
  public void setOwner(String src, String username, String groupname) throws IOException {
    names.setOwner(src, username, groupname);
  }

  @Override
  public void setTimes(String src, long mtime, long atime) throws IOException {
    names.setTimes(src, mtime, atime);
  }

  @Override
  public boolean setReplication(String src, short replication) throws IOException {
    return names.setReplication(src, replication);
  }

  @Override
  public void checkAccess(String path, FsAction mode) throws IOException {
    names.checkAccess(path, mode);
  }

  @Override
  public ContentSummary getContentSummary(String path) throws IOException {
    return names.getContentSummary(path);
  }

  @Override
  public QuotaUsage getQuotaUsage(String path) throws IOException {
    return names.getQuotaUsage(path);
  }

  @Override
  public void setQuota(String path, long namespaceQuota, long storagespaceQuota, StorageType type)
      throws IOException {
    names.setQuota(path, namespaceQuota, storagespaceQuota, type);
  }

  @Override
  public long getPreferredBlockSize(String filename) throws IOException {
    return names.getPreferredBlockSize(filename);
  }

  @Override
  public boolean isFileClosed(String src) throws IOException {
    return names.isFileClosed(src);
  }

  @Override
  public void createSymlink(String target, String link, FsPermission dirPerm, boolean createParent)
      throws IOException {
    // The NameNode's answer while symlinks are disabled (HDFS's default).
    throw new UnsupportedOperationException("Symlinks not supported: IndexFS has no symbolic links");
  }

  @Override
  public String getLinkTarget(String path) throws IOException {
    names.getFileInfo(path);
    throw new java.io.IOException("Path " + path + " is not a symbolic link");
  }

  // Writes.

  @Override
  public HdfsFileStatus create(String src, FsPermission masked, String clientName, EnumSetWritable<CreateFlag> flag,
      boolean createParent, short replication, long blockSize, CryptoProtocolVersion[] supportedVersions,
      String ecPolicyName, String storagePolicy) throws IOException {
    return writes.create(src, masked, clientName, flag, createParent, replication, blockSize, supportedVersions,
        ecPolicyName, storagePolicy);
  }

  @Override
  public LastBlockWithStatus append(String src, String clientName, EnumSetWritable<CreateFlag> flag)
      throws IOException {
    return appends.append(src, clientName, flag);
  }

  @Override
  public LocatedBlock addBlock(String src, String clientName, ExtendedBlock previous, DatanodeInfo[] excludeNodes,
      long fileId, String[] favoredNodes, EnumSet<AddBlockFlag> addBlockFlags) throws IOException {
    return writes.addBlock(src, clientName, previous, excludeNodes, fileId, favoredNodes, addBlockFlags);
  }

  @Override
  public void abandonBlock(ExtendedBlock b, long fileId, String src, String holder) throws IOException {
    writes.abandonBlock(b, fileId, src, holder);
  }

  @Override
  public LocatedBlock getAdditionalDatanode(String src, long fileId, ExtendedBlock blk, DatanodeInfo[] existings,
      String[] existingStorageIDs, DatanodeInfo[] excludes, int numAdditionalNodes, String clientName)
      throws IOException {
    return writes.getAdditionalDatanode(src, fileId, blk, existings, existingStorageIDs, excludes,
        numAdditionalNodes, clientName);
  }

  @Override
  public boolean complete(String src, String clientName, ExtendedBlock last, long fileId) throws IOException {
    return writes.complete(src, clientName, last, fileId);
  }

  @Override
  public void fsync(String src, long inodeId, String client, long lastBlockLength) throws IOException {
    writes.fsync(src, inodeId, client, lastBlockLength);
  }

  @Override
  public void reportBadBlocks(LocatedBlock[] blocks) throws IOException {
    leases.reportBadBlocks(blocks);
  }

  @Override
  public LocatedBlock updateBlockForPipeline(ExtendedBlock block, String clientName) throws IOException {
    return leases.updateBlockForPipeline(block, clientName);
  }

  @Override
  public void updatePipeline(String clientName, ExtendedBlock oldBlock, ExtendedBlock newBlock,
      DatanodeID[] newNodes, String[] newStorageIDs) throws IOException {
    leases.updatePipeline(clientName, oldBlock, newBlock, newNodes, newStorageIDs);
  }

  @Override
  public void renewLease(String clientName, List<String> namespaces) throws IOException {
    leases.renewLease(clientName, namespaces);
  }

  @Override
  public boolean recoverLease(String src, String clientName) throws IOException {
    return leases.recoverLease(src, clientName);
  }

  // The extended namespace.

  @Override
  public void setXAttr(String src, XAttr xAttr, EnumSet<XAttrSetFlag> flag) throws IOException {
    extended.setXAttr(src, xAttr, flag);
  }

  @Override
  public List<XAttr> getXAttrs(String src, List<XAttr> xAttrs) throws IOException {
    return extended.getXAttrs(src, xAttrs);
  }

  @Override
  public List<XAttr> listXAttrs(String src) throws IOException {
    return extended.listXAttrs(src);
  }

  @Override
  public void removeXAttr(String src, XAttr xAttr) throws IOException {
    extended.removeXAttr(src, xAttr);
  }

  @Override
  public void modifyAclEntries(String src, List<AclEntry> aclSpec) throws IOException {
    extended.editAcl(src, AclEditRequest.Action.MODIFY, aclSpec);
  }

  @Override
  public void removeAclEntries(String src, List<AclEntry> aclSpec) throws IOException {
    extended.editAcl(src, AclEditRequest.Action.REMOVE_ENTRIES, aclSpec);
  }

  @Override
  public void removeDefaultAcl(String src) throws IOException {
    extended.editAcl(src, AclEditRequest.Action.REMOVE_DEFAULT, List.of());
  }

  @Override
  public void removeAcl(String src) throws IOException {
    extended.editAcl(src, AclEditRequest.Action.REMOVE, List.of());
  }

  @Override
  public void setAcl(String src, List<AclEntry> aclSpec) throws IOException {
    extended.editAcl(src, AclEditRequest.Action.SET, aclSpec);
  }

  @Override
  public AclStatus getAclStatus(String src) throws IOException {
    return extended.getAclStatus(src);
  }

  @Override
  public BlockStoragePolicy[] getStoragePolicies() throws IOException {
    return extended.getStoragePolicies();
  }

  @Override
  public void setStoragePolicy(String src, String policyName) throws IOException {
    extended.setStoragePolicy(src, policyName);
  }

  @Override
  public void unsetStoragePolicy(String src) throws IOException {
    extended.unsetStoragePolicy(src);
  }

  @Override
  public BlockStoragePolicy getStoragePolicy(String path) throws IOException {
    return extended.getStoragePolicy(path);
  }

  @Override
  public void satisfyStoragePolicy(String path) throws IOException {
    throw Refusals.unsupported("satisfyStoragePolicy", "the data tier's storage policy satisfier is not driven "
        + "through IndexFS");
  }

  @Override
  public String createSnapshot(String snapshotRoot, String snapshotName) throws IOException {
    return extended.createSnapshot(snapshotRoot, snapshotName);
  }

  @Override
  public void deleteSnapshot(String snapshotRoot, String snapshotName) throws IOException {
    extended.deleteSnapshot(snapshotRoot, snapshotName);
  }

  @Override
  public void renameSnapshot(String snapshotRoot, String snapshotOldName, String snapshotNewName)
      throws IOException {
    extended.renameSnapshot(snapshotRoot, snapshotOldName, snapshotNewName);
  }

  @Override
  public void allowSnapshot(String snapshotRoot) throws IOException {
    extended.allowSnapshot(snapshotRoot, true);
  }

  @Override
  public void disallowSnapshot(String snapshotRoot) throws IOException {
    extended.allowSnapshot(snapshotRoot, false);
  }

  @Override
  public SnapshottableDirectoryStatus[] getSnapshottableDirListing() throws IOException {
    throw Refusals.unsupported("getSnapshottableDirListing", Refusals.SNAPSHOT_READS);
  }

  @Override
  public SnapshotStatus[] getSnapshotListing(String snapshotRoot) throws IOException {
    throw Refusals.unsupported("getSnapshotListing", Refusals.SNAPSHOT_READS);
  }

  @Override
  public SnapshotDiffReport getSnapshotDiffReport(String snapshotRoot, String fromSnapshot, String toSnapshot)
      throws IOException {
    throw Refusals.unsupported("getSnapshotDiffReport", Refusals.SNAPSHOT_READS);
  }

  @Override
  public SnapshotDiffReportListing getSnapshotDiffReportListing(String snapshotRoot, String fromSnapshot,
      String toSnapshot, byte[] startPath, int index) throws IOException {
    throw Refusals.unsupported("getSnapshotDiffReportListing", Refusals.SNAPSHOT_READS);
  }

  // The cluster.

  @Override
  public FsServerDefaults getServerDefaults() throws IOException {
    return cluster.getServerDefaults();
  }

  @Override
  public long[] getStats() throws IOException {
    return cluster.getStats();
  }

  @Override
  public ReplicatedBlockStats getReplicatedBlockStats() throws IOException {
    throw Refusals.unsupported("getReplicatedBlockStats", Refusals.DATA_TIER_ADMIN);
  }

  @Override
  public ECBlockGroupStats getECBlockGroupStats() throws IOException {
    throw Refusals.unsupported("getECBlockGroupStats", Refusals.ERASURE_CODING);
  }

  @Override
  public DatanodeInfo[] getDatanodeReport(HdfsConstants.DatanodeReportType type) throws IOException {
    return cluster.getDatanodeReport(type);
  }

  @Override
  public DatanodeStorageReport[] getDatanodeStorageReport(HdfsConstants.DatanodeReportType type)
      throws IOException {
    return cluster.getDatanodeStorageReport(type);
  }

  @Override
  public DatanodeInfo[] getSlowDatanodeReport() throws IOException {
    return cluster.getSlowDatanodeReport();
  }

  @Override
  public DataEncryptionKey getDataEncryptionKey() throws IOException {
    return cluster.getDataEncryptionKey();
  }

  @Override
  public boolean setSafeMode(HdfsConstants.SafeModeAction action, boolean isChecked) throws IOException {
    return cluster.setSafeMode(action, isChecked);
  }

  @Override
  public HAServiceProtocol.HAServiceState getHAServiceState() {
    return HAServiceProtocol.HAServiceState.ACTIVE; // every gateway of a nameservice serves
  }

  @Override
  public void msync() {
    // Every gateway reads IndexFS's current state: nothing to catch up with.
  }

  @Override
  public Path getEnclosingRoot(String src) throws IOException {
    names.getFileInfo(src);
    return new Path("/"); // no encryption zones or mounts: the root encloses everything
  }

  @Override
  public EncryptionZone getEZForPath(String src) throws IOException {
    return null; // not in an encryption zone: IndexFS has none
  }

  @Override
  public BatchedEntries<EncryptionZone> listEncryptionZones(long prevId) {
    return new BatchedListEntries<>(new java.util.ArrayList<>(), false);
  }

  @Override
  public BatchedEntries<ZoneReencryptionStatus> listReencryptionStatus(long prevId) {
    return new BatchedListEntries<>(new java.util.ArrayList<>(), false);
  }

  @Override
  public void createEncryptionZone(String src, String keyName) throws IOException {
    throw Refusals.unsupported("createEncryptionZone", Refusals.ENCRYPTION);
  }

  @Override
  public void reencryptEncryptionZone(String zone, HdfsConstants.ReencryptAction action) throws IOException {
    throw Refusals.unsupported("reencryptEncryptionZone", Refusals.ENCRYPTION);
  }

  @Override
  public ErasureCodingPolicy getErasureCodingPolicy(String src) throws IOException {
    names.getFileInfo(src);
    return null; // replicated, as every IndexFS file
  }

  @Override
  public ErasureCodingPolicyInfo[] getErasureCodingPolicies() {
    return new ErasureCodingPolicyInfo[0];
  }

  @Override
  public Map<String, String> getErasureCodingCodecs() {
    return Map.of();
  }

  @Override
  public void setErasureCodingPolicy(String src, String ecPolicyName) throws IOException {
    throw Refusals.unsupported("setErasureCodingPolicy", Refusals.ERASURE_CODING);
  }

  @Override
  public void unsetErasureCodingPolicy(String src) throws IOException {
    throw Refusals.unsupported("unsetErasureCodingPolicy", Refusals.ERASURE_CODING);
  }

  @Override
  public AddErasureCodingPolicyResponse[] addErasureCodingPolicies(ErasureCodingPolicy[] policies)
      throws IOException {
    throw Refusals.unsupported("addErasureCodingPolicies", Refusals.ERASURE_CODING);
  }

  @Override
  public void removeErasureCodingPolicy(String ecPolicyName) throws IOException {
    throw Refusals.unsupported("removeErasureCodingPolicy", Refusals.ERASURE_CODING);
  }

  @Override
  public void enableErasureCodingPolicy(String ecPolicyName) throws IOException {
    throw Refusals.unsupported("enableErasureCodingPolicy", Refusals.ERASURE_CODING);
  }

  @Override
  public void disableErasureCodingPolicy(String ecPolicyName) throws IOException {
    throw Refusals.unsupported("disableErasureCodingPolicy", Refusals.ERASURE_CODING);
  }

  @Override
  public ECTopologyVerifierResult getECTopologyResultForPolicies(String... policyNames) throws IOException {
    throw Refusals.unsupported("getECTopologyResultForPolicies", Refusals.ERASURE_CODING);
  }

  @Override
  public long addCacheDirective(CacheDirectiveInfo directive, EnumSet<CacheFlag> flags) throws IOException {
    throw Refusals.unsupported("addCacheDirective", Refusals.CACHING);
  }

  @Override
  public void modifyCacheDirective(CacheDirectiveInfo directive, EnumSet<CacheFlag> flags) throws IOException {
    throw Refusals.unsupported("modifyCacheDirective", Refusals.CACHING);
  }

  @Override
  public void removeCacheDirective(long id) throws IOException {
    throw Refusals.unsupported("removeCacheDirective", Refusals.CACHING);
  }

  @Override
  public BatchedEntries<CacheDirectiveEntry> listCacheDirectives(long prevId, CacheDirectiveInfo filter)
      throws IOException {
    throw Refusals.unsupported("listCacheDirectives", Refusals.CACHING);
  }

  @Override
  public void addCachePool(CachePoolInfo info) throws IOException {
    throw Refusals.unsupported("addCachePool", Refusals.CACHING);
  }

  @Override
  public void modifyCachePool(CachePoolInfo req) throws IOException {
    throw Refusals.unsupported("modifyCachePool", Refusals.CACHING);
  }

  @Override
  public void removeCachePool(String pool) throws IOException {
    throw Refusals.unsupported("removeCachePool", Refusals.CACHING);
  }

  @Override
  public BatchedEntries<CachePoolEntry> listCachePools(String prevPool) throws IOException {
    throw Refusals.unsupported("listCachePools", Refusals.CACHING);
  }

  @Override
  public long getCurrentEditLogTxid() throws IOException {
    throw Refusals.unsupported("getCurrentEditLogTxid", Refusals.INOTIFY);
  }

  @Override
  public EventBatchList getEditsFromTxid(long txid) throws IOException {
    throw Refusals.unsupported("getEditsFromTxid", Refusals.INOTIFY);
  }

  @Override
  @Deprecated
  public BatchedEntries<OpenFileEntry> listOpenFiles(long prevId) throws IOException {
    throw Refusals.unsupported("listOpenFiles", Refusals.NAMENODE_ADMIN);
  }

  @Override
  public BatchedEntries<OpenFileEntry> listOpenFiles(long prevId, EnumSet<OpenFilesIterator.OpenFilesType> types,
      String path) throws IOException {
    throw Refusals.unsupported("listOpenFiles", Refusals.NAMENODE_ADMIN);
  }

  @Override
  public CorruptFileBlocks listCorruptFileBlocks(String path, String cookie) throws IOException {
    throw Refusals.unsupported("listCorruptFileBlocks", Refusals.DATA_TIER_ADMIN);
  }

  @Override
  public boolean saveNamespace(long timeWindow, long txGap) throws IOException {
    throw Refusals.unsupported("saveNamespace", Refusals.NAMENODE_ADMIN);
  }

  @Override
  public long rollEdits() throws IOException {
    throw Refusals.unsupported("rollEdits", Refusals.NAMENODE_ADMIN);
  }

  @Override
  public boolean restoreFailedStorage(String arg) throws IOException {
    throw Refusals.unsupported("restoreFailedStorage", Refusals.NAMENODE_ADMIN);
  }

  @Override
  public void refreshNodes() throws IOException {
    throw Refusals.unsupported("refreshNodes", Refusals.DATA_TIER_ADMIN);
  }

  @Override
  public void finalizeUpgrade() throws IOException {
    throw Refusals.unsupported("finalizeUpgrade", Refusals.NAMENODE_ADMIN);
  }

  @Override
  public boolean upgradeStatus() throws IOException {
    throw Refusals.unsupported("upgradeStatus", Refusals.NAMENODE_ADMIN);
  }

  @Override
  public RollingUpgradeInfo rollingUpgrade(HdfsConstants.RollingUpgradeAction action) throws IOException {
    throw Refusals.unsupported("rollingUpgrade", Refusals.NAMENODE_ADMIN);
  }

  @Override
  public void metaSave(String filename) throws IOException {
    throw Refusals.unsupported("metaSave", Refusals.NAMENODE_ADMIN);
  }

  @Override
  public void setBalancerBandwidth(long bandwidth) throws IOException {
    throw Refusals.unsupported("setBalancerBandwidth", Refusals.DATA_TIER_ADMIN);
  }

  // Delegation tokens.

  @Override
  public Token<DelegationTokenIdentifier> getDelegationToken(Text renewer) throws IOException {
    return tokens.getDelegationToken(renewer);
  }

  @Override
  public long renewDelegationToken(Token<DelegationTokenIdentifier> token) throws IOException {
    return tokens.renewDelegationToken(token);
  }

  @Override
  public void cancelDelegationToken(Token<DelegationTokenIdentifier> token) throws IOException {
    tokens.cancelDelegationToken(token);
  }
}
