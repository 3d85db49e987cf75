package org.indexfs.hadoop.imports;

import java.io.BufferedInputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.permission.PermissionStatus;
import org.apache.hadoop.hdfs.XAttrHelper;
import org.apache.hadoop.hdfs.protocol.proto.HdfsProtos.BlockProto;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite;
import org.apache.hadoop.hdfs.server.namenode.FSImageFormatPBINode;
import org.apache.hadoop.hdfs.server.namenode.FSImageFormatProtobuf.SectionName;
import org.apache.hadoop.hdfs.server.namenode.FSImageUtil;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.FileSummary;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.INodeDirectorySection;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.INodeSection;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.NameSystemSection;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.SnapshotSection;
import org.apache.hadoop.hdfs.server.namenode.FsImageProto.StringTableSection;
import org.apache.hadoop.hdfs.server.namenode.INodeId;
import org.apache.hadoop.hdfs.server.namenode.NameNodeLayoutVersion;
import org.apache.hadoop.hdfs.server.namenode.SerialNumberManager;
import org.apache.hadoop.util.LimitInputStream;

/**
 * A NameNode fsimage read with the NameNode's own image classes, section by section as the Offline
 * Image Viewer reads them (FSImageUtil for the format and summary, FsImageProto for the records,
 * FSImageFormatPBINode.Loader for permissions, ACLs and xattrs). Files are streamed: only the
 * directory tree (each inode's parent, and the imported directories' attributes) is held in memory,
 * and the INODE section is read a second time for the files.
 */
final class FsImageWalk implements NamespaceSource {
  private final File image;
  private final String subtree;
  private final Configuration conf;
  private FileSummary summary;
  private Map<String, FileSummary.Section> sections;

  /** {@code subtree}: the absolute path, in the image, of the directory imported. */
  FsImageWalk(File image, String subtree, Configuration conf) {
    this.image = image;
    this.subtree = subtree;
    this.conf = conf;
  }

  @Override
  public String describe() {
    return "fsimage " + image + ", directory " + subtree;
  }

  /**
   * Reads the image's summary and refuses what this Hadoop cannot read, naming the cause: not an
   * image, truncated (the summary is at its end), another on-disk format, a newer layout.
   */
  void check() throws IOException {
    if (summary != null) {
      return;
    }
    if (!image.isFile()) {
      throw new IOException("fsimage " + image + " does not exist or is not a file");
    }
    try (RandomAccessFile raf = new RandomAccessFile(image, "r")) {
      if (!FSImageUtil.checkFileFormat(raf)) {
        throw new IOException("fsimage " + image + " is not a NameNode image in protobuf format (no image header)");
      }
      try {
        summary = FSImageUtil.loadSummary(raf);
      } catch (IOException e) {
        if (String.valueOf(e.getMessage()).startsWith("Unsupported layout version")) {
          // FSImageUtil's own check: a layout this Hadoop does not know (newer, or not a protobuf image's)
          throw new IOException("fsimage " + image + ": " + e.getMessage() + " (this Hadoop's is "
              + NameNodeLayoutVersion.CURRENT_LAYOUT_VERSION + "): unsupported image layout", e);
        }
        throw new IOException("fsimage " + image + " is truncated or corrupt: its summary cannot be read (" + e + ")", e);
      } catch (RuntimeException e) {
        throw new IOException("fsimage " + image + " is truncated or corrupt: its summary cannot be read (" + e + ")", e);
      }
    }
    if (summary.getOndiskVersion() != FSImageUtil.FILE_VERSION) {
      throw new IOException("fsimage " + image + " has on-disk version " + summary.getOndiskVersion() + "; this Hadoop reads "
          + FSImageUtil.FILE_VERSION);
    }
    if (summary.getLayoutVersion() < NameNodeLayoutVersion.CURRENT_LAYOUT_VERSION) {
      throw new IOException("fsimage " + image + " has layout version " + summary.getLayoutVersion()
          + ", newer than this Hadoop's " + NameNodeLayoutVersion.CURRENT_LAYOUT_VERSION + ": unsupported image layout");
    }
    sections = new HashMap<>();
    for (FileSummary.Section s : summary.getSectionsList()) {
      if (s.getOffset() < 0 || s.getLength() < 0 || s.getOffset() + s.getLength() > image.length()) {
        throw new IOException("fsimage " + image + " is truncated or corrupt: section " + s.getName() + " runs past its end");
      }
      sections.putIfAbsent(s.getName(), s);
    }
    for (SectionName needed : new SectionName[] {SectionName.NS_INFO, SectionName.STRING_TABLE, SectionName.INODE,
        SectionName.INODE_DIR}) {
      if (!sections.containsKey(needed.name())) {
        throw new IOException("fsimage " + image + " is corrupt: it has no " + needed + " section");
      }
    }
  }

