package org.indexfs.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.Trash;
import org.apache.hadoop.ipc.RemoteException;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.proto.Code;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * No internal result code ever reaches a caller (issue 16, item 4). Three clients, each with its
 * own connections and directory cache as separate processes would have, run seeded random
 * workloads side by side on four slots whose directories split at two entries: directories
 * renamed back and forth between parents, files renamed into existing directories, directories
 * deleted and re-created under the others' cached paths, files moved to the shared trash and trash
 * checkpoints created and expunged. Every call either succeeds or fails with an exception HDFS
 * itself throws for such races (not found, already exists, not empty, parent not a directory);
 * none may carry RESOLVE_ELSEWHERE, STALE_RESOLUTION or any other code that is the servers'
 * business.
 */
class RoutingCodesNeverLeakTest {
  static final int CLIENTS = 3;
  static final int OPS_PER_CLIENT = 250;
  static final List<String> INTERNAL = List.of(Code.RESOLVE_ELSEWHERE.name(), Code.STALE_RESOLUTION.name(),
      Code.INTERNAL_ERROR.name(), Code.BAD_REQUEST.name(), Code.SERVER_BUSY.name(), Code.STALE_HANDLE.name(),
      Code.RENAME_REFUSED.name(), Code.UNSUPPORTED.name());
  static final List<String> WRITER_RACES = List.of(
      "org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException",
      "org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException",
      "org.apache.hadoop.hdfs.protocol.RecoveryInProgressException");
  static LocalCluster cluster;

