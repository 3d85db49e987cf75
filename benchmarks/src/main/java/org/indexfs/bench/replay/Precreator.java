package org.indexfs.bench.replay;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
 * parents exist before its children are made). Each entry is made by its owner (the replaying
 * user when it has none), so it needs no chown (except where the owner may not write the parent:
 * the target's own root directory): directories {@code rwxrwxrwx} at first, so that
 * every owner can make its entries inside, files empty (a trace does not say how large they were)
 * with their final mode. Then, as the replaying user (the target's superuser), the groups the
 * trace printed and the directories' final modes are set. An entry that cannot be made is
 * counted by reason and the build goes on.
 */
final class Precreator {
  static final FsPermission DIRECTORY_MODE = new FsPermission((short) 0777);
  static final FsPermission FILE_MODE = new FsPermission((short) 0666);

  /** What a build did: entries made, seconds, and failures by reason (with the first message of each). */
  record Result(long entries, long made, double seconds, Map<String, Long> failures) {
    long failed() {
      return failures.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private final Identities identities;
  private final int threads;
  private final AtomicLong done = new AtomicLong();
  private final AtomicLong made = new AtomicLong();
  private final Map<String, Long> failures = new TreeMap<>();
  private final Map<String, String> firstMessage = new TreeMap<>();

  Precreator(Identities identities, int threads) {
    this.identities = identities;
    this.threads = threads;
  }

  /** Entries handled so far (for a progress bar). */
  public long done() {
    return done.get();
  }

  /** Builds {@code plan} below {@code prefix} (null: at the paths as planned). */
  Result build(List<PrecreatePlan.Entry> plan, String prefix) throws IOException {
    long t0 = System.nanoTime();
    String base = prefix == null || prefix.equals("/") ? "" : prefix.replaceAll("/+$", "");
    Identities.Caller login = identities.superuser();
    if (!base.isEmpty()) {
      attempt("make the prefix directory", login, fs -> {
        fs.mkdirs(new Path(base), DIRECTORY_MODE);
        fs.setPermission(new Path(base), DIRECTORY_MODE);
      });
    }
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
          level.add(pool.submit(() -> {
            make(e, base);
            return null;
          }));
        }
        for (Future<?> f : level) {
          await(f);
        }
      }
    } finally {
      pool.shutdownNow();
    }
    for (PrecreatePlan.Entry e : plan) {
      Path p = new Path(base + e.path());
      if (e.group() != null) {
        attempt("set the group the trace printed", login, fs -> fs.setOwner(p, null, e.group()));
      }
      if (e.directory() && e.mode() >= 0) {
        attempt("set the directory's mode", login, fs -> fs.setPermission(p, new FsPermission((short) e.mode())));
      }
    }
    synchronized (failures) {
      Map<String, Long> out = new TreeMap<>();
      failures.forEach((reason, n) -> out.put(reason + " (first: " + firstMessage.get(reason) + ")", n));
      return new Result(plan.size(), made.get(), (System.nanoTime() - t0) / 1e9, out);
    }
  }

  /**
   * One entry, made by its owner; where the owner may not write the parent (the target's root
   * directory), made by the replaying user and given to the owner.
   */
  private void make(PrecreatePlan.Entry e, String base) {
    try {
      Identities.Caller caller = e.owner() == null ? identities.superuser() : identities.forUser(e.owner());
      Path p = new Path(base + e.path());
      FsPermission mode = e.directory() ? DIRECTORY_MODE : e.mode() >= 0 ? new FsPermission((short) e.mode()) : FILE_MODE;
      FsStep create = fs -> {
        boolean exactModes = FsPermission.getUMask(fs.getConf()).toShort() == 0;
        if (e.directory()) {
          fs.mkdirs(p, mode);
        } else {
          try (FSDataOutputStream out = fs.create(p, mode, true, 4096, fs.getDefaultReplication(p),
              fs.getDefaultBlockSize(p), null)) {
            // empty: the trace does not say how large the file was
          }
        }
        if (!exactModes) {
          fs.setPermission(p, mode);
        }
      };
      String step = e.directory() ? "make a directory" : "make a file";
      boolean ok;
      try {
        caller.as(() -> {
          create.run(caller.fs);
          return null;
        });
        ok = true;
      } catch (IOException | RuntimeException ex) {
        Identities.Caller login = identities.superuser();
        if (caller != login && CallRunner.outcome(ex).name().equals("AccessControlException")) {
          ok = attempt(step + " as the replaying user and give it away", login, fs -> {
            create.run(fs);
            fs.setOwner(p, caller.ugi.getShortUserName(), null);
          });
        } else {
          fail(step, ex);
          ok = false;
        }
      }
      if (ok) {
        made.incrementAndGet();
      }
    } catch (IOException | RuntimeException ex) {
      fail("open the owner's file system", ex);
    } finally {
      done.incrementAndGet();
    }
  }

  private interface FsStep {
    void run(FileSystem fs) throws IOException;
  }

  /** Runs one step as {@code caller}; a failure is counted, not thrown. */
  private boolean attempt(String step, Identities.Caller caller, FsStep work) {
    try {
      caller.as(() -> {
        work.run(caller.fs);
        return null;
      });
      return true;
    } catch (IOException | RuntimeException ex) {
      fail(step, ex);
      return false;
    }
  }

  private void fail(String step, Throwable ex) {
    CallRunner.Outcome o = CallRunner.outcome(ex);
    String reason = step + ": " + o.name();
    synchronized (failures) {
      failures.merge(reason, 1L, Long::sum);
      firstMessage.putIfAbsent(reason, o.message() == null ? "" : o.message());
    }
  }

  private static void await(Future<?> f) throws IOException {
    try {
      f.get();
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while pre-creating the namespace");
    } catch (ExecutionException ee) {
      throw new IOException("Pre-create failed", ee.getCause()); // make() counts failures itself: a bug
    }
  }
}
