package org.indexfs.server.policy;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.indexfs.common.schema.Bytes;
import org.indexfs.proto.DefinedPolicy;
import org.indexfs.server.store.MetadataStore;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * Where policies were set, for {@code admin -listPolicies}: {@code policy/<dirId>} in the meta column
 * family of the slot holding the directory's entry, written in the same batch as the entry's flags.
 * The policy itself lives in the entry (that is what every call reads); these records only say where
 * to look, so a listing need not scan every entry. They name the path at the time it was set; the
 * lister checks each against the entry (a directory renamed or deleted since is left out).
 */
public final class PolicyRecords {
  private static final byte[] PREFIX = "policy/".getBytes(StandardCharsets.UTF_8);

  private PolicyRecords() {}

  private static byte[] key(long dirId) {
    return Bytes.concat(PREFIX, ByteBuffer.allocate(8).putLong(dirId).array());
  }

  public static void put(MetadataStore store, WriteBatch batch, DefinedPolicy defined) throws IOException {
    try {
      batch.put(store.meta(), key(defined.getDirId()), defined.toByteArray());
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  public static void remove(MetadataStore store, WriteBatch batch, long dirId) throws IOException {
    try {
      batch.delete(store.meta(), key(dirId));
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  /** Every record on this slot. */
  public static List<DefinedPolicy> all(MetadataStore store) throws IOException {
    List<DefinedPolicy> out = new ArrayList<>();
    try (RocksIterator it = store.iterator(store.meta(), null)) {
      for (it.seek(PREFIX); it.isValid() && Bytes.startsWith(it.key(), PREFIX); it.next()) {
        try {
          out.add(DefinedPolicy.parseFrom(it.value()));
        } catch (InvalidProtocolBufferException e) {
          throw new IOException("Corrupt policy record: " + e.getMessage(), e);
        }
      }
    }
    return out;
  }
}
