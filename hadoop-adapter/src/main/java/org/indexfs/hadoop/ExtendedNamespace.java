package org.indexfs.hadoop;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.impl.PathCapabilitiesSupport;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.XAttrHelper;
import org.indexfs.proto.AclEditRequest;

/**
 * The parts of HDFS's namespace beyond files and directories, as DistributedFileSystem offers them:
 * extended attributes, ACLs, quotas and snapshots. Names are parsed and results shaped by HDFS's own client helpers
 * ({@link XAttrHelper}), so callers see exactly what DFSClient gives them; the rules are the
 * servers'.
 */
abstract class ExtendedNamespace extends StoragePolicies {

  /** What works on IndexFS as on HDFS. */
  @Override
  public boolean hasPathCapability(Path path, String capability) throws IOException {
    switch (PathCapabilitiesSupport.validatePathCapabilityArgs(makeQualified(path), capability)) {
      case CommonPathCapabilities.FS_APPEND:
      case CommonPathCapabilities.FS_CONCAT:
      case CommonPathCapabilities.FS_TRUNCATE:
      case CommonPathCapabilities.FS_CHECKSUMS:
      case CommonPathCapabilities.FS_PERMISSIONS:
      case CommonPathCapabilities.FS_ACLS:
      case CommonPathCapabilities.FS_XATTRS:
      case CommonPathCapabilities.LEASE_RECOVERABLE:
      case CommonPathCapabilities.FS_STORAGEPOLICY:
      case CommonPathCapabilities.FS_SNAPSHOTS:
        return true;
      default:
        return super.hasPathCapability(path, capability);
    }
  }

  static org.indexfs.proto.XAttr toProto(XAttr x) {
    org.indexfs.proto.XAttr.Builder b = org.indexfs.proto.XAttr.newBuilder()
        .setNamespace(org.indexfs.proto.XAttr.NameSpace.valueOf(x.getNameSpace().name())).setName(x.getName());
    if (x.getValue() != null) {
      b.setValue(com.google.protobuf.ByteString.copyFrom(x.getValue()));
    }
    return b.build();
  }

  static XAttr fromProto(org.indexfs.proto.XAttr x) {
    return new XAttr.Builder().setNameSpace(XAttr.NameSpace.valueOf(x.getNamespace().name())).setName(x.getName())
        .setValue(x.hasValue() ? x.getValue().toByteArray() : null).build();
  }

  private static List<XAttr> fromProto(List<org.indexfs.proto.XAttr> xs) {
    List<XAttr> out = new ArrayList<>(xs.size());
    for (org.indexfs.proto.XAttr x : xs) {
      out.add(fromProto(x));
    }
    return out;
  }

  private static List<org.indexfs.proto.XAttr> toProto(List<XAttr> xs) {
    List<org.indexfs.proto.XAttr> out = new ArrayList<>(xs.size());
    for (XAttr x : xs) {
      out.add(toProto(x));
    }
    return out;
  }

  /** A path through {@code <dir>/.snapshot}, read from the snapshot's copy; null for any other path. */
  private Snapshots.At inSnapshot(Path path) throws IOException {
    return Snapshots.parse(pathOf(path));
  }

  private List<org.indexfs.proto.XAttr> xattrs(Path path, List<org.indexfs.proto.XAttr> wanted, boolean namesOnly)
      throws IOException {
    Snapshots.At at = inSnapshot(path);
    if (at != null) {
      return read(() -> new Snapshots(client()).xattrs(at, wanted, namesOnly));
    }
    return read(() -> namesOnly ? client().listXAttrs(pathOf(path)) : client().getXAttrs(pathOf(path), wanted));
  }

  /** Changes below a snapshottable directory's {@code .snapshot} are refused as HDFS refuses them. */
  private void refuseInSnapshot(Path path) throws IOException {
    Snapshots.At at = inSnapshot(path);
    if (at != null) {
      read(() -> {
        new Snapshots(client()).refuseChange(at);
        return null;
      });
    }
  }

  @Override
  public void setXAttr(Path path, String name, byte[] value, EnumSet<XAttrSetFlag> flag) throws IOException {
    XAttr x = XAttrHelper.buildXAttr(name, value);
    refuseInSnapshot(path);
    boolean create = flag != null && flag.contains(XAttrSetFlag.CREATE);
    boolean replace = flag != null && flag.contains(XAttrSetFlag.REPLACE);
    writeVoid(() -> client().setXAttr(pathOf(path), toProto(x), create, replace));
  }

  @Override
  public byte[] getXAttr(Path path, String name) throws IOException {
    List<XAttr> wanted = XAttrHelper.buildXAttrAsList(name);
    return XAttrHelper.getFirstXAttrValue(fromProto(xattrs(path, toProto(wanted), false)));
  }

