package org.indexfs.hadoop.imports;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdfs.DFSInotifyEventInputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.inotify.Event;
import org.apache.hadoop.hdfs.inotify.EventBatch;
import org.apache.hadoop.hdfs.inotify.MissingEventsException;

/**
 * Which paths under a directory the NameNode changed after a transaction, from its own edit log
 * through HDFS inotify ({@code DFSInotifyEventInputStream}). An fsimage import (docs/import.md)
 * reads these paths' current state live instead of the image's: inotify says <i>which</i> paths
 * changed, not their state, so only the set of paths is kept, each relative to the directory.
 */
final class ImageChanges {
  /**
   * Paths relative to the directory ("": the directory itself). {@code subtrees}: created, renamed
   * or deleted, so the entry and everything below it must be read live; {@code selves}: changed in
   * place (metadata, append, truncate, close), so only the entry itself; {@code events}: how many
   * events touched the directory; {@code lastTxid}: the last transaction read; {@code first}: the
   * first few events, for messages.
   */
  record Changes(TreeSet<String> subtrees, TreeSet<String> selves, long events, long lastTxid, List<String> first) {
    /** How many paths an import reads live for these changes. */
    long pathsToRead() {
      return roots(subtrees).size() + selves.stream().filter(p -> !covered(subtrees, p)).count();
    }
  }

  private ImageChanges() {}

  /**
   * The changes after transaction {@code sinceTxid} touching {@code dir} or below. With
   * {@code movedTo} null, up to the edit log's current end; otherwise up to the import's own rename
   * of {@code dir} to {@code movedTo}, which is waited for (up to {@code waitMillis}) and not counted.
   */
  static Changes since(DistributedFileSystem dfs, long sinceTxid, String dir, String movedTo, long waitMillis)
      throws IOException {
    TreeSet<String> subtrees = new TreeSet<>();
    TreeSet<String> selves = new TreeSet<>();
    List<String> first = new ArrayList<>();
    long events = 0;
    long last = sinceTxid;
    long end = movedTo == null ? dfs.getClient().getNamenode().getCurrentEditLogTxid() : Long.MAX_VALUE;
    DFSInotifyEventInputStream in = dfs.getInotifyEventStream(sinceTxid);
    long deadline = System.currentTimeMillis() + waitMillis;
    try {
      while (last < end) {
        EventBatch b = movedTo == null ? in.poll() : in.poll(Math.max(1, deadline - System.currentTimeMillis()),
            TimeUnit.MILLISECONDS);
        if (b == null) {
          if (movedTo == null) {
            break; // everything the NameNode has logged so far was read
          }
          throw new IOException("The NameNode's edit log did not show the import's rename of " + dir + " to " + movedTo
              + " within " + waitMillis + " ms: cannot tell which changes came before it");
        }
        last = b.getTxid();
        for (Event e : b.getEvents()) {
          if (e instanceof Event.RenameEvent r && r.getSrcPath().equals(dir) && r.getDstPath().equals(movedTo)) {
            end = last; // the import's own rename: what follows happened to the moved tree, under its new name
            continue;
          }
          boolean touched = false;
          for (String p : paths(e)) {
            String rel = relative(p, dir, e);
            if (rel != null) {
              boolean inPlace = switch (e.getEventType()) {
                case METADATA, APPEND, TRUNCATE, CLOSE -> true;
                default -> false;
              };
              (inPlace ? selves : subtrees).add(rel);
              if (!inPlace && !rel.isEmpty()) {
                // An entry made, moved or removed there changed its directory's mtime, which no event says.
                selves.add(rel.lastIndexOf('/') < 0 ? "" : rel.substring(0, rel.lastIndexOf('/')));
              }
              touched = true;
            }
          }
          if (touched) {
            events++;
            if (first.size() < 5) {
              first.add(e.getEventType() + " " + String.join(" -> ", paths(e)) + " (transaction " + b.getTxid() + ")");
            }
          }
        }
      }
    } catch (MissingEventsException e) {
      throw new IOException("The NameNode no longer has the edits since the image's transaction " + sinceTxid
          + " (" + e.getMessage() + "): cannot tell what changed under " + dir + " since the image; save a new image", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("Interrupted while reading the NameNode's edits");
    }
    return new Changes(subtrees, selves, events, last, first);
  }

  /**
   * {@code p} relative to {@code dir}; "" when a rename or delete took {@code dir} itself or an
   * ancestor (everything must then be read live); null when {@code p} is elsewhere.
   */
  private static String relative(String p, String dir, Event e) {
    if (p.equals(dir)) {
      return "";
    }
    if (p.startsWith(dir + "/")) {
      return p.substring(dir.length() + 1);
    }
    boolean moves = e.getEventType() == Event.EventType.RENAME || e.getEventType() == Event.EventType.UNLINK;
    return moves && (p.equals("/") || dir.startsWith(p + "/")) ? "" : null;
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

  /** The paths of {@code dirty} that no other one is an ancestor of: the subtrees to read live. */
  static List<String> roots(TreeSet<String> dirty) {
    TreeSet<String> out = new TreeSet<>();
    for (String p : dirty) { // sorted: an ancestor comes before its descendants
      if (!covered(out, p)) {
        out.add(p);
      }
    }
    return new ArrayList<>(out);
  }

  /** Whether {@code rel} is at or below one of the (relative) paths in {@code dirty}. */
  static boolean covered(TreeSet<String> dirty, String rel) {
    if (dirty.isEmpty()) {
      return false;
    }
    if (dirty.contains("") || dirty.contains(rel)) {
      return true;
    }
    for (int i = rel.lastIndexOf('/'); i > 0; i = rel.lastIndexOf('/', i - 1)) {
      if (dirty.contains(rel.substring(0, i))) {
        return true;
      }
    }
    return false;
  }
}
