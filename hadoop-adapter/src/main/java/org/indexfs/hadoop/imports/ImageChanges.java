package org.indexfs.hadoop.imports;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.DFSInotifyEventInputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.inotify.Event;
import org.apache.hadoop.hdfs.inotify.EventBatch;
import org.apache.hadoop.hdfs.inotify.MissingEventsException;

/**
 * What the NameNode changed under a directory since an fsimage was saved, from its own edit log
 * through HDFS inotify ({@code DFSInotifyEventInputStream}): an fsimage import is only right when
 * nothing did (following such changes until cutover is a later step, docs/import.md).
 */
final class ImageChanges {
  private ImageChanges() {}

  /**
   * The changes after transaction {@code sinceTxid} touching {@code dir} or below, but the import's
   * own rename of {@code dir} to {@code movedTo} (null: not made yet); empty: none.
   */
  static List<String> under(DistributedFileSystem dfs, long sinceTxid, String dir, String movedTo) throws IOException {
    List<String> out = new ArrayList<>();
    DFSInotifyEventInputStream in = dfs.getInotifyEventStream(sinceTxid);
    try {
      for (EventBatch b; (b = in.poll()) != null; ) {
        for (Event e : b.getEvents()) {
          if (e instanceof Event.RenameEvent r && r.getSrcPath().equals(dir) && r.getDstPath().equals(movedTo)) {
            continue;
          }
          for (String p : paths(e)) {
            if (p.equals(dir) || p.startsWith(dir + "/")) {
              out.add(e.getEventType() + " " + p + " (transaction " + b.getTxid() + ")");
            }
          }
        }
      }
    } catch (MissingEventsException e) {
      throw new IOException("The NameNode no longer has the edits since the image's transaction " + sinceTxid
          + " (" + e.getMessage() + "): cannot tell whether " + dir + " changed since; save a new image", e);
    }
    return out;
  }

  private static List<String> paths(Event e) {
    return switch (e.getEventType()) {
      case CREATE -> List.of(((Event.CreateEvent) e).getPath());
      case CLOSE -> List.of(((Event.CloseEvent) e).getPath());
      case APPEND -> List.of(((Event.AppendEvent) e).getPath());
      case RENAME -> List.of(((Event.RenameEvent) e).getSrcPath(), ((Event.RenameEvent) e).getDstPath());
      case METADATA -> List.of(((Event.MetadataUpdateEvent) e).getPath());
      case UNLINK -> List.of(((Event.UnlinkEvent) e).getPath());
      case TRUNCATE -> List.of(((Event.TruncateEvent) e).getPath());
    };
  }
}
