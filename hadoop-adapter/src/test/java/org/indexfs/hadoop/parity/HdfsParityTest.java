package org.indexfs.hadoop.parity;

import static org.indexfs.hadoop.parity.Parity.shell;
import static org.indexfs.hadoop.parity.Parity.step;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.indexfs.hadoop.parity.Parity.Step;
import org.indexfs.hadoop.parity.Parity.Target;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The same FileSystem calls and {@code hadoop fs} commands on {@code hdfs://} and on
 * {@code indexfs://} (one slot, and four slots whose directories split at four entries) give the
 * same output, exit codes and exceptions, listings and their order included (issue 16): what a
 * script or a job can tell must not differ.
 */
class HdfsParityTest {
  /** Names whose hash order, HDFS order and insertion order all differ, non-ASCII ones included. */
  static final String[] NAMES = {"part-00011", "part-00001", "part-00002", "_SUCCESS", "Zeta", "alpha",
      "é-accent", "日本", "0", "~tilde", "a b", "part-00010"};

  @Test
  void oneSlotBehavesLikeHdfs() throws IOException {
    check("one", ParityClusters.oneSlot());
  }

  @Test
  void fourSplittingSlotsBehaveLikeHdfs() throws IOException {
    LocalCluster cluster = ParityClusters.fourSlots();
    check("four", cluster);
    // The listings above merged the partitions of a directory split over several slots.
    try (FileSystem fs = FileSystem.newInstance(java.net.URI.create(cluster.defaultFs()),
        org.indexfs.hadoop.IndexFsTestCluster.conf(cluster))) {
      long dirId = ((org.indexfs.hadoop.IndexFileSystem) fs).client().getFileStatus("/parity/four/listing").getInodeId();
      int holding = 0;
      for (int slot = 0; slot < cluster.serverCount(); slot++) {
        holding += cluster.server(slot).namespace().store().nameIndex().page(dirId, new byte[0], 1).entries().isEmpty()
            ? 0 : 1;
      }
      assertTrue(holding > 1, "the listed directory is split over " + holding + " slot(s)");
    }
  }

  private static void check(String label, LocalCluster cluster) throws IOException {
    String base = "/parity/" + label;
    try (Target hdfs = ParityClusters.hdfsTarget(base);
        Target indexfs = ParityClusters.indexfsTarget("indexfs (" + label + ")", cluster, base)) {
      Parity.assertSameAsHdfs(hdfs, indexfs, steps());
    }
  }

  static List<Step> steps() {
    List<Step> s = new ArrayList<>();
    s.add(step("mkdirs base", t -> t.fs().mkdirs(t.path(""))));
    listings(s);
    serverDefaults(s);
    readStatistics(s);
    times(s);
    blockLocationsAndReplication(s);
    blockSizeLimit(s);
    messages(s);
    return s;
  }

  static void write(FileSystem fs, Path p, int length) throws IOException {
    try (FSDataOutputStream out = fs.create(p, true)) {
      for (int i = 0; i < length; i++) {
        out.write('a' + i % 26);
      }
    }
  }

  static String names(FileStatus[] listed) {
    List<String> out = new ArrayList<>();
    for (FileStatus st : listed) {
      out.add(st.getPath().getName() + (st.isDirectory() ? "/" : ""));
    }
    return out.toString();
  }

  static <T extends FileStatus> String names(RemoteIterator<T> it, Path under) throws IOException {
    List<String> out = new ArrayList<>();
    String prefix = under.toUri().getPath() + "/";
    while (it.hasNext()) {
      FileStatus st = it.next();
      out.add(st.getPath().toUri().getPath().substring(prefix.length()));
    }
    return out.toString();
  }

  /** Item 1: every listing in HDFS order, with the split directory of the four-slot run. */
  static void listings(List<Step> s) {
    s.add(step("mkdirs listing/sub", t -> t.fs().mkdirs(t.path("listing/sub"))));
    for (String name : NAMES) {
      s.add(step("create " + name, t -> {
        write(t.fs(), t.path("listing/" + name), name.length() * 10);
        return t.fs().getFileStatus(t.path("listing/" + name)).getLen();
      }));
    }
    for (String name : new String[] {"b", "a", "c", "B"}) {
      s.add(step("create sub/" + name, t -> {
        write(t.fs(), t.path("listing/sub/" + name), 5);
        return "ok";
      }));
    }
    s.add(step("listStatus", t -> names(t.fs().listStatus(t.path("listing")))));
    s.add(step("listStatusIterator", t -> names(t.fs().listStatusIterator(t.path("listing")), t.path("listing"))));
    s.add(step("listFiles recursive", t -> names(t.fs().listFiles(t.path("listing"), true), t.path("listing"))));
    s.add(step("listLocatedStatus", t -> names(t.fs().listLocatedStatus(t.path("listing")), t.path("listing"))));
    s.add(step("FileContext listStatus", t -> names(t.fc().listStatus(t.path("listing")), t.path("listing"))));
    s.add(step("listStatus of a file", t -> names(t.fs().listStatus(t.path("listing/alpha")))));
    s.add(shell("-ls", "{base}/listing"));
    s.add(shell("-ls", "-R", "{base}"));
    s.add(shell("-ls", "-C", "-r", "{base}/listing"));
    s.add(shell("-du", "{base}/listing"));
    s.add(shell("-du", "-s", "-h", "{base}"));
    s.add(shell("-count", "{base}/listing"));
    s.add(shell("-count", "-q", "-h", "{base}/listing"));
    s.add(shell("-count", "-e", "{base}/listing"));
    s.add(shell("-ls", "-e", "{base}/listing"));
    s.add(shell("-find", "{base}", "-name", "part-*"));
    s.add(shell("-find", "{base}/listing", "-print"));
    s.add(shell("-setrep", "3", "{base}/listing"));
    s.add(shell("-stat", "%n %b %r %o %F %u %g %a %A", "{base}/listing/part-00001"));
    s.add(shell("-cat", "{base}/listing/alpha"));
    s.add(shell("-tail", "{base}/listing/part-00001"));
    s.add(shell("-test", "-e", "{base}/listing/日本"));
  }

  /** Item 2: FileSystem and FileContext learn the cluster's defaults. */
  static void serverDefaults(List<Step> s) {
    s.add(step("FileSystem.getServerDefaults", t -> defaults(t.fs().getServerDefaults(t.path("")))));
    s.add(step("FileContext server defaults", t ->
        defaults(t.fc().getDefaultFileSystem().getServerDefaults(t.path("")))));
    s.add(step("FileContext.create takes them", t -> {
      Path p = t.path("defaults/fc-file");
      t.fc().create(p, EnumSet.of(CreateFlag.CREATE), Options.CreateOpts.createParent()).close();
      FileStatus st = t.fs().getFileStatus(p);
      return st.getReplication() + " " + st.getBlockSize();
    }));
    s.add(step("default block size and replication", t ->
        t.fs().getDefaultBlockSize(t.path("")) + " " + t.fs().getDefaultReplication(t.path(""))
            + " " + t.fs().getDefaultBlockSize() + " " + t.fs().getDefaultReplication()));
  }

  static String defaults(FsServerDefaults d) {
    return "block " + d.getBlockSize() + ", bytesPerChecksum " + d.getBytesPerChecksum() + ", packet "
        + d.getWritePacketSize() + ", replication " + d.getReplication() + ", buffer " + d.getFileBufferSize()
        + ", encrypt " + d.getEncryptDataTransfer() + ", trash " + d.getTrashInterval() + ", checksum "
        + d.getChecksumType();
  }

  /** Item 3: bytes read, for an inline-sized file and an object-sized one, in total and per thread. */
  static void readStatistics(List<Step> s) {
    s.add(step("write stats files", t -> {
      write(t.fs(), t.path("stats/small"), 3_000);
      write(t.fs(), t.path("stats/large"), 200 * 1024);
      return "ok";
    }));
    for (String name : new String[] {"small", "large"}) {
      s.add(step("bytes read of " + name, t -> {
        FileSystem fs = t.fs();
        FileSystem.Statistics stats = FileSystem.getStatistics(t.uri.getScheme(), fs.getClass());
        long total = stats.getBytesRead();
        long thread = stats.getThreadStatistics().getBytesRead();
        long read = 0;
        byte[] buffer = new byte[4096];
        try (FSDataInputStream in = fs.open(t.path("stats/" + name))) {
          for (int n; (n = in.read(buffer)) > 0; ) {
            read += n;
          }
          in.readFully(100, buffer, 0, 500);
          in.read();
        }
        return "read " + read + ", counted " + (stats.getBytesRead() - total) + ", this thread "
            + (stats.getThreadStatistics().getBytesRead() - thread);
      }));
    }
  }

  /** Item 5: access time on read at the precision (1 h), and a directory's mtime on create. */
  static void times(List<Step> s) {
    s.add(step("atime kept within the precision", t -> {
      Path p = t.path("times/recent");
      write(t.fs(), p, 10);
      long before = t.fs().getFileStatus(p).getAccessTime();
      try (FSDataInputStream in = t.fs().open(p)) {
        in.read();
      }
      return t.fs().getFileStatus(p).getAccessTime() == before;
    }));
    s.add(step("atime moves on read past the precision", t -> {
      Path p = t.path("times/old");
      write(t.fs(), p, 10);
      t.fs().setTimes(p, -1, 1_000L);
      try (FSDataInputStream in = t.fs().open(p)) {
        in.read();
      }
      long atime = t.fs().getFileStatus(p).getAccessTime();
      return atime > System.currentTimeMillis() - 60_000 ? "now" : String.valueOf(atime);
    }));
    s.add(step("atime untouched by getFileStatus and listing", t -> {
      Path p = t.path("times/old2");
      write(t.fs(), p, 10);
      t.fs().setTimes(p, -1, 1_000L);
      t.fs().listStatus(t.path("times"));
      return t.fs().getFileStatus(p).getAccessTime();
    }));
    for (String name : new String[] {"new-a", "new-b", "new-c", "new-d", "new-e", "new-f"}) {
      s.add(step("create in listing moves its mtime: " + name, t -> {
        Path dir = t.path("listing");
        t.fs().setTimes(dir, 1_000L, -1);
        write(t.fs(), new Path(dir, name), 1);
        long mtime = t.fs().getFileStatus(dir).getModificationTime();
        return mtime > System.currentTimeMillis() - 60_000 ? "now" : String.valueOf(mtime);
      }));
    }
    s.add(step("delete in listing moves its mtime", t -> {
      Path dir = t.path("listing");
      t.fs().setTimes(dir, 1_000L, -1);
      t.fs().delete(new Path(dir, "new-f"), false);
      long mtime = t.fs().getFileStatus(dir).getModificationTime();
      return mtime > System.currentTimeMillis() - 60_000 ? "now" : String.valueOf(mtime);
    }));
  }

  static String locations(BlockLocation[] blocks) throws IOException {
    List<String> out = new ArrayList<>();
    for (BlockLocation b : blocks) {
      out.add(b.getOffset() + "+" + b.getLength() + " on " + b.getHosts().length);
    }
    return out.toString();
  }

  /** Item 6: block locations of directories and files, setrep -w, erasure-coding columns. */
  static void blockLocationsAndReplication(List<Step> s) {
    s.add(step("block locations of a directory (status)", t ->
        locations(t.fs().getFileBlockLocations(t.fs().getFileStatus(t.path("listing")), 0, 10))));
    s.add(step("block locations of a directory (path)", t ->
        locations(t.fs().getFileBlockLocations(t.path("listing"), 0, 10))));
    s.add(step("block locations of a small file", t ->
        locations(t.fs().getFileBlockLocations(t.fs().getFileStatus(t.path("stats/small")), 0, 3_000))));
    s.add(step("block locations past the end", t ->
        locations(t.fs().getFileBlockLocations(t.fs().getFileStatus(t.path("stats/small")), 5_000, 10))));
    s.add(step("located status of a small file", t -> {
      LocatedFileStatus st = t.fs().listLocatedStatus(t.path("stats")).next();
      return st.getPath().getName() + " " + locations(st.getBlockLocations());
    }));
    s.add(shell("-setrep", "-w", "3", "{base}/stats/small"));
    s.add(shell("-setrep", "-w", "3", "{base}/listing/part-00001"));
    s.add(step("content summary policy", t -> t.fs().getContentSummary(t.path("listing")).getErasureCodingPolicy()));
    s.add(step("file status erasure coded", t -> t.fs().getFileStatus(t.path("stats/small")).isErasureCoded()));
    s.add(shell("-checksum", "{base}/stats/small", "{base}/stats/large"));
    s.add(shell("-count", "-e", "{base}/stats/small"));
  }

  /** Item 7: a block size below dfs.namenode.fs-limits.min-block-size is refused at create. */
  static void blockSizeLimit(List<Step> s) {
    s.add(step("create with block size 1", t -> {
      t.fs().create(t.path("limits/tiny"), FsPermission.getFileDefault(), true, 4096, (short) 3, 1, null).close();
      return "created";
    }));
    s.add(step("nothing left behind", t -> t.fs().exists(t.path("limits/tiny"))));
    s.add(step("create with block size 1 MiB", t -> {
      t.fs().create(t.path("limits/mib"), FsPermission.getFileDefault(), true, 4096, (short) 3, 1 << 20, null).close();
      return t.fs().getFileStatus(t.path("limits/mib")).getBlockSize();
    }));
  }

  /** Item 8: exceptions and shell messages, word for word. */
  static void messages(List<Step> s) {
    s.add(step("create existing without overwrite", t -> {
      t.fs().create(t.path("listing/alpha"), false).close();
      return "created";
    }));
    s.add(step("create under a file", t -> {
      t.fs().create(t.path("listing/alpha/child"), true).close();
      return "created";
    }));
    s.add(step("mkdirs under a file", t -> t.fs().mkdirs(t.path("listing/alpha/dir"))));
    s.add(step("mkdirs over a file", t -> t.fs().mkdirs(t.path("listing/alpha"))));
    s.add(step("delete non-empty without recursion", t -> t.fs().delete(t.path("listing/sub"), false)));
    s.add(step("open a directory", t -> {
      t.fs().open(t.path("listing")).close();
      return "opened";
    }));
    s.add(step("open a missing file", t -> {
      t.fs().open(t.path("missing")).close();
      return "opened";
    }));
    s.add(step("getFileStatus of a missing file", t -> t.fs().getFileStatus(t.path("missing"))));
    s.add(step("listStatus of a missing directory", t -> names(t.fs().listStatus(t.path("missing")))));
    s.add(step("listStatusIterator of a missing directory", t ->
        names(t.fs().listStatusIterator(t.path("missing")), t.path("missing"))));
    s.add(step("FileContext create existing", t -> {
      t.fc().create(t.path("listing/alpha"), EnumSet.of(CreateFlag.CREATE)).close();
      return "created";
    }));
    s.add(step("FileContext rename onto existing", t -> {
      t.fc().rename(t.path("listing/alpha"), t.path("listing/Zeta"));
      return "renamed";
    }));
    s.add(step("FileContext rename into itself", t -> {
      t.fc().rename(t.path("listing/sub"), t.path("listing/sub/inner"));
      return "renamed";
    }));
    s.add(step("FileContext delete non-empty", t -> t.fc().delete(t.path("listing/sub"), false)));
    s.add(step("prepare a directory others may not write", t -> {
      t.fs().mkdirs(t.path("perm/closed"));
      t.fs().setPermission(t.path("perm"), new FsPermission((short) 0755));
      t.fs().setPermission(t.path("perm/closed"), new FsPermission((short) 0700));
      write(t.fs(), t.path("perm/file"), 3);
      return "ok";
    }));
    s.add(step("create without write permission", t -> {
      t.as("alice").create(t.path("perm/alice"), true).close();
      return "created";
    }));
    s.add(step("mkdirs without write permission", t -> t.as("alice").mkdirs(t.path("perm/a/b"))));
    s.add(step("delete without write permission", t -> t.as("alice").delete(t.path("perm/file"), false)));
    s.add(step("rename without write permission", t -> t.as("alice").rename(t.path("perm/file"), t.path("perm/f2"))));
    s.add(step("list without read permission", t -> names(t.as("alice").listStatus(t.path("perm/closed")))));
    s.add(step("traverse without execute permission", t -> t.as("alice").getFileStatus(t.path("perm/closed/x"))));
    s.add(step("chmod by a non-owner", t -> {
      t.as("alice").setPermission(t.path("perm/file"), new FsPermission((short) 0777));
      return "changed";
    }));
    s.add(step("chown by a non-superuser", t -> {
      t.as("alice").setOwner(t.path("perm/file"), "alice", null);
      return "changed";
    }));
    s.add(step("open without read permission", t -> {
      t.fs().setPermission(t.path("perm/file"), new FsPermission((short) 0600));
      t.as("alice").open(t.path("perm/file")).close();
      return "opened";
    }));
    s.add(shell("-mkdir", "{base}/listing"));
    s.add(shell("-mkdir", "{base}/listing/alpha/x"));
    s.add(shell("-rm", "{base}/listing/sub"));
    s.add(shell("-rmdir", "{base}/listing/sub"));
    s.add(shell("-rm", "{base}/missing"));
    s.add(shell("-ls", "{base}/missing"));
    s.add(shell("-cat", "{base}/listing"));
    s.add(shell("-mv", "{base}/listing/alpha", "{base}/listing/Zeta"));
    s.add(shell("-cp", "{base}/listing/alpha", "{base}/listing/Zeta"));
    s.add(shell("-touchz", "{base}/listing/alpha"));
    s.add(shell("-test", "-d", "{base}/listing"));
    s.add(shell("-test", "-f", "{base}/listing"));
    s.add(shell("-chmod", "700", "{base}/missing"));
    s.add(shell("-rm", "-r", "{base}/perm"));
    s.add(shell("-ls", "{base}"));
  }
}
