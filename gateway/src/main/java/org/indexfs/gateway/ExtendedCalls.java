package org.indexfs.gateway;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.indexfs.client.IndexFsClient;
import org.indexfs.proto.AclEditRequest;
import org.indexfs.proto.SnapshotRequest;

/**
 * The namespace beyond names and modes: extended attributes, ACLs, storage policies and snapshot
 * management, answered by IndexFS as the caller. Storage policies are the data tier's (its blocks
 * are placed by them), so their names and ids come from its NameNode.
 */
final class ExtendedCalls {
  private final MetadataTier metadata;
  private final WriteCalls writes;

  ExtendedCalls(MetadataTier metadata, WriteCalls writes) {
    this.metadata = metadata;
    this.writes = writes;
  }

  private IndexFsClient client() throws IOException {
    return metadata.as(RpcCall.current(), null);
  }

  void setXAttr(String src, XAttr xAttr, EnumSet<XAttrSetFlag> flag) throws IOException {
    boolean create = flag != null && flag.contains(XAttrSetFlag.CREATE);
    boolean replace = flag != null && flag.contains(XAttrSetFlag.REPLACE);
    NamespaceCalls.run(() -> client().setXAttr(src, toProto(xAttr), create, replace));
  }

  List<XAttr> getXAttrs(String src, List<XAttr> xAttrs) throws IOException {
    List<org.indexfs.proto.XAttr> wanted = new ArrayList<>();
    if (xAttrs != null) {
      xAttrs.forEach(x -> wanted.add(toProto(x)));
    }
    return fromProto(NamespaceCalls.call(() -> client().getXAttrs(src, wanted)));
  }

  List<XAttr> listXAttrs(String src) throws IOException {
    return fromProto(NamespaceCalls.call(() -> client().listXAttrs(src)));
  }

  void removeXAttr(String src, XAttr xAttr) throws IOException {
    NamespaceCalls.run(() -> client().removeXAttr(src, toProto(xAttr)));
  }

  private static org.indexfs.proto.XAttr toProto(XAttr x) {
    org.indexfs.proto.XAttr.Builder b = org.indexfs.proto.XAttr.newBuilder()
        .setNamespace(org.indexfs.proto.XAttr.NameSpace.valueOf(x.getNameSpace().name())).setName(x.getName());
    if (x.getValue() != null) {
      b.setValue(com.google.protobuf.ByteString.copyFrom(x.getValue()));
    }
    return b.build();
  }

  private static List<XAttr> fromProto(List<org.indexfs.proto.XAttr> xs) {
    List<XAttr> out = new ArrayList<>(xs.size());
    for (org.indexfs.proto.XAttr x : xs) {
      out.add(new XAttr.Builder().setNameSpace(XAttr.NameSpace.valueOf(x.getNamespace().name())).setName(x.getName())
          .setValue(x.hasValue() ? x.getValue().toByteArray() : null).build());
    }
    return out;
  }

  void editAcl(String src, AclEditRequest.Action action, List<AclEntry> spec) throws IOException {
    List<org.indexfs.proto.AclEntry> entries = new ArrayList<>();
    for (AclEntry e : spec == null ? List.<AclEntry>of() : spec) {
      org.indexfs.proto.AclEntry.Builder b = org.indexfs.proto.AclEntry.newBuilder()
          .setScope(org.indexfs.proto.AclEntry.Scope.forNumber(e.getScope().ordinal()))
          .setType(org.indexfs.proto.AclEntry.Type.forNumber(e.getType().ordinal()))
          .setPermission(e.getPermission() == null ? 0 : e.getPermission().ordinal());
      if (e.getName() != null) {
        b.setName(e.getName());
      }
      entries.add(b.build());
    }
    NamespaceCalls.run(() -> client().editAcl(src, action, entries));
  }

