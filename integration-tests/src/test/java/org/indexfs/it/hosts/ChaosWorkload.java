package org.indexfs.it.hosts;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.indexfs.hadoop.IndexFileSystem;

/**
 * The clients of a chaos round: writers that each own two directories homed on different slots and
 * loop over mkdirs, create + close (the file's bytes name it), a rename within the directory, a
 * rename to the other slot, and a create + delete, through Hadoop's {@code FileSystem} as an
 * application calls it. Every call goes into the {@link History}: invoked, then ok with its answer,
 * or info when it threw (the application saw an error; whether it happened is unknown).
 */
final class ChaosWorkload implements AutoCloseable {
  final History history;
  final List<String> dirs = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private final List<FileSystem> clients = new ArrayList<>();
  private final AtomicBoolean stop = new AtomicBoolean();

  ChaosWorkload(ComposeHosts cluster, int writers, History history) throws IOException, InterruptedException {
    Configuration conf = cluster.clientConf();
    this.history = history;
    for (int w = 0; w < writers; w++) {
      IndexFileSystem fs = (IndexFileSystem) cluster.asHadoop(URI.create("indexfs://prod/"), conf);
      clients.add(fs);
      String a = dirNotOn(fs, "/chaos/w" + w + "a", -1);
      String b = dirNotOn(fs, "/chaos/w" + w + "b", fs.client().getFileStatus(a).getZerothSlot());
      dirs.add(a);
      dirs.add(b);
      int process = w;
      Thread t = new Thread(() -> run(process, fs, a, b), "chaos-writer-" + w);
      threads.add(t);
    }
    threads.forEach(Thread::start);
  }

  /** A new directory {@code prefix<i>} whose entries live on another slot than {@code avoid}. */
  private static String dirNotOn(IndexFileSystem fs, String prefix, int avoid) throws IOException {
    for (int i = 0; i < 100; i++) {
      String p = prefix + i;
      fs.mkdirs(new Path(p));
      if (fs.client().getFileStatus(p).getZerothSlot() != avoid) {
        return p;
      }
    }
    throw new IOException("placement never left slot " + avoid);
  }

  private void run(int process, FileSystem fs, String a, String b) {
    for (int step = 0; !stop.get(); step++) {
      int i = step;
      try {
        // Each step stops at its first unknown outcome (info): what follows would build on it.
        if (call(process, "mkdir", a + "/d" + i, () -> fs.mkdirs(new Path(a + "/d" + i)))
            && create(process, fs, a + "/g" + i)
            && call(process, "rename", a + "/g" + i + " " + a + "/h" + i,
                () -> fs.rename(new Path(a + "/g" + i), new Path(a + "/h" + i)))
            && create(process, fs, a + "/f" + i)
            && call(process, "rename", a + "/f" + i + " " + b + "/f" + i,
                () -> fs.rename(new Path(a + "/f" + i), new Path(b + "/f" + i)))
            && i % 3 == 0 && create(process, fs, a + "/x" + i)) {
          call(process, "delete", a + "/x" + i, () -> fs.delete(new Path(a + "/x" + i), false));
        }
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** The slot holding directory {@code dir}'s entries (asked through the first writer's client). */
  int slotOf(String dir) throws IOException {
    return ((IndexFileSystem) clients.get(0)).client().getFileStatus(dir).getZerothSlot();
  }

  /** The bytes a file's create writes: its own name, so a file that turns up elsewhere or twice is told apart. */
  static String content(String path) {
    return "chaos:" + path;
  }

  private boolean create(int process, FileSystem fs, String path) throws InterruptedException {
    return call(process, "create", path, () -> {
      try (OutputStream out = fs.create(new Path(path), false)) {
        out.write(content(path).getBytes(StandardCharsets.UTF_8));
      }
      return true;
    });
  }

  @FunctionalInterface
  private interface Call {
    boolean run() throws IOException;
  }

  private boolean call(int process, String op, String args, Call call) throws InterruptedException {
    history.add(process, History.Type.INVOKE, op, args, null);
    try {
      boolean answer = call.run();
      history.add(process, History.Type.OK, op, args, String.valueOf(answer));
      return true;
    } catch (IOException | RuntimeException e) {
      history.add(process, History.Type.INFO, op, args, String.valueOf(e).replace('\n', ' '));
      if (Thread.currentThread().isInterrupted()) {
        throw new InterruptedException();
      }
      Thread.sleep(50); // an application pauses before trying again (a refusal comes back at once)
      return false;
    }
  }

  /** Waits until the writers acknowledged {@code n} more operations (at most {@code timeoutMs}); false if they did not. */
  boolean awaitMore(int n, long timeoutMs) throws InterruptedException {
    long target = history.acknowledged() + n;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (history.acknowledged() < target) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(50);
    }
    return true;
  }

  @Override
  public void close() throws IOException, InterruptedException {
    stop.set(true);
    for (Thread t : threads) {
      t.join(180_000);
      if (t.isAlive()) {
        t.interrupt();
        t.join(10_000);
      }
    }
    for (FileSystem fs : clients) {
      fs.close();
    }
  }
}
