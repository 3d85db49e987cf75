package org.indexfs.gateway;

import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.FileType;

/**
 * IndexFS entries as the NameNode describes its inodes. The file id is the entry's inode id (the
 * id HDFS clients send back with their block calls, {@link OpenFiles}); names are the entry's
 * name in a listing and empty for a single path, as the NameNode sends them.
 */
final class HdfsStatuses {
  static final byte[] NO_NAME = HdfsFileStatus.EMPTY_NAME;

  private HdfsStatuses() {}

  static HdfsFileStatus of(FileStatus s, byte[] name) {
    return builder(s, name).build();
  }

  /** As the NameNode lists with locations: every file carries its blocks (none: an empty list). */
  static HdfsFileStatus located(FileStatus s, byte[] name, LocatedBlocks blocks) {
    return builder(s, name).locations(s.getType() == FileType.DIRECTORY ? null : blocks).build();
  }

  static byte[] nameOf(FileStatus s) {
    return s.getName().getBytes(StandardCharsets.UTF_8);
  }

  static boolean isDirectory(FileStatus s) {
    return s.getType() == FileType.DIRECTORY;
  }

  private static HdfsFileStatus.Builder builder(FileStatus s, byte[] name) {
    boolean dir = isDirectory(s);
    EnumSet<HdfsFileStatus.Flags> flags = EnumSet.noneOf(HdfsFileStatus.Flags.class);
    if (s.getHasAcl()) {
      flags.add(HdfsFileStatus.Flags.HAS_ACL);
    }
    return new HdfsFileStatus.Builder()
        .isdir(dir)
        .length(dir ? 0 : s.getLength())
        .replication(dir ? 0 : s.getReplication())
        .blocksize(dir ? 0 : s.getBlockSize())
        .mtime(s.getMtime())
        .atime(s.getAtime())
        .perm(new FsPermission((short) s.getPermission()))
        .flags(flags)
        .owner(s.getOwner())
        .group(s.getGroup())
        .path(name)
        .fileId(s.getInodeId())
        .children(dir ? (int) Math.min(Integer.MAX_VALUE, s.getChildren()) : 0)
        .storagePolicy(HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED);
  }
}
