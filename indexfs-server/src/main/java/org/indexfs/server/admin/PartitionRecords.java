package org.indexfs.server.admin;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.TreeMap;
import org.indexfs.common.schema.Bytes;
import org.indexfs.server.ns.Namespace;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksIterator;

/** A slot's partition records and GIGA+ bitmaps, read raw by directory id, for fsck and balance. */
record PartitionRecords(Map<Long, byte[]> records, Map<Long, byte[]> bitmaps) {
  static PartitionRecords read(Namespace ns, ReadOptions read) {
    return new PartitionRecords(scan(ns, read, Namespace.partitionRecordPrefix()),
        scan(ns, read, Namespace.bitmapPrefix()));
  }

  private static Map<Long, byte[]> scan(Namespace ns, ReadOptions read, byte[] prefix) {
    Map<Long, byte[]> out = new TreeMap<>(Long::compareUnsigned);
    try (RocksIterator it = ns.store().iterator(ns.store().meta(), read)) {
      for (it.seek(prefix); it.isValid() && Bytes.startsWith(it.key(), prefix); it.next()) {
        if (it.key().length == prefix.length + 8) {
          out.put(ByteBuffer.wrap(it.key(), prefix.length, 8).getLong(), it.value());
        }
      }
    }
    return out;
  }
}
