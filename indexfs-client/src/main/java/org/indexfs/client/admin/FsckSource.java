package org.indexfs.client.admin;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.util.Map;
import org.indexfs.proto.FsckPage;

/** Where fsck reads a cluster from: each slot's records, and the data tier's objects. */
public interface FsckSource {
  int slots() throws IOException;

  /** Slot {@code slot}'s partition records, bitmaps, leases, pending work and id mark. */
  FsckPage meta(int slot) throws IOException;

  /** The page of slot {@code slot}'s entries after {@code cursor} (empty: from the start). */
  FsckPage entries(int slot, ByteString cursor) throws IOException;

  /**
   * The page of slot {@code slot}'s listing-order records that name no entry there, scanning after
   * {@code cursor} (empty: from the start); entries whose record disagrees come with the entries.
   */
  FsckPage strayNames(int slot, ByteString cursor) throws IOException;

  /**
   * The data objects in slot {@code slot}'s directory of the data tier, name (as entries record
   * it) to length; null when the cluster keeps no data tier.
   */
  Map<String, Long> objects(int slot) throws IOException;

  /** A source reading a live cluster through {@link AdminClient}, with objects listed by {@code objects}. */
  static FsckSource of(AdminClient admin, ObjectLister objects) {
    return new FsckSource() {
      @Override
      public int slots() throws IOException {
        return admin.slotCount();
      }

      @Override
      public FsckPage meta(int slot) throws IOException {
        return admin.fsckMeta(slot);
      }

      @Override
      public FsckPage entries(int slot, ByteString cursor) throws IOException {
        return admin.fsckEntries(slot, cursor, false);
      }

      @Override
      public FsckPage strayNames(int slot, ByteString cursor) throws IOException {
        return admin.fsckNames(slot, cursor);
      }

      @Override
      public Map<String, Long> objects(int slot) throws IOException {
        return objects.list(slot);
      }
    };
  }

  /** Lists the objects of one slot's directory on the data tier. */
  @FunctionalInterface
  interface ObjectLister {
    Map<String, Long> list(int slot) throws IOException;
  }
}
