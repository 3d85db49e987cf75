package org.indexfs.hadoop;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus;
import java.util.EnumSet;
import org.indexfs.client.IndexFsClient;
import org.indexfs.common.PathNames;
import org.indexfs.proto.OpenResult;
import org.indexfs.proto.SnapshotPage;
import org.indexfs.proto.SnapshotRequest;
import org.indexfs.proto.SnapshotRequest.Action;

/**
 * Snapshots on the client (issue 17): the calls, and reads of paths through
 * {@code <dir>/.snapshot[/<name>[/<path below>]]}, answered by the directory's home slot from the
 * copy it keeps (HDFS's read-only snapshot paths).
 */
final class Snapshots {
  /** A path through {@code .snapshot}: the snapshottable directory, the snapshot ("" for .snapshot itself), below. */
  record At(String dir, String name, String rel) {}

  private final IndexFsClient client;

  Snapshots(IndexFsClient client) {
    this.client = client;
  }

  /** The parts of {@code path} if it goes through a {@code .snapshot} component; null otherwise. */
  static At parse(String path) throws IOException {
    if (!path.contains("/.snapshot")) {
      return null;
    }
    List<String> names = PathNames.components(path, Integer.MAX_VALUE);
    int i = names.indexOf(".snapshot");
    if (i < 0) {
      return null;
    }
    String dir = "/" + String.join("/", names.subList(0, i));
    String name = i + 1 < names.size() ? names.get(i + 1) : "";
    String rel = i + 2 < names.size() ? String.join("/", names.subList(i + 2, names.size())) : "";
    return new At(dir, name, rel);
  }

  private static SnapshotRequest.Builder request(Action action, At at) {
    return SnapshotRequest.newBuilder().setAction(action).setPath(at.dir()).setName(at.name()).setRelPath(at.rel());
  }

  org.indexfs.proto.FileStatus status(At at) throws IOException {
    return client.snapshot(request(Action.STAT, at)).getEntries(0).getStatus();
  }

  OpenResult open(At at) throws IOException {
    return client.snapshot(request(Action.OPEN, at)).getEntries(0);
  }

  /** The listing, page by page; {@code dir} is the qualified path listed. */
  RemoteIterator<FileStatus> list(Path dir, At at) throws IOException {
    SnapshotPage first = client.snapshot(request(Action.LIST, at));
    ChildPaths children = new ChildPaths(dir);
    return new RemoteIterator<>() {
      private SnapshotPage page = first;
      private int index;

      @Override
      public boolean hasNext() throws IOException {
        if (index < page.getEntriesCount()) {
          return true;
        }
        if (!page.getHasMore() || page.getEntriesCount() == 0) {
          return false;
        }
        String last = page.getEntries(page.getEntriesCount() - 1).getStatus().getName();
        page = client.snapshot(request(Action.LIST, at).setStartAfter(com.google.protobuf.ByteString.copyFromUtf8(last)));
        index = 0;
        return index < page.getEntriesCount();
      }

      @Override
      public FileStatus next() throws IOException {
        if (!hasNext()) {
          throw new NoSuchElementException("No more entries in " + dir);
        }
        org.indexfs.proto.FileStatus s = page.getEntries(index++).getStatus();
        boolean file = s.getType() == org.indexfs.proto.FileType.FILE && !at.name().isEmpty()
            && first.getEntriesCount() == 1 && !first.getHasMore() && s.getName().equals(dir.getName());
        return new IndexFileStatus(file ? dir : children.of(s.getName()), s);
      }
    };
  }

  /**
   * getAclStatus in a snapshot: the entry's ACL as it was. For {@code .snapshot} itself HDFS answers
   * an AclStatus with no owner, group or permission (its status is the placeholder directory's).
   */
  org.apache.hadoop.fs.permission.AclStatus aclStatus(At at) throws IOException {
    if (at.name().isEmpty()) {
      status(at);
      return new org.apache.hadoop.fs.permission.AclStatus.Builder().owner("").group("").build();
    }
    return ExtendedNamespace.fromProto(client.snapshot(request(Action.ACL, at)).getAclStatus());
  }

