package org.indexfs.server.split;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Map;
import org.indexfs.common.schema.Inode;
import org.indexfs.server.store.Principals;
import org.rocksdb.EnvOptions;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileReader;
import org.rocksdb.SstFileReaderIterator;
import org.rocksdb.SstFileWriter;

/**
 * Owner and group ids are interned per slot ({@link Principals}), so one user may have another id
 * on the slot a split ships entries to. The sender names every id it has; the receiver rewrites
 * the values of a shipped file with its own ids before ingesting it. When every id means the same
 * on both slots (the usual case: slots intern the few users they see in the same order) the file
 * is ingested as it came.
 */
public final class PrincipalTranslation {
  /** Sender id → receiver id, only for the ids that differ. */
  private final Map<Integer, Integer> changed;

  private PrincipalTranslation(Map<Integer, Integer> changed) {
    this.changed = changed;
  }

  /** The receiver's ids for the sender's table {@code senderNames} (id → name). */
  public static PrincipalTranslation of(Map<Integer, String> senderNames, Principals receiver) throws IOException {
    Map<Integer, Integer> changed = new HashMap<>();
    for (Map.Entry<Integer, String> e : senderNames.entrySet()) {
      int mine = receiver.idOf(e.getValue());
      if (mine != e.getKey()) {
        changed.put(e.getKey(), mine);
      }
    }
    return new PrincipalTranslation(changed);
  }

  public boolean isIdentity() {
    return changed.isEmpty();
  }

  /** The id on this slot for the sender's {@code id}. */
  public int map(int id) {
    return changed.getOrDefault(id, id);
  }

  /** Rewrites {@code file} (an SST whose values are encoded inodes) with this slot's ids, in place. */
  public void rewrite(Path file) throws IOException {
    if (isIdentity()) {
      return;
    }
    Path out = file.resolveSibling(file.getFileName() + ".translated");
    try (Options options = new Options();
        EnvOptions env = new EnvOptions();
        ReadOptions read = new ReadOptions();
        SstFileReader reader = new SstFileReader(options);
        SstFileWriter writer = new SstFileWriter(env, options)) {
      reader.open(file.toString());
      writer.open(out.toString());
      try (SstFileReaderIterator it = reader.newIterator(read)) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          Inode inode = Inode.decode(it.value());
          inode.ownerId = map(inode.ownerId);
          inode.groupId = map(inode.groupId);
          writer.put(it.key(), inode.encode());
        }
      }
      writer.finish();
    } catch (RocksDBException e) {
      throw new IOException("Cannot translate the owners of split file " + file + ": " + e.getMessage(), e);
    }
    Files.move(out, file, StandardCopyOption.REPLACE_EXISTING);
  }
}