  /** The image's NS_INFO: the namespace id of the NameNode that wrote it, its last transaction. */
  NameSystemSection nameSystem() throws IOException {
    check();
    try (InputStream in = open(SectionName.NS_INFO)) {
      NameSystemSection ns = NameSystemSection.parseDelimitedFrom(in);
      if (ns == null) {
        throw corrupt("its NS_INFO section is empty");
      }
      return ns;
    } catch (org.apache.hadoop.thirdparty.protobuf.InvalidProtocolBufferException e) {
      throw corrupt(e.getMessage());
    }
  }

  private IOException corrupt(String what) {
    return new IOException("fsimage " + image + " is truncated or corrupt: " + what);
  }

  private InputStream open(SectionName name) throws IOException {
    FileSummary.Section s = sections.get(name.name());
    FileInputStream fin = new FileInputStream(image);
    try {
      fin.getChannel().position(s.getOffset());
      return FSImageUtil.wrapInputStreamForCompression(conf, summary.getCodec(),
          new BufferedInputStream(new LimitInputStream(fin, s.getLength())));
    } catch (IOException | RuntimeException e) {
      fin.close();
      throw e;
    }
  }

  @Override
  public void walk(Sink sink) throws IOException {
    check();
    try {
      walkChecked(sink);
    } catch (org.apache.hadoop.thirdparty.protobuf.InvalidProtocolBufferException | RuntimeException e) {
      throw new IOException("fsimage " + image + " is truncated or corrupt: " + e.getMessage(), e);
    }
  }

  private void walkChecked(Sink sink) throws IOException {
    SerialNumberManager.StringTable strings = strings();
    Map<Long, Long> parentOf = new HashMap<>();
    try (InputStream in = open(SectionName.INODE_DIR)) {
      for (INodeDirectorySection.DirEntry e; (e = INodeDirectorySection.DirEntry.parseDelimitedFrom(in)) != null; ) {
        if (e.getRefChildrenCount() > 0) {
          throw new IOException("fsimage " + image + " holds inodes renamed out of snapshots (INODE_REFERENCE) under inode "
              + e.getParent() + ": importing those is not supported");
        }
        for (long child : e.getChildrenList()) {
          parentOf.put(child, e.getParent());
        }
      }
    }
    // Pass 1: every directory's name (to find the subtree), and the subtree's directories' attributes.
    Map<Long, String> dirNames = new HashMap<>();
    Map<Long, INodeSection.INode> dirs = new HashMap<>();
    forEachInode(n -> {
      if (n.getType() == INodeSection.INode.Type.DIRECTORY) {
        dirNames.put(n.getId(), n.getName().toStringUtf8());
        dirs.put(n.getId(), n);
      }
    });
    long rootId = find(parentOf, dirNames);
    Map<Long, List<String>> snapshots = snapshots();
    Map<Long, List<Long>> childDirs = new HashMap<>();
    for (long d : dirs.keySet()) {
      Long p = parentOf.get(d);
      if (p != null) {
        childDirs.computeIfAbsent(p, k -> new ArrayList<>()).add(d);
      }
    }
    // Directories, parents first (breadth first from the subtree's root).
    Map<Long, String> relOf = new HashMap<>();
    ArrayDeque<Long> queue = new ArrayDeque<>();
    relOf.put(rootId, "");
    queue.add(rootId);
    while (!queue.isEmpty()) {
      long id = queue.poll();
      sink.accept(directory(relOf.get(id), dirs.get(id), strings, snapshots.get(id)));
      for (long c : childDirs.getOrDefault(id, List.of())) {
        relOf.put(c, ImportedEntry.child(relOf.get(id), dirNames.get(c)));
        queue.add(c);
      }
    }
    dirs.clear();
    // Pass 2: the files (and anything else) whose directory is in the subtree, streamed.
    forEachInode(n -> {
      Long parent = parentOf.get(n.getId());
      String dirRel = parent == null ? null : relOf.get(parent);
      if (dirRel == null || n.getType() == INodeSection.INode.Type.DIRECTORY) {
        return;
      }
      String rel = ImportedEntry.child(dirRel, n.getName().toStringUtf8());
      if (n.getType() == INodeSection.INode.Type.SYMLINK) {
        throw new IOException("Symbolic link " + subtree + "/" + rel + " in the image: IndexFS has no symbolic links");
      }
      sink.accept(file(rel, n.getFile(), strings));
    });
  }

