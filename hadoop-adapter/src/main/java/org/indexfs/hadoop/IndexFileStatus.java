package org.indexfs.hadoop;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * A {@link FileStatus} that remembers where the file's bytes are, so block locations of a listed
 * file need no second metadata call (listLocatedStatus asks for every file of a directory).
 */
final class IndexFileStatus extends FileStatus {
  private static final long serialVersionUID = 1L;

  private final String dataObject;
  private final boolean underConstruction;
  private final long inodeId;

  IndexFileStatus(Path path, org.indexfs.proto.FileStatus s) {
    super(isDir(s) ? 0 : s.getLength(), isDir(s), isDir(s) ? 0 : s.getReplication(), isDir(s) ? 0 : s.getBlockSize(),
        s.getMtime(), s.getAtime(), new FsPermission((short) s.getPermission()), s.getOwner(), s.getGroup(), null, path,
        FileStatus.attributes(s.getHasAcl(), false, false, false));
    this.dataObject = s.getDataObject().isEmpty() ? null : s.getDataObject();
    this.underConstruction = s.getUnderConstruction();
    this.inodeId = s.getInodeId();
  }

  /** The entry's inode id (HDFS: HdfsFileStatus.getFileId). */
  long inodeId() {
    return inodeId;
  }

  private static boolean isDir(org.indexfs.proto.FileStatus s) {
    return s.getType() == org.indexfs.proto.FileType.DIRECTORY;
  }

  /** The data object holding the file's bytes, or null for an inline file or a directory. */
  String dataObject() {
    return dataObject;
  }

  boolean underConstruction() {
    return underConstruction;
  }

  @Override
  public boolean equals(Object o) {
    return super.equals(o);
  }

  @Override
  public int hashCode() {
    return super.hashCode();
  }
}