  /** getXAttrs / listXAttrs in a snapshot: the entry's attributes as they were ({@code wanted} empty: all). */
  List<org.indexfs.proto.XAttr> xattrs(At at, List<org.indexfs.proto.XAttr> wanted, boolean namesOnly)
      throws IOException {
    return client.snapshot(request(Action.XATTRS, at).addAllXattrNames(wanted).setNamesOnly(namesOnly))
        .getXattrsList();
  }

  /**
   * HDFS refuses any change below {@code <dir>/.snapshot} of a snapshottable directory
   * (SnapshotAccessControlException) before looking for the entry; elsewhere the path is an
   * ordinary one and the call goes on to be refused as usual.
   */
  void refuseChange(At at) throws IOException {
    try {
      status(new At(at.dir(), "", ""));
    } catch (org.indexfs.common.IndexFsException notSnapshottable) {
      return; // not below a snapshottable directory (or not reachable): the call itself says what it meets
    }
    throw new org.apache.hadoop.hdfs.protocol.SnapshotAccessControlException(
        "Modification on a read-only snapshot is disallowed");
  }

  String create(String dir, String name) throws IOException {
    return client.snapshot(SnapshotRequest.newBuilder().setAction(Action.CREATE).setPath(dir)
        .setName(name == null ? "" : name)).getPaths(0);
  }

  void rename(String dir, String from, String to) throws IOException {
    client.snapshot(SnapshotRequest.newBuilder().setAction(Action.RENAME).setPath(dir).setName(from).setNewName(to));
  }

  void delete(String dir, String name) throws IOException {
    client.snapshot(SnapshotRequest.newBuilder().setAction(Action.DELETE).setPath(dir).setName(name));
  }

  void allow(String dir, boolean on) throws IOException {
    client.snapshot(SnapshotRequest.newBuilder().setAction(on ? Action.ALLOW : Action.DISALLOW).setPath(dir));
  }

  /**
   * The snapshottable directories (HDFS's getSnapshottableDirListing): each slot's, as recorded when
   * they were allowed, with their snapshot counts; a recorded path that no longer leads to the
   * directory (it moved) is left out. The servers answer only the caller's own unless the caller is
   * the superuser, as HDFS.
   */
  List<SnapshottableDirectoryStatus> snapshottable(int slots) throws IOException {
    List<SnapshottableDirectoryStatus> out = new ArrayList<>();
    for (int s = 0; s < slots; s++) {
      SnapshotPage page = client.callSlot(s, org.indexfs.proto.Request.newBuilder().setSnapshot(
          SnapshotRequest.newBuilder().setAction(Action.LIST_DIRS))).getSnapshotPage();
      for (int i = 0; i < page.getPathsCount(); i++) {
        String path = page.getPaths(i);
        org.indexfs.proto.FileStatus st;
        try {
          st = client.getFileStatus(path);
        } catch (java.io.FileNotFoundException e) {
          continue;
        }
        if (st.getInodeId() != page.getDirIds(i)) {
          continue;
        }
        Path p = new Path(path);
        String parent = p.getParent() == null ? null : p.getParent().toUri().getPath();
        out.add(new SnapshottableDirectoryStatus(st.getMtime(), st.getAtime(), new FsPermission((short) st.getPermission()),
            EnumSet.noneOf(HdfsFileStatus.Flags.class), st.getOwner(), st.getGroup(),
            p.getName().getBytes(java.nio.charset.StandardCharsets.UTF_8), st.getInodeId(), 0,
            page.getSnapshotCounts(i), SNAPSHOT_LIMIT, parent == null ? null : parent.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      }
    }
    out.sort(SnapshottableDirectoryStatus.COMPARATOR);
    return out;
  }

  /** HDFS's default limit of snapshots per directory (DirectorySnapshottableFeature.SNAPSHOT_QUOTA_DEFAULT). */
  static final int SNAPSHOT_LIMIT = 65536;
}