  AclStatus getAclStatus(String src) throws IOException {
    org.indexfs.proto.AclStatus s = NamespaceCalls.call(() -> client().getAclStatus(src));
    AclStatus.Builder b = new AclStatus.Builder().owner(s.getOwner()).group(s.getGroup()).stickyBit(s.getSticky())
        .setPermission(new FsPermission((short) s.getPermission()));
    for (org.indexfs.proto.AclEntry e : s.getEntriesList()) {
      AclEntry.Builder entry = new AclEntry.Builder().setScope(AclEntryScope.values()[e.getScope().getNumber()])
          .setType(AclEntryType.values()[e.getType().getNumber()]).setPermission(FsAction.values()[e.getPermission() & 7]);
      if (e.hasName()) {
        entry.setName(e.getName());
      }
      b.addEntry(entry.build());
    }
    return b.build();
  }

  BlockStoragePolicy[] getStoragePolicies() throws IOException {
    return WriteCalls.forward(null, null, () -> writes.data().asGateway().getStoragePolicies());
  }

  void setStoragePolicy(String src, String policyName) throws IOException {
    BlockStoragePolicy chosen = null;
    for (BlockStoragePolicy p : getStoragePolicies()) {
      if (p.getName().equalsIgnoreCase(policyName)) {
        chosen = p;
      }
    }
    if (chosen == null) {
      // The NameNode checks the name before the path (FSDirAttrOp.setStoragePolicy).
      throw new HadoopIllegalArgumentException("Cannot find a block policy with the name " + policyName);
    }
    BlockStoragePolicy p = chosen;
    // Over RPC a policy loses its copy-on-create flag; HDFS's only such policy is LAZY_PERSIST.
    boolean copyOnCreate = p.isCopyOnCreateFile() || p.getId() == HdfsConstants.MEMORY_STORAGE_POLICY_ID;
    NamespaceCalls.run(() -> client().setStoragePolicy(src, p.getId(), p.getName(), copyOnCreate, p.toString()));
  }

  void unsetStoragePolicy(String src) throws IOException {
    getStoragePolicies();
    NamespaceCalls.run(() -> client().setStoragePolicy(src, 0, null, false, null));
  }

  /** The entry's own policy, else its nearest ancestor's, else the data tier's for its objects. */
  BlockStoragePolicy getStoragePolicy(String src) throws IOException {
    BlockStoragePolicy[] all = getStoragePolicies();
    IndexFsClient client = client();
    int id = NamespaceCalls.call(() -> client.storagePolicyId(src, false));
    for (String at = src; id == 0 && !at.equals("/"); ) {
      at = NamespaceCalls.parentOf(at);
      String ancestor = at;
      id = NamespaceCalls.call(() -> client.storagePolicyId(ancestor, true));
    }
    if (id == 0) {
      String root = writes.data().pathOf("");
      return WriteCalls.forward(null, null, () -> writes.data().asGateway().getStoragePolicy(root));
    }
    for (BlockStoragePolicy p : all) {
      if (p.getId() == id) {
        return p;
      }
    }
    throw new java.io.IOException("Storage policy " + id + " of " + src + " is unknown to the data tier");
  }

  /** As the NameNode answers it: the snapshot's path, {@code <dir>/.snapshot/<name>}. */
  String createSnapshot(String dir, String name) throws IOException {
    String made = NamespaceCalls.call(() -> client().snapshot(SnapshotRequest.newBuilder()
        .setAction(SnapshotRequest.Action.CREATE).setPath(dir).setName(name == null ? "" : name)).getPaths(0));
    return NamespaceCalls.child(dir, ".snapshot/" + made);
  }

  void renameSnapshot(String dir, String from, String to) throws IOException {
    NamespaceCalls.run(() -> client().snapshot(SnapshotRequest.newBuilder().setAction(SnapshotRequest.Action.RENAME)
        .setPath(dir).setName(from).setNewName(to)));
  }

  void deleteSnapshot(String dir, String name) throws IOException {
    NamespaceCalls.run(() -> client().snapshot(SnapshotRequest.newBuilder().setAction(SnapshotRequest.Action.DELETE)
        .setPath(dir).setName(name)));
  }

  void allowSnapshot(String dir, boolean on) throws IOException {
    NamespaceCalls.run(() -> client().snapshot(SnapshotRequest.newBuilder()
        .setAction(on ? SnapshotRequest.Action.ALLOW : SnapshotRequest.Action.DISALLOW).setPath(dir)));
  }
}