  @Override
  public Map<String, byte[]> getXAttrs(Path path) throws IOException {
    return XAttrHelper.buildXAttrMap(fromProto(xattrs(path, List.of(), false)));
  }

  @Override
  public Map<String, byte[]> getXAttrs(Path path, List<String> names) throws IOException {
    List<XAttr> wanted = XAttrHelper.buildXAttrs(names);
    return XAttrHelper.buildXAttrMap(fromProto(xattrs(path, toProto(wanted), false)));
  }

  @Override
  public List<String> listXAttrs(Path path) throws IOException {
    Map<String, byte[]> names = XAttrHelper.buildXAttrMap(fromProto(xattrs(path, List.of(), true)));
    return new ArrayList<>(names.keySet());
  }

  @Override
  public void removeXAttr(Path path, String name) throws IOException {
    XAttr x = XAttrHelper.buildXAttr(name);
    refuseInSnapshot(path);
    writeVoid(() -> client().removeXAttr(pathOf(path), toProto(x)));
  }

  private void editAcl(Path path, AclEditRequest.Action action, List<AclEntry> spec) throws IOException {
    List<org.indexfs.proto.AclEntry> entries = new ArrayList<>(spec.size());
    for (AclEntry e : spec) {
      org.indexfs.proto.AclEntry.Builder b = org.indexfs.proto.AclEntry.newBuilder()
          .setScope(org.indexfs.proto.AclEntry.Scope.forNumber(e.getScope().ordinal()))
          .setType(org.indexfs.proto.AclEntry.Type.forNumber(e.getType().ordinal()))
          .setPermission(e.getPermission() == null ? 0 : e.getPermission().ordinal());
      if (e.getName() != null) {
        b.setName(e.getName());
      }
      entries.add(b.build());
    }
    refuseInSnapshot(path);
    writeVoid(() -> client().editAcl(pathOf(path), action, entries));
  }

  @Override
  public void modifyAclEntries(Path path, List<AclEntry> aclSpec) throws IOException {
    editAcl(path, AclEditRequest.Action.MODIFY, aclSpec);
  }

  @Override
  public void removeAclEntries(Path path, List<AclEntry> aclSpec) throws IOException {
    editAcl(path, AclEditRequest.Action.REMOVE_ENTRIES, aclSpec);
  }

  @Override
  public void removeDefaultAcl(Path path) throws IOException {
    editAcl(path, AclEditRequest.Action.REMOVE_DEFAULT, List.of());
  }

  @Override
  public void removeAcl(Path path) throws IOException {
    editAcl(path, AclEditRequest.Action.REMOVE, List.of());
  }

  @Override
  public void setAcl(Path path, List<AclEntry> aclSpec) throws IOException {
    editAcl(path, AclEditRequest.Action.SET, aclSpec);
  }

  @Override
  public AclStatus getAclStatus(Path path) throws IOException {
    Snapshots.At at = inSnapshot(path);
    if (at != null) {
      return read(() -> new Snapshots(client()).aclStatus(at));
    }
    return fromProto(read(() -> client().getAclStatus(pathOf(path))));
  }

  static AclStatus fromProto(org.indexfs.proto.AclStatus s) {
    AclStatus.Builder b = new AclStatus.Builder().owner(s.getOwner()).group(s.getGroup()).stickyBit(s.getSticky())
        .setPermission(new FsPermission((short) s.getPermission()));
    for (org.indexfs.proto.AclEntry e : s.getEntriesList()) {
      AclEntry.Builder entry = new AclEntry.Builder()
          .setScope(org.apache.hadoop.fs.permission.AclEntryScope.values()[e.getScope().getNumber()])
          .setType(org.apache.hadoop.fs.permission.AclEntryType.values()[e.getType().getNumber()])
          .setPermission(FsAction.values()[e.getPermission() & 7]);
      if (e.hasName()) {
        entry.setName(e.getName());
      }
      b.addEntry(entry.build());
    }
    return b.build();
  }

  /** The quotas of a directory and what counts against them, as DistributedFileSystem#getQuotaUsage. */
  @Override
  public org.apache.hadoop.fs.QuotaUsage getQuotaUsage(Path f) throws IOException {
    org.apache.hadoop.fs.ContentSummary s = getContentSummary(f);
    return new org.apache.hadoop.fs.QuotaUsage.Builder().fileAndDirectoryCount(s.getFileCount() + s.getDirectoryCount())
        .quota(s.getQuota()).spaceConsumed(s.getSpaceConsumed()).spaceQuota(s.getSpaceQuota()).build();
  }