  /** The inode id of {@link #subtree} in the image. */
  private long find(Map<Long, Long> parentOf, Map<Long, String> dirNames) throws IOException {
    long at = INodeId.ROOT_INODE_ID;
    String path = subtree.replaceAll("/+$", "");
    if (path.isEmpty()) {
      throw new IOException("The image's root cannot be imported: name a directory below it (--from hdfs://nn/dir)");
    }
    Map<Long, Map<String, Long>> byName = new HashMap<>();
    for (Map.Entry<Long, String> d : dirNames.entrySet()) {
      Long p = parentOf.get(d.getKey());
      if (p != null) {
        byName.computeIfAbsent(p, k -> new HashMap<>()).put(d.getValue(), d.getKey());
      }
    }
    for (String name : path.substring(1).split("/")) {
      Long next = byName.getOrDefault(at, Map.of()).get(name);
      if (next == null) {
        throw new IOException("Directory " + subtree + " is not in fsimage " + image);
      }
      at = next;
    }
    return at;
  }

  @FunctionalInterface
  private interface InodeVisitor {
    void visit(INodeSection.INode n) throws IOException;
  }

  private void forEachInode(InodeVisitor v) throws IOException {
    try (InputStream in = open(SectionName.INODE)) {
      INodeSection header = INodeSection.parseDelimitedFrom(in);
      if (header == null) {
        throw corrupt("its INODE section is empty");
      }
      for (long i = 0; i < header.getNumInodes(); i++) {
        INodeSection.INode n = INodeSection.INode.parseDelimitedFrom(in);
        if (n == null) {
          throw corrupt("its INODE section ends after " + i + " of " + header.getNumInodes() + " inodes");
        }
        v.visit(n);
      }
    }
  }

  private SerialNumberManager.StringTable strings() throws IOException {
    try (InputStream in = open(SectionName.STRING_TABLE)) {
      StringTableSection s = StringTableSection.parseDelimitedFrom(in);
      if (s == null) {
        throw corrupt("its STRING_TABLE section is empty");
      }
      SerialNumberManager.StringTable table = SerialNumberManager.newStringTable(s.getNumEntry(), s.getMaskBits());
      for (int i = 0; i < s.getNumEntry(); i++) {
        StringTableSection.Entry e = StringTableSection.Entry.parseDelimitedFrom(in);
        if (e == null) {
          throw corrupt("its STRING_TABLE section ends early");
        }
        table.put(e.getId(), e.getStr());
      }
      return table;
    }
  }

  /** Snapshottable directory id → its snapshots' names (none carried: reported). */
  private Map<Long, List<String>> snapshots() throws IOException {
    Map<Long, List<String>> out = new HashMap<>();
    if (!sections.containsKey(SectionName.SNAPSHOT.name())) {
      return out;
    }
    try (InputStream in = open(SectionName.SNAPSHOT)) {
      SnapshotSection s = SnapshotSection.parseDelimitedFrom(in);
      if (s == null) {
        return out;
      }
      for (long d : s.getSnapshottableDirList()) {
        out.put(d, new ArrayList<>());
      }
      for (int i = 0; i < s.getNumSnapshots(); i++) {
        SnapshotSection.Snapshot sn = SnapshotSection.Snapshot.parseDelimitedFrom(in);
        if (sn == null) {
          throw corrupt("its SNAPSHOT section ends early");
        }
        out.computeIfAbsent(sn.getRoot().getId(), k -> new ArrayList<>()).add(sn.getRoot().getName().toStringUtf8());
      }
    }
    return out;
  }

