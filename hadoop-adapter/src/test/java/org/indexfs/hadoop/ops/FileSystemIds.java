package org.indexfs.hadoop.ops;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.fs.FileSystem;
import org.indexfs.hadoop.IndexFileSystem;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.indexfs.server.local.LocalCluster;

/** Inode ids of paths, as the servers know them. */
final class FileSystemIds {
  private FileSystemIds() {}

  static long inodeId(LocalCluster cluster, String path) throws IOException {
    try (FileSystem fs = FileSystem.newInstance(URI.create(cluster.defaultFs()), IndexFsTestCluster.conf(cluster))) {
      return ((IndexFileSystem) fs).client().getFileStatus(path).getInodeId();
    }
  }
}