  /**
   * HDFS's setQuota (DistributedFileSystem#setQuota; {@code indexfs admin -setQuota} and its kin use
   * it): Long.MAX_VALUE leaves a quota as it is, -1 clears it. Superuser only.
   */
  public void setQuota(Path path, long namespaceQuota, long storagespaceQuota) throws IOException {
    // DFSClient's own check, before any call.
    if ((namespaceQuota <= 0 && namespaceQuota != Long.MAX_VALUE && namespaceQuota != -1)
        || (storagespaceQuota < 0 && storagespaceQuota != Long.MAX_VALUE && storagespaceQuota != -1)) {
      throw new IllegalArgumentException("Invalid values for quota : " + namespaceQuota + " and " + storagespaceQuota);
    }
    try {
      writeVoid(() -> client().setQuota(pathOf(path), namespaceQuota, storagespaceQuota));
    } catch (org.apache.hadoop.hdfs.server.namenode.SafeModeException e) {
      // DFSClient#setQuota unwraps fewer exceptions than the other calls: this one stays remote.
      throw new org.apache.hadoop.ipc.RemoteException(e.getClass().getName(), e.getMessage());
    }
  }

  /**
   * Sets the subtree policy of directory {@code path} (issue 18; {@code bin/indexfs admin -setPolicy});
   * {@code policy} null clears it. The directory's owner or the superuser
   * ({@link org.apache.hadoop.security.AccessControlException} otherwise).
   */
  public void setPolicy(Path path, org.indexfs.common.policy.SubtreePolicy policy) throws IOException {
    writeVoid(() -> client().setPolicy(pathOf(path), policy));
  }

  Snapshots snapshots() {
    return new Snapshots(client());
  }

  /** A snapshot call: DFSClient unwraps whatever the NameNode refuses it with (SnapshotException …). */
  private <T> T unwrapped(Rpc<T> call) throws IOException {
    try {
      return write(call);
    } catch (IOException e) {
      throw HadoopErrors.asDfsClient(e);
    }
  }

  /** HDFS's createSnapshot: the snapshot's path, {@code <dir>/.snapshot/<name>} (a generated name if null). */
  @Override
  public Path createSnapshot(Path path, String snapshotName) throws IOException {
    Path dir = makeQualified(path);
    String name = unwrapped(() -> snapshots().create(pathOf(dir), snapshotName));
    // As HDFS returns it: the path alone, without the file system's scheme and authority.
    return new Path(pathOf(dir), ".snapshot/" + name);
  }

  @Override
  public void renameSnapshot(Path path, String snapshotOldName, String snapshotNewName) throws IOException {
    String dir = pathOf(makeQualified(path));
    unwrapped(() -> {
      snapshots().rename(dir, snapshotOldName, snapshotNewName);
      return null;
    });
  }

  @Override
  public void deleteSnapshot(Path path, String snapshotName) throws IOException {
    String dir = pathOf(makeQualified(path));
    unwrapped(() -> {
      snapshots().delete(dir, snapshotName);
      return null;
    });
  }

  /** As DistributedFileSystem#allowSnapshot (superuser): snapshots of {@code path} may be taken. */
  public void allowSnapshot(Path path) throws IOException {
    String dir = pathOf(makeQualified(path));
    unwrapped(() -> {
      snapshots().allow(dir, true);
      return null;
    });
  }

  /** As DistributedFileSystem#disallowSnapshot: refused while the directory has snapshots. */
  public void disallowSnapshot(Path path) throws IOException {
    String dir = pathOf(makeQualified(path));
    unwrapped(() -> {
      snapshots().allow(dir, false);
      return null;
    });
  }

  /**
   * As DistributedFileSystem#getSnapshotDiffReport: what changed under snapshottable directory
   * {@code path} from snapshot {@code fromSnapshot} to {@code toSnapshot} ("" or "." for now).
   */
  public org.apache.hadoop.hdfs.protocol.SnapshotDiffReport getSnapshotDiffReport(Path path, String fromSnapshot,
      String toSnapshot) throws IOException {
    return SnapshotDiff.report(this, makeQualified(path), fromSnapshot, toSnapshot);
  }

  /** The path of a directory as HDFS prints it in a diff report's header. */
  String pathOfForDiff(Path dir) {
    return pathOf(dir);
  }

  /**
   * As DistributedFileSystem#getSnapshottableDirListing: the snapshottable directories (the caller's
   * own unless the caller is the superuser), at the path each has now; null if none.
   */
  public org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus[] getSnapshottableDirListing() throws IOException {
    List<org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus> all =
        read(() -> snapshots().snapshottable(client().connection().slotCount()));
    return all.isEmpty() ? null : all.toArray(new org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus[0]);
  }

  /** The subtree policy in force at {@code path} and the directory that sets it. */
  public org.indexfs.common.policy.PolicyAt getPolicy(Path path) throws IOException {
    return read(() -> client().getPolicy(pathOf(path)));
  }

  /** Every policy set in the namespace, by path. */
  public List<org.indexfs.common.policy.PolicyAt> listPolicies() throws IOException {
    return read(() -> client().listPolicies());
  }
}
