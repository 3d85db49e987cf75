package org.indexfs.hadoop.imports;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * {@code import --status --fsimage F --from hdfs://nn/dir} (docs/import.md): how far an image is
 * behind its NameNode, in transactions (the image's last one against the edit log's current one),
 * in seconds (the image file's modification time against now), and in changes under the source
 * (what an import with that image would read live instead of from the image). Reads only.
 */
final class ImportStatus {
  record Status(long imageTxid, long currentTxid, long ageSeconds, long events, long pathsToRead, boolean whole) {
    String summary(String from, File image) {
      return "fsimage " + image + " of " + from + "\n"
          + "  transactions  image " + imageTxid + ", NameNode now " + currentTxid + ": " + (currentTxid - imageTxid)
          + " behind\n"
          + "  seconds       " + ageSeconds + " since the image file was written\n"
          + "  changes       " + events + " under the source since the image; an import now reads " + pathsToRead
          + " paths live" + (whole ? " (the whole source: it, or a directory above it, was renamed or deleted since "
          + "the image, e.g. by an import rolled back; a new image avoids reading it all live)" : "") + "\n";
    }
  }

  private ImportStatus() {}

  static Status of(Configuration conf, URI from, File fsimage) throws IOException {
    if (!"hdfs".equals(from.getScheme()) || from.getPath() == null || from.getPath().isEmpty()) {
      throw new IllegalArgumentException("--from needs an hdfs://namenode/directory URI, not " + from);
    }
    try (DistributedFileSystem dfs = (DistributedFileSystem) FileSystem.newInstance(
        URI.create(from.getScheme() + "://" + from.getAuthority()), conf)) {
      Path src = new Path(from.getPath());
      FsImageWalk image = Importer.image(conf, fsimage, dfs, src);
      long imageTxid = image.nameSystem().getTransactionId();
      long current = dfs.getClient().getNamenode().getCurrentEditLogTxid();
      ImageChanges.Changes c = ImageChanges.since(dfs, imageTxid, src.toUri().getPath(), null, 0);
      long age = Math.max(0, (System.currentTimeMillis() - fsimage.lastModified()) / 1000);
      return new Status(imageTxid, current, age, c.events(), c.pathsToRead(), c.subtrees().contains(""));
    }
  }
}
