package org.indexfs.bench.replay;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Builds a {@link PrecreatePlan} on a target in parallel, one depth level at a time (a level's
 * parents exist before its children are made). Entries with an owner are made by that user, the
 * rest by the replaying user. Directories are made {@code rwxrwxrwx} and files
 * {@code rw-rw-rw-} and empty: a trace records neither the modes nor the sizes entries had
 * before it began, and permissive modes let every call the trace shows succeeding succeed again.
 */
final class Precreator {
  static final FsPermission DIRECTORY_MODE = new FsPermission((short) 0777);
  static final FsPermission FILE_MODE = new FsPermission((short) 0666);

  private final Identities identities;
  private final int threads;
  private final AtomicLong done = new AtomicLong();

  Precreator(Identities identities, int threads) {
    this.identities = identities;
    this.threads = threads;
  }

  /** Entries built so far (for a progress bar). */
  public long done() {
    return done.get();
  }

  public void build(List<PrecreatePlan.Entry> plan) throws IOException {
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "precreate");
      t.setDaemon(true);
      return t;
    });
    try {
      int i = 0;
      while (i < plan.size()) {
        int depth = plan.get(i).depth();
        List<Future<?>> level = new ArrayList<>();
        for (; i < plan.size() && plan.get(i).depth() == depth; i++) {
          PrecreatePlan.Entry e = plan.get(i);
          if (!e.path().equals("/")) {
            level.add(pool.submit(() -> {
              make(e);
              return null;
            }));
          }
        }
        for (Future<?> f : level) {
          await(f);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * One entry, made by its owner (its parent is rwxrwxrwx), so it needs no chown; with the replay's
   * umask of 000 the mode is exact, else it is set after.
   */
  private void make(PrecreatePlan.Entry e) throws IOException {
    Identities.Caller caller = e.owner() == null ? identities.superuser() : identities.forUser(e.owner());
    FileSystem fs = caller.fs;
    Path p = new Path(e.path());
    boolean exactModes = FsPermission.getUMask(fs.getConf()).toShort() == 0;
    caller.as(() -> {
      if (e.directory()) {
        fs.mkdirs(p, DIRECTORY_MODE);
      } else {
        try (FSDataOutputStream out = fs.create(p, FILE_MODE, true, 4096, fs.getDefaultReplication(p),
            fs.getDefaultBlockSize(p), null)) {
          // empty: the trace does not say how large the file was
        }
      }
      if (!exactModes) {
        fs.setPermission(p, e.directory() ? DIRECTORY_MODE : FILE_MODE);
      }
      return null;
    });
    done.incrementAndGet();
  }

  private static void await(Future<?> f) throws IOException {
    try {
      f.get();
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("Interrupted while pre-creating the namespace");
    } catch (ExecutionException ee) {
      Throwable c = ee.getCause();
      throw c instanceof IOException io ? io : new IOException("Pre-create failed", c);
    }
  }
}
