package org.indexfs.hadoop.decoupled;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.indexfs.client.IndexFsClient;

/**
 * The file system copies are checked out of and merged back into (the {@code indexfs://}
 * FileSystem): what {@link Checkouts} and {@link Merge} use of it, so this package needs nothing
 * of the FileSystem's own.
 */
public interface Origin {
  IndexFsClient client();

  Configuration getConf();

  /** LOCALIZE directory {@code dir} for bulk insertion ({@code shared}: SHARED_LOCALIZE). */
  void localize(Path dir, boolean shared) throws IOException;

  /** Publishes what was made below localized {@code dir}; the refused entries as "path: reason". */
  List<String> publish(Path dir) throws IOException;

  boolean mkdirs(Path dir, FsPermission permission) throws IOException;

  FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize, short replication,
      long blockSize, Progressable progress) throws IOException;
}
