package org.indexfs.hadoop.imports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.indexfs.hadoop.IndexFileSystem;
import org.indexfs.hadoop.exports.ExportMain;
import org.junit.jupiter.api.Test;

/**
 * Issue 34, "leave again": {@code bin/indexfs export} puts an IndexFS directory (imported, then
 * written to through indexfs://) back on the data tier's NameNode: every object file moved by one
 * rename (same blocks, same checksum), inline files written anew, every attribute carried, the
 * IndexFS subtree gone and its delete reclaiming none of the exported files. Refusals change
 * nothing; a failure in the middle puts every moved object back. (In the import tests' package:
 * they share its HDFS and IndexFS fixture.)
 */
class ExportTest {
  private record Run(int code, String text) {}

  private static Run export(String from, String to) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = ExportMain.run(new String[] {"--from", from, "--to", ImportFixture.hdfsUri(to).toString()},
        ImportFixture.conf(), new PrintStream(out, true), new PrintStream(out, true));
    return new Run(code, out.toString(StandardCharsets.UTF_8));
  }

  private static byte[] read(FileSystem fs, Path p) throws IOException {
    try (FSDataInputStream in = fs.open(p)) {
      return in.readAllBytes();
    }
  }

  private static void write(FileSystem fs, Path p, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 2, 1 << 20)) {
      out.write(data);
    }
  }

  private static Path object(IndexFileSystem ifs, Path p) throws IOException {
    String name = ifs.client().getFileStatus(p.toUri().getPath()).getDataObject();
    return name.isEmpty() ? null : new Path(ImportFixture.DATA_ROOT + "/" + name);
  }

  private static List<Long> blockIds(DistributedFileSystem dfs, Path p) throws IOException {
    List<Long> ids = new ArrayList<>();
    for (LocatedBlock b : dfs.getClient().getLocatedBlocks(p.toUri().getPath(), 0, Long.MAX_VALUE).getLocatedBlocks()) {
      ids.add(b.getBlock().getBlockId());
    }
    return ids;
  }

  /** Every attribute the export carries, entry by entry, as the same text on either side. */
  private static Map<String, String> describe(FileSystem fs, Path root, Function<Path, String> ownPolicy,
      Set<String> snapshottable) throws IOException {
    Map<String, String> out = new TreeMap<>();
    ArrayDeque<Path> todo = new ArrayDeque<>(List.of(root));
    String prefix = root.toUri().getPath();
    while (!todo.isEmpty()) {
      Path p = todo.poll();
      FileStatus s = fs.getFileStatus(p);
      String path = fs.makeQualified(p).toUri().getPath();
      StringBuilder b = new StringBuilder();
      b.append(s.isDirectory() ? "dir" : "file").append(' ').append(s.getOwner()).append(':').append(s.getGroup())
          .append(' ').append(Integer.toOctalString(s.getPermission().toShort() & 01777)).append(" m=")
          .append(s.getModificationTime());
      if (s.isDirectory()) {
        QuotaUsage q = fs.getQuotaUsage(p);
        b.append(" q=").append(Math.max(-1, q.getQuota())).append('/').append(Math.max(-1, q.getSpaceQuota()))
            .append(" snap=").append(snapshottable.contains(path));
        for (FileStatus c : fs.listStatus(p)) {
          todo.add(c.getPath());
        }
      } else {
        b.append(" a=").append(s.getAccessTime()).append(" r=").append(s.getReplication()).append(" bs=")
            .append(s.getBlockSize()).append(" len=").append(s.getLen());
      }
      b.append(" acl=").append(s.hasAcl() ? fs.getAclStatus(p).getEntries() : "none");
      Map<String, String> x = new TreeMap<>();
      fs.getXAttrs(p).forEach((k, v) -> x.put(k, HexFormat.of().formatHex(v)));
      b.append(" xattrs=").append(x).append(" policy=").append(ownPolicy.apply(p));
      out.put(path.equals(prefix) ? "." : path.substring(prefix.length() + 1), b.toString());
    }
    return out;
  }

  private static Set<String> snapshottable(org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus[] all) {
    Set<String> out = new java.util.HashSet<>();
    for (var d : all == null ? new org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus[0] : all) {
      out.add(d.getFullPath().toUri().getPath());
    }
    return out;
  }

  private static String indexPolicy(IndexFileSystem ifs, Path p) {
    try {
      return ifs.client().storagePolicyId(p.toUri().getPath(), false) == 0 ? null : ifs.getStoragePolicy(p).getName();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String hdfsPolicy(DistributedFileSystem dfs, Path p) {
    try {
      HdfsFileStatus s = dfs.getClient().getFileInfo(p.toUri().getPath());
      return s.getStoragePolicy() == HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED ? null
          : dfs.getStoragePolicy(p).getName();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void reclaimed() throws IOException {
    while (!ImportFixture.cluster().server().reclaimer().runOnce()) {
      // until no delete record is left
    }
  }

  @Test
  void anImportedAndExtendedTreeIsExportedByRenamesWithEveryAttribute() throws Exception {
    Map<String, byte[]> files = new LinkedHashMap<>(ImportFixture.writeNamespace(new Path("/exp-src")));
    ByteArrayOutputStream imported = new ByteArrayOutputStream();
    assertThat(ImportMain.run(new String[] {"--from", ImportFixture.hdfsUri("/exp-src").toString(), "--to", "/exp"},
        ImportFixture.conf(), new PrintStream(imported, true), new PrintStream(imported, true))).as(imported.toString())
        .isZero();
    DistributedFileSystem dfs = ImportFixture.dfs();
    try (IndexFileSystem ifs = ImportFixture.indexFs()) {
      // Written through indexfs:// after the import: an object of a slot, inline files, a new directory.
      files.put("fresh-big", ImportFixture.bytes(11, (3 << 20) + 17));
      files.put("a/fresh-inline", ImportFixture.bytes(12, 2_000));
      files.put("fresh-dir/empty-new", new byte[0]);
      for (Map.Entry<String, byte[]> f : files.entrySet()) {
        if (f.getKey().startsWith("fresh") || f.getKey().contains("/fresh")) {
          write(ifs, new Path("/exp", f.getKey()), f.getValue());
        }
      }
      ifs.setXAttr(new Path("/exp/fresh-big"), "user.made", "indexfs".getBytes(), EnumSet.of(XAttrSetFlag.CREATE));
      ifs.setOwner(new Path("/exp/a/fresh-inline"), "alice", "alicegroup");

      Map<String, Path> objects = new TreeMap<>();
      Map<String, List<Long>> blocks = new TreeMap<>();
      Map<String, FileChecksum> sums = new TreeMap<>();
      int inlineWithBytes = 0;
      for (Map.Entry<String, byte[]> f : files.entrySet()) {
        Path p = new Path("/exp", f.getKey());
        assertThat(read(ifs, p)).as(f.getKey()).isEqualTo(f.getValue());
        Path o = object(ifs, p);
        if (o == null) {
          inlineWithBytes += f.getValue().length > 0 ? 1 : 0;
        } else {
          objects.put(f.getKey(), o);
          blocks.put(f.getKey(), blockIds(dfs, o));
          sums.put(f.getKey(), dfs.getFileChecksum(o));
        }
      }
      assertThat(objects).containsKeys("fresh-big", "a/b/multi-block", "empty");
      assertThat(objects).doesNotContainKeys("a/fresh-inline", "fresh-dir/empty-new");
      Map<String, String> before = describe(ifs, new Path("/exp"), p -> indexPolicy(ifs, p),
          snapshottable(ifs.getSnapshottableDirListing()));
      reclaimed();
      long blocksBefore = ImportFixture.hdfs().cluster().getNamesystem().getBlocksTotal();

      Run r = export("/exp", "/exp-out");
      assertThat(r.code()).as(r.text()).isZero();
      assertThat(r.text()).contains("files moved   " + objects.size()).contains("files copied  2 (2000 bytes");

      Map<String, String> after = describe(dfs, new Path("/exp-out"), p -> hdfsPolicy(dfs, p),
          snapshottable(dfs.getSnapshottableDirListing()));
      assertThat(after).isEqualTo(before);
      assertThat(ifs.exists(new Path("/exp"))).as("the IndexFS subtree is removed").isFalse();
      reclaimed();
      assertThat(ImportFixture.hdfs().cluster().getNamesystem().getBlocksTotal()).as("no object copied")
          .isEqualTo(blocksBefore + inlineWithBytes);
      for (Map.Entry<String, Path> o : objects.entrySet()) {
        Path exported = new Path("/exp-out", o.getKey());
        assertThat(dfs.exists(o.getValue())).as("moved away: " + o.getValue()).isFalse();
        assertThat(blockIds(dfs, exported)).as(o.getKey()).isEqualTo(blocks.get(o.getKey()));
        assertThat(dfs.getFileChecksum(exported)).as(o.getKey()).isEqualTo(sums.get(o.getKey()));
      }
      // The delete's reclamation and the scrubber ran: neither touched an exported file.
      assertThat(ImportFixture.cluster().server().scrubber().runOnce(0)).isEmpty();
      for (Map.Entry<String, byte[]> f : files.entrySet()) {
        assertThat(read(dfs, new Path("/exp-out", f.getKey()))).as(f.getKey()).isEqualTo(f.getValue());
      }
    }
  }

  @Test
  void aTargetThatExistsOrAnOpenFileIsRefusedAndChangesNothing() throws Exception {
    DistributedFileSystem dfs = ImportFixture.dfs();
    try (IndexFileSystem ifs = ImportFixture.indexFs()) {
      byte[] big = ImportFixture.bytes(21, 2 << 20);
      write(ifs, new Path("/ref/big"), big);
      write(ifs, new Path("/ref/small"), ImportFixture.bytes(22, 100));
      Path object = object(ifs, new Path("/ref/big"));
      dfs.mkdirs(new Path("/ref-taken"));

      Run taken = export("/ref", "/ref-taken");
      assertThat(taken.code()).isEqualTo(1);
      assertThat(taken.text()).contains("Export target").contains("/ref-taken exists");
      assertThat(dfs.listStatus(new Path("/ref-taken"))).isEmpty();

      try (FSDataOutputStream open = ifs.create(new Path("/ref/open"))) {
        open.write(ImportFixture.bytes(23, 10));
        open.hflush();
        Run busy = export("/ref", "/ref-out");
        assertThat(busy.code()).isEqualTo(1);
        assertThat(busy.text()).contains("open for write (/ref/open)");
        assertThat(dfs.exists(new Path("/ref-out"))).isFalse();
      }
      Run root = export("/", "/root-out");
      assertThat(root.code()).isEqualTo(1);
      assertThat(root.text()).contains("Cannot export /");
      assertThat(dfs.exists(new Path("/root-out"))).isFalse();

      assertThat(dfs.exists(object)).isTrue();
      assertThat(read(ifs, new Path("/ref/big"))).isEqualTo(big);
      assertThat(read(ifs, new Path("/ref/small"))).isEqualTo(ImportFixture.bytes(22, 100));
    }
  }

  @Test
  void aFailureInTheMiddlePutsEveryMovedObjectBack() throws Exception {
    DistributedFileSystem dfs = ImportFixture.dfs();
    try (IndexFileSystem ifs = ImportFixture.indexFs()) {
      Map<String, byte[]> files = new LinkedHashMap<>();
      files.put("a/one", ImportFixture.bytes(31, 2 << 20));
      files.put("a/two", ImportFixture.bytes(32, 3 << 19));
      files.put("a/tiny", ImportFixture.bytes(33, 500));
      files.put("z/last", ImportFixture.bytes(34, 1 << 20));
      for (Map.Entry<String, byte[]> f : files.entrySet()) {
        write(ifs, new Path("/rb", f.getKey()), f.getValue());
      }
      ifs.setXAttr(new Path("/rb/a/one"), "user.k", new byte[] {7}, EnumSet.of(XAttrSetFlag.CREATE));
      Path one = object(ifs, new Path("/rb/a/one"));
      Path two = object(ifs, new Path("/rb/a/two"));
      FileStatus oneBefore = dfs.getFileStatus(one);
      Map<String, byte[]> oneXAttrs = dfs.getXAttrs(one);
      // z/last is exported after a/one and a/two (parents first, by name): its object vanishes behind IndexFS's back.
      assertThat(dfs.delete(object(ifs, new Path("/rb/z/last")), false)).isTrue();

      Run r = export("/rb", "/rb-out");
      assertThat(r.code()).as(r.text()).isEqualTo(1);
      assertThat(r.text()).contains("IndexFS is as it was (2 moved objects put back").contains("z/last is missing");
      assertThat(dfs.exists(new Path("/rb-out"))).as("the target is removed").isFalse();
      assertThat(read(dfs, one)).isEqualTo(files.get("a/one"));
      assertThat(read(dfs, two)).isEqualTo(files.get("a/two"));
      FileStatus oneAfter = dfs.getFileStatus(one);
      assertThat(oneAfter.getPermission()).isEqualTo(oneBefore.getPermission());
      assertThat(oneAfter.getOwner() + oneAfter.getGroup()).isEqualTo(oneBefore.getOwner() + oneBefore.getGroup());
      assertThat(oneAfter.getModificationTime()).isEqualTo(oneBefore.getModificationTime());
      assertThat(dfs.getXAttrs(one).keySet()).isEqualTo(oneXAttrs.keySet());
      for (String f : List.of("a/one", "a/two", "a/tiny")) {
        assertThat(read(ifs, new Path("/rb", f))).as(f).isEqualTo(files.get(f));
      }
    }
  }
}
