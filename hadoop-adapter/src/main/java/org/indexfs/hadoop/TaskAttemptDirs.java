package org.indexfs.hadoop;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.indexfs.client.IndexFsClient;
import org.indexfs.client.bulk.BulkInsertion;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.proto.Code;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code indexfs.client.localize.task-attempts} (issue 18, "jobs benefit unchanged"): the task
 * attempt directories of Hadoop's FileOutputCommitter, {@code <output>/_temporary/<appAttempt>/
 * _temporary/attempt_*} — where MapReduce tasks and Spark's HadoopMapReduceCommitProtocol write
 * (both algorithm versions) — become localized subtrees when the task makes its first file or
 * directory there. The committer never makes the directory itself (setupTask is empty; the first
 * create makes it with its parents), so the first create localizes it: its files then cost no RPC
 * each, and the commit's rename publishes them ({@link LocalizedPaths#beforeRename}). Nobody else
 * looks inside an attempt directory before the commit, on HDFS either.
 */
final class TaskAttemptDirs {
  /** FileOutputCommitter.PENDING_DIR_NAME. */
  private static final String PENDING = "_temporary";

  private static final Logger LOG = LoggerFactory.getLogger(TaskAttemptDirs.class);
  /** Attempt directories remembered as localized once (a long-lived executor runs many tasks). */
  private static final int REMEMBERED = 10_000;

  private final boolean enabled;
  private final IndexFsClient client;
  private final BulkInsertion bulk;
  /**
   * Attempt directories this client localized (or could not): once their lease is given up (a
   * commit, or another client reading inside), what follows there runs on the server.
   */
  private final Map<String, Boolean> seen = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
      return size() > REMEMBERED;
    }
  };

  TaskAttemptDirs(boolean enabled, IndexFsClient client, BulkInsertion bulk) {
    this.enabled = enabled;
    this.client = client;
    this.bulk = bulk;
  }

  /**
   * The task attempt directory {@code path} is or lies in ({@code …/_temporary/<digits>/_temporary/
   * attempt_…}), or null.
   */
  static String attemptDirOf(String path) {
    int at = path.indexOf("/" + PENDING + "/");
    while (at >= 0) {
      int appStart = at + PENDING.length() + 2;
      int appEnd = path.indexOf('/', appStart);
      if (appEnd > appStart && digits(path, appStart, appEnd)
          && path.startsWith(PENDING + "/attempt_", appEnd + 1)) {
        int nameStart = appEnd + PENDING.length() + 2;
        int end = path.indexOf('/', nameStart);
        return end < 0 ? path : path.substring(0, end);
      }
      at = path.indexOf("/" + PENDING + "/", at + 1);
    }
    return null;
  }

  private static boolean digits(String s, int from, int to) {
    for (int i = from; i < to; i++) {
      if (!Character.isDigit(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** True when {@code root} is a task attempt directory itself. */
  static boolean isAttemptDir(String root) {
    return root.equals(attemptDirOf(root));
  }

  /**
   * Before a create or mkdirs of {@code path}: when it is or lies in a task attempt directory this
   * client has not localized, localizes that directory (made if missing). Returns true when
   * {@code path} is now inside or at a localized attempt directory.
   */
  boolean localizeFor(String path) throws IOException {
    // Off (the default): every create and mkdirs asks, so answer without the lock.
    return enabled && localizeEnabled(path);
  }

  private synchronized boolean localizeEnabled(String path) throws IOException {
    String root = attemptDirOf(path);
    if (root == null || bulk.find(root) != null) {
      return false; // not an attempt directory, or inside a subtree this client localized otherwise
    }
    if (bulk.at(root) != null) {
      return true;
    }
    if (seen.put(root, Boolean.TRUE) != null) {
      return false; // its lease was given up: the rest of the attempt runs on the server
    }
    try {
      bulk.localize(root, implicitMode(root), false);
      return true;
    } catch (IndexFsException e) {
      if (e.code() != Code.UNSUPPORTED && e.code() != Code.SUBTREE_LOCALIZED) {
        throw e; // what the create itself would answer (access denied, a file in the way ...)
      }
      // Localized by another client, or split: the task works on the server as without the setting.
      LOG.info("Task attempt directory {} is not localized ({}); its files go to the server", root, e.getMessage());
      return false;
    }
  }

  /**
   * The mode HDFS gives a directory made implicitly by a create below it (createAncestorDirectories):
   * the nearest existing ancestor's, plus u+wx.
   */
  private int implicitMode(String root) throws IOException {
    String p = root;
    while (true) {
      int slash = p.lastIndexOf('/');
      p = slash <= 0 ? "/" : p.substring(0, slash);
      try {
        return Permission.withImplicitUserWriteExecute(client.getFileStatus(p).getPermission());
      } catch (IndexFsException e) {
        if (e.code() != Code.FILE_NOT_FOUND || p.equals("/")) {
          throw e;
        }
      }
    }
  }
}
