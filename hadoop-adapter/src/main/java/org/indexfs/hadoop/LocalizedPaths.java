package org.indexfs.hadoop;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.GlobPattern;
import org.indexfs.client.IndexFsClient;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.client.bulk.SstShipper;
import org.indexfs.common.IndexFsConfig;

/**
 * Bulk insertion for {@link IndexFileSystem} (IndexFS §II-D): the subtrees this FileSystem has
 * localized, explicitly ({@code IndexFileSystem.localize}) or because a directory it creates
 * matches {@code indexfs.client.localize.patterns}; published SST files travel through the data
 * tier with its own client.
 */
final class LocalizedPaths implements AutoCloseable {
  private record Pattern(GlobPattern glob, boolean shared) {}

  private final BulkInsertion bulk;
  private final List<Pattern> patterns = new ArrayList<>();
  /** Subtrees under durability client-journal (issue 18), by root: their journals on the data tier. */
  private final java.util.Map<String, ClientJournal> journals = new java.util.concurrent.ConcurrentHashMap<>();
  /** indexfs.client.localize.task-attempts: FileOutputCommitter's task attempt directories. */
  private final TaskAttemptDirs attempts;

  LocalizedPaths(IndexFsClient client, DataObjects objects, Configuration conf) throws IOException {
    boolean taskAttempts = IndexFileSystem.get(conf, IndexFsConfig.CLIENT_LOCALIZE_TASK_ATTEMPTS);
    if (taskAttempts && conf.getBoolean("fs." + IndexFileSystem.SCHEME + ".impl.disable.cache", false)) {
      // A committer with a FileSystem of its own would rename the writer's attempt directory
      // before the writer published it (the server lets a rename of a localized root through).
      throw new IOException(IndexFsConfig.CLIENT_LOCALIZE_TASK_ATTEMPTS.name()
          + " needs the FileSystem cache (a task's writer and committer must share one client): unset fs."
          + IndexFileSystem.SCHEME + ".impl.disable.cache");
    }
    SstShipper shipper = new SstShipper() {
      @Override
      public String ship(Path local, String directory) throws IOException {
        String name = directory + "/" + UUID.randomUUID() + ".sst";
        objects.uploadPrivate(local, directory, name);
        return name;
      }

      @Override
      public void discard(String name) {
        objects.deleteQuietly(name);
      }

      @Override
      public void released(String directory) {
        objects.deleteDirectoryQuietly(directory);
      }
    };
    bulk = new BulkInsertion(client, shipper, IndexFileSystem.get(conf, IndexFsConfig.CLIENT_LOCALIZE_STORE),
        Path.of(conf.get("hadoop.tmp.dir", System.getProperty("java.io.tmpdir")), "indexfs-localized"),
        IndexFileSystem.get(conf, IndexFsConfig.CLIENT_LOCALIZE_BUFFER_ENTRIES),
        IndexFileSystem.get(conf, IndexFsConfig.CLIENT_LOCALIZE_DATA_LIMIT_BYTES));
    attempts = new TaskAttemptDirs(taskAttempts, client, bulk);
    for (String p : IndexFileSystem.get(conf, IndexFsConfig.CLIENT_LOCALIZE_PATTERNS).split(",")) {
      String t = p.trim();
      if (!t.isEmpty()) {
        boolean shared = t.endsWith(":shared");
        patterns.add(new Pattern(new GlobPattern(shared ? t.substring(0, t.length() - ":shared".length()) : t), shared));
      }
    }
  }

  BulkInsertion bulk() {
    return bulk;
  }

  /** The live localized subtree {@code path} lies in, or null. */
  LocalSubtree find(String path) {
    return bulk.find(path);
  }

  /** From now on, what this client does in localized subtree {@code root} is journaled to {@code journal}. */
  void journal(String root, ClientJournal journal) {
    journals.put(root, journal);
  }

  /** The journal of the localized subtree {@code t}, or null when its durability is not client-journal. */
  ClientJournal journalOf(LocalSubtree t) {
    return journals.isEmpty() || t == null ? null : journals.get(t.root());
  }