  private ImportedEntry directory(String rel, INodeSection.INode n, SerialNumberManager.StringTable strings,
      List<String> snapshotNames) {
    INodeSection.INodeDirectory d = n.getDirectory();
    ImportedEntry e = new ImportedEntry();
    e.relPath = rel;
    e.directory = true;
    permission(e, d.getPermission(), strings);
    e.mtime = d.getModificationTime();
    e.nsQuota = d.getNsQuota() >= 0 && d.getNsQuota() != Long.MAX_VALUE ? d.getNsQuota() : -1;
    e.ssQuota = d.getDsQuota() >= 0 && d.getDsQuota() != Long.MAX_VALUE ? d.getDsQuota() : -1;
    if (d.hasAcl()) {
      e.acl = new ArrayList<>(FSImageFormatPBINode.Loader.loadAclEntries(d.getAcl(), strings));
    }
    if (d.hasXAttrs()) {
      xattrs(e, FSImageFormatPBINode.Loader.loadXAttrs(d.getXAttrs(), strings));
    }
    if (snapshotNames != null) {
      e.snapshottable = true;
      e.snapshots = snapshotNames;
    }
    return e;
  }

  private ImportedEntry file(String rel, INodeSection.INodeFile f, SerialNumberManager.StringTable strings)
      throws IOException {
    if (f.hasFileUC()) {
      throw new IOException("File " + subtree + "/" + rel + " is open for write in the image (client "
          + f.getFileUC().getClientName() + "): close it or recover its lease, save a new image, and import again");
    }
    ImportedEntry e = new ImportedEntry();
    e.relPath = rel;
    permission(e, f.getPermission(), strings);
    e.mtime = f.getModificationTime();
    e.atime = f.getAccessTime();
    e.replication = (short) f.getReplication();
    e.blockSize = f.getPreferredBlockSize();
    for (BlockProto b : f.getBlocksList()) {
      e.length += b.getNumBytes();
    }
    if (f.getStoragePolicyID() != 0) {
      e.storagePolicy = BlockStoragePolicySuite.createDefaultSuite().getPolicy((byte) f.getStoragePolicyID()).getName();
    }
    if (f.hasAcl()) {
      e.acl = new ArrayList<>(FSImageFormatPBINode.Loader.loadAclEntries(f.getAcl(), strings));
    }
    if (f.hasXAttrs()) {
      xattrs(e, FSImageFormatPBINode.Loader.loadXAttrs(f.getXAttrs(), strings));
    }
    return e;
  }

  private static void permission(ImportedEntry e, long packed, SerialNumberManager.StringTable strings) {
    PermissionStatus p = FSImageFormatPBINode.Loader.loadPermission(packed, strings);
    e.owner = p.getUserName();
    e.group = p.getGroupName();
    e.permission = (short) (p.getPermission().toShort() & 01777);
  }

  /** Users' xattrs (user, trusted, security); a directory's storage policy is a system one. */
  private static void xattrs(ImportedEntry e, List<XAttr> all) {
    for (XAttr x : all) {
      if (BlockStoragePolicySuite.isStoragePolicyXAttr(x)) {
        e.storagePolicy = BlockStoragePolicySuite.createDefaultSuite().getPolicy(x.getValue()[0]).getName();
        continue;
      }
      if (x.getNameSpace() == XAttr.NameSpace.SYSTEM || x.getNameSpace() == XAttr.NameSpace.RAW) {
        continue; // the NameNode's own (encryption zones, erasure coding): not users' attributes
      }
      if (e.xattrs == null) {
        e.xattrs = new HashMap<>();
      }
      e.xattrs.put(XAttrHelper.getPrefixedName(x), x.getValue() == null ? new byte[0] : x.getValue());
    }
  }
}
