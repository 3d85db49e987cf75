package org.indexfs.hadoop.admin;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.indexfs.client.admin.FsckSource;
import org.indexfs.common.ObjectNames;

/** fsck's view of the data tier: each slot's object directory, listed with the stock Hadoop client. */
final class DataTierObjects implements FsckSource.ObjectLister {
  private final String dataUri;
  private final Configuration conf;

  /** {@code dataUri} empty: the cluster keeps no data tier. */
  DataTierObjects(String dataUri, Configuration conf) {
    this.dataUri = dataUri;
    this.conf = conf;
  }

  @Override
  public Map<String, Long> list(int slot) throws IOException {
    if (dataUri.isEmpty()) {
      return null;
    }
    Map<String, Long> out = new HashMap<>();
    String dir = ObjectNames.slotDirectory(slot);
    FileSystem data = FileSystem.get(URI.create(dataUri), conf);
    RemoteIterator<FileStatus> it;
    try {
      it = data.listStatusIterator(new Path(dataUri + "/" + dir));
    } catch (FileNotFoundException none) {
      return out;
    }
    while (it.hasNext()) {
      FileStatus s = it.next();
      if (s.isFile()) {
        out.put(dir + "/" + s.getPath().getName(), s.getLen());
      }
    }
    return out;
  }
}