  /** The journal of the subtree rooted at {@code root} (a localized one, or a decoupled copy), or null. */
  ClientJournal journalAt(String root) {
    return journals.isEmpty() ? null : journals.get(root);
  }

  /** {@code root} was published and released: its journal is no longer needed. */
  void published(String root) throws IOException {
    ClientJournal j = journals.remove(root);
    if (j != null) {
      j.drop();
    }
  }

  /** 1: localize privately, 2: shared, 0: not a pattern's directory. */
  int patternFor(String path) {
    for (Pattern p : patterns) {
      if (p.glob().matches(path)) {
        return p.shared() ? 2 : 1;
      }
    }
    return 0;
  }

  /** Publishes what is pending in the subtree holding {@code path}, so the server may act on it. */
  void flushFor(String path) throws IOException {
    LocalSubtree t = bulk.find(path);
    if (t == null) {
      t = bulk.at(path);
    }
    if (t != null) {
      t.publish(false);
    }
  }

  /** Before a create or mkdirs of {@code path}: see {@link TaskAttemptDirs#localizeFor}. */
  boolean beforeCreate(String path) throws IOException {
    return attempts.localizeFor(path);
  }

  /**
   * Before the server renames {@code src}: the subtrees localized at or below it publish and give
   * their leases up, so the server moves what they made (a task commit's rename of its attempt
   * directory publishes the attempt's files). Refused entries or files still open fail the rename:
   * moving on would lose them.
   */
  Void beforeRename(String src) throws IOException {
    for (LocalSubtree t : bulk.atOrBelow(src)) {
      org.indexfs.proto.PublishResult r = bulk.publish(t.root(), true);
      if (r.getRejectedCount() > 0) {
        throw new IOException("Cannot rename " + src + ": publishing localized " + t.root() + " refused "
            + r.getRejectedCount() + " entries, first " + r.getRejected(0).getPath() + ": " + r.getRejected(0).getReason());
      }
      if (!t.ended()) {
        throw new IOException("Cannot rename " + src + " while files made in localized " + t.root() + " are open");
      }
      published(t.root());
    }
    return null;
  }

  /**
   * Before an entry of localized subtree {@code t} moves out of it: what is pending is published;
   * a task attempt directory also gives its lease up (its commit is taking the output away, as
   * algorithm 2's file-by-file merge does), so the remaining moves need no publish each.
   */
  void beforeMoveOut(LocalSubtree t) throws IOException {
    if (TaskAttemptDirs.isAttemptDir(t.root())) {
      beforeRename(t.root());
    } else {
      t.publish(false);
    }
  }

  /**
   * Before the server deletes {@code path}: the subtrees localized at or below it are dropped with
   * what is pending in them, data objects included (an aborted task attempt leaves nothing), and
   * their leases given up; the server's delete then takes what they published earlier.
   */
  Void beforeDelete(String path, DataObjects objects) throws IOException {
    for (LocalSubtree t : bulk.atOrBelow(path)) {
      for (String object : bulk.discard(t)) {
        objects.deleteQuietly(object);
      }
      ClientJournal j = journals.remove(t.root());
      if (j != null) {
        j.drop(); // the work it records is deleted
      }
    }
    return null;
  }

  @Override
  public void close() {
    // Journaled subtrees first: a journal goes only once its subtree is published, else it stays
    // for another client to replay.
    for (String root : List.copyOf(journals.keySet())) {
      ClientJournal j = journals.remove(root);
      try {
        if (bulk.at(root) == null) {
          j.close(); // a decoupled copy not merged: its journal stays, for another client to replay
        } else if (bulk.publish(root, true).getRejectedCount() == 0) {
          j.drop();
        } else {
          j.close();
        }
      } catch (IOException e) {
        try {
          j.close();
        } catch (IOException ignored) {
          // the journal's last hflushed record is what a replay finds
        }
      }
    }
    bulk.close();
  }
}
