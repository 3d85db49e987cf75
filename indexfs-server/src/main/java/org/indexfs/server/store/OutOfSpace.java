package org.indexfs.server.store;

import java.util.Locale;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/** Recognises RocksDB's out-of-space failures (ENOSPC, or its SstFileManager's space limit). */
final class OutOfSpace {
  private OutOfSpace() {}

  static boolean is(RocksDBException e) {
    Status s = e.getStatus();
    if (s != null && (s.getSubCode() == Status.SubCode.NoSpace)) {
      return true;
    }
    // While RocksDB holds a background error it answers every write with that error's text.
    String m = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
    return m.contains("no space left on device") || m.contains("max allowed space");
  }
}
