package org.indexfs.server.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;

/**
 * The name-ordered index (DESIGN §13) on real RocksDB: its key order is HDFS's order of names
 * (DFSUtilClient.compareBytes, signed bytes), pages resume after a name, and a store written
 * before the index existed gets it built when opened.
 */
class NameIndexTest {
  static final List<String> NAMES = List.of("part-00011", "part-00001", "_SUCCESS", "Zeta", "alpha", "é", "日本",
      "0", "~", "a b", "a", "aa", "\u007f", "\u0080x");

  static Inode file(long id) {
    Inode i = new Inode();
    i.type = Inode.TYPE_FILE;
    i.inodeId = id;
    i.permission = 0644;
    i.replication = 3;
    i.blockSize = 1 << 20;
    i.length = 5;
    i.inlineData = "hello".getBytes(StandardCharsets.UTF_8);
    return i;
  }

  static List<String> hdfsOrder(List<String> names) {
    List<String> sorted = new ArrayList<>(names);
    sorted.sort((a, b) -> DFSUtilClient.compareBytes(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
    return sorted;
  }

  @Test
  void keysInRocksDbOrderAreNamesInHdfsOrder() {
    List<byte[]> keys = new ArrayList<>();
    NAMES.forEach(n -> keys.add(NameIndex.key(7, n)));
    keys.sort(Arrays::compareUnsigned);
    assertEquals(hdfsOrder(NAMES), keys.stream().map(NameIndex::nameOf).toList());
  }

  @Test
  void pagesResumeAfterANameAndCarryNoInlineBytes(@TempDir Path dir) throws Exception {
    try (MetadataStore store = MetadataStore.open(dir)) {
      try (org.rocksdb.WriteBatch batch = new org.rocksdb.WriteBatch()) {
        for (int i = 0; i < NAMES.size(); i++) {
          store.nameIndex().put(batch, 7, NAMES.get(i), file(100 + i));
        }
        store.nameIndex().put(batch, 8, "other-directory", file(1));
        store.write(batch);
      }
      List<String> listed = new ArrayList<>();
      byte[] after = new byte[0];
      boolean more = true;
      while (more) {
        NameIndex.Page page = store.nameIndex().page(7, after, 4);
        page.entries().forEach(e -> listed.add(e.name()));
        assertTrue(page.entries().stream().allMatch(e -> e.inode().inlineData == null && e.inode().length == 5));
        more = page.hasMore();
        after = page.entries().get(page.entries().size() - 1).name().getBytes(StandardCharsets.UTF_8);
      }
      assertEquals(hdfsOrder(NAMES), listed);
    }
  }

  @Test
  void aStoreMadeBeforeTheIndexGetsItBuiltWhenOpened(@TempDir Path dir) throws Exception {
    // The layout of earlier versions: no "names" column family at all.
    List<ColumnFamilyDescriptor> old = List.of(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY),
        new ColumnFamilyDescriptor("entries".getBytes(StandardCharsets.UTF_8)),
        new ColumnFamilyDescriptor("principals".getBytes(StandardCharsets.UTF_8)),
        new ColumnFamilyDescriptor("meta".getBytes(StandardCharsets.UTF_8)));
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try (DBOptions options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
        RocksDB db = RocksDB.open(options, dir.toString(), old, handles)) {
      db.put(handles.get(1), new EntryKey(0, 0, "").encode(), file(1).encode()); // the root: nobody's child
      for (int i = 0; i < NAMES.size(); i++) {
        db.put(handles.get(1), EntryKey.of(7, NAMES.get(i)).encode(), file(100 + i).encode());
      }
      handles.forEach(ColumnFamilyHandle::close);
    }
    try (MetadataStore store = MetadataStore.open(dir)) {
      NameIndex.Page page = store.nameIndex().page(7, new byte[0], 100);
      assertFalse(page.hasMore());
      assertEquals(hdfsOrder(NAMES), page.entries().stream().map(NameIndex.Named::name).toList());
      assertTrue(store.nameIndex().page(0, new byte[0], 10).entries().isEmpty(), "the root is listed by nobody");
    }
    try (MetadataStore again = MetadataStore.open(dir)) {
      assertEquals(NAMES.size(), again.nameIndex().page(7, new byte[0], 100).entries().size(), "built once, kept");
    }
  }
}