  @BeforeAll
  static void start() {
    cluster = IndexFsTestCluster.startCluster("routing", 4, Map.of(
        IndexFsConfig.SPLIT_THRESHOLD.name(), "2",
        IndexFsConfig.WAL_SYNC.name(), "false",
        IndexFsConfig.AUDIT_ENABLED.name(), "false",
        // Short leases: other clients' cached directories go stale quickly, as in a busy cluster.
        IndexFsConfig.LEASE_MAX_MS.name(), "200"));
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  static FileSystem client() throws IOException {
    Configuration conf = IndexFsTestCluster.conf(cluster);
    conf.setBoolean(IndexFsConfig.CLIENT_PRIVATE_CONNECTION.name(), true);
    conf.setLong("fs.trash.interval", 1);
    return FileSystem.newInstance(java.net.URI.create(cluster.defaultFs()), conf);
  }

  /** One client's random walk; returns the failures it saw that HDFS would not give. */
  static List<String> workload(long seed) throws IOException {
    List<String> wrong = new ArrayList<>();
    Random random = new Random(seed);
    try (FileSystem fs = client()) {
      Trash trash = new Trash(fs, fs.getConf());
      for (int op = 0; op < OPS_PER_CLIENT; op++) {
        Path a = new Path("/race/d" + random.nextInt(3) + "/s" + random.nextInt(3));
        Path b = new Path("/race/d" + random.nextInt(3));
        Path file = new Path(a, "f" + random.nextInt(4));
        int choice = random.nextInt(11);
        try {
          switch (choice) {
            case 0 -> fs.mkdirs(a);
            case 1 -> {
              try (FSDataOutputStream out = fs.create(file, true)) {
                out.write(op);
              }
            }
            case 2 -> fs.rename(a, new Path(b, a.getName()));
            case 3 -> fs.rename(file, b);
            case 4 -> {
              fs.delete(a, true);
              fs.mkdirs(a);
            }
            case 5 -> trash.moveToTrash(random.nextBoolean() ? file : a);
            case 6 -> trash.checkpoint();
            case 7 -> trash.expunge();
            case 8 -> fs.listStatus(b);
            case 9 -> fs.getContentSummary(new Path("/race"));
            default -> {
              FileStatus st = fs.getFileStatus(a);
              FileContextRename.rename(fs, a, new Path(b, "moved" + random.nextInt(2)), st.isDirectory());
            }
          }
        } catch (IOException | RuntimeException e) {
          if (leaksInternalCode(e) || !(isHdfsRefusal(e) || isKnownLimit(e))) {
            wrong.add("op " + choice + ": " + chain(e));
          }
        }
      }
    }
    return wrong;
  }

  /**
   * Renaming a file that another client is writing to another slot is not supported yet (the
   * README's "Not yet"): the workload's writers race its renames, so this limit is met on purpose.
   */
  static boolean isKnownLimit(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof UnsupportedOperationException
          && String.valueOf(t.getMessage()).endsWith("while it is open for writing is not supported yet")) {
        return true;
      }
    }
    return false;
  }

  /** Rename refusals HDFS reports as plain IOExceptions, and trash failures wrapping the HDFS ones above. */
  static boolean isHdfsRefusal(Throwable e) {
    if (!(e instanceof IOException)) {
      return false;
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof FileNotFoundException || t instanceof FileAlreadyExistsException
          || t instanceof ParentNotDirectoryException || t instanceof PathIsNotEmptyDirectoryException) {
        return true;
      }
      // A writer whose file another client deleted, replaced or is writing: HDFS's lease errors.
      if (t instanceof RemoteException r && WRITER_RACES.contains(r.getClassName())) {
        return true;
      }
      String m = String.valueOf(t.getMessage());
      if (m.contains("is a directory or file under source") || m.contains("Failed to move to trash")
          || m.contains("cannot be the root") || m.contains("must both be directories")
          // A path below what another client just turned into a file: HDFS's traverse refusal.
          || m.endsWith(" (is not a directory)")) {
        return true;
      }
    }
    return false;
  }

  static boolean leaksInternalCode(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      String m = String.valueOf(t.getMessage());
      if (INTERNAL.stream().anyMatch(m::contains)) {
        return true;
      }
    }
    return false;
  }

  static String chain(Throwable e) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      b.append(t.getClass().getSimpleName()).append(": ").append(t.getMessage()).append(" <- ");
    }
    return b.toString();
  }

  /** FileContext's exact rename (what trash checkpoints use), overwriting files only. */
  static final class FileContextRename {
    static void rename(FileSystem fs, Path src, Path dst, boolean isDirectory) throws IOException {
      ((IndexFileSystem) fs).renameExact(src, dst, !isDirectory);
    }
  }

  /** One round in CI; {@code -Drouting.rounds=N} runs N (a loop hunting a rare race), each from a fresh /race. */
  @Test
  void racingClientsOnSplittingDirectoriesNeverSeeAnInternalCode() throws Exception {
    long first = Long.getLong("routing.seed", System.nanoTime());
    int rounds = Integer.getInteger("routing.rounds", 1);
    for (int r = 0; r < rounds; r++) {
      round(first + 1000L * r);
      System.out.println("RoutingCodesNeverLeakTest round " + (r + 1) + " of " + rounds + " clean");
    }
  }

  private void round(long base) throws Exception {
    try (FileSystem admin = client()) {
      admin.delete(new Path("/race"), true);
      admin.mkdirs(new Path("/race"));
      admin.mkdirs(admin.getHomeDirectory());
    }
    System.out.println("RoutingCodesNeverLeakTest seed " + base);
    ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
    List<Future<List<String>>> runs = new ArrayList<>();
    for (int c = 0; c < CLIENTS; c++) {
      long seed = base + c;
      runs.add(pool.submit(() -> workload(seed)));
    }
    List<String> wrong = Collections.synchronizedList(new ArrayList<>());
    for (Future<List<String>> run : runs) {
      wrong.addAll(run.get());
    }
    pool.shutdown();
    assertEquals(List.of(), wrong, "seed " + base + " (rerun with -Drouting.seed=" + base + ")");
    try (FileSystem fs = client()) {
      assertTrue(fs.exists(new Path("/race")));
      List<Long> directories = new ArrayList<>();
      collectDirectories(fs, new Path("/"), directories);
      assertEquals(directories.size(), new java.util.HashSet<>(directories).size(),
          "no directory is reachable at two paths (a rename landed twice)");
      // The races left the namespace whole: no entry naming a directory that is gone, no partition
      // nobody names (a client looping between slots on such an entry is what this test once hit).
      org.indexfs.client.admin.AdminClient admin = new org.indexfs.client.admin.AdminClient(((IndexFileSystem) fs).client());
      admin.safeMode(org.indexfs.proto.SafeModeRequest.Action.ENTER);
      try {
        // Every file the workload writes is one byte, inline: the data tier holds no object to list.
        org.indexfs.client.admin.FsckResult fsck = org.indexfs.client.admin.FsckCheck.run(
            org.indexfs.client.admin.FsckSource.of(admin, slot -> Map.of()));
        assertEquals(List.of(), fsck.problems(), "fsck after seed " + base);
      } finally {
        admin.safeMode(org.indexfs.proto.SafeModeRequest.Action.LEAVE);
      }
    }
  }

  static void collectDirectories(FileSystem fs, Path dir, List<Long> ids) throws IOException {
    for (FileStatus st : fs.listStatus(dir)) {
      if (st.isDirectory()) {
        ids.add(((IndexFileStatus) st).inodeId());
        collectDirectories(fs, st.getPath(), ids);
      }
    }
  }
}
