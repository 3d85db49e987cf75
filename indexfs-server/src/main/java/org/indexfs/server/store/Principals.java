package org.indexfs.server.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.RocksDBException;

/**
 * Interns user and group names as 32-bit ids so that owner and group are fixed-width fields of
 * an entry (LocoFS). Names and ids are both persisted: {@code n<name> → id}, {@code i<id> → name}.
 * The table is small (one row per distinct principal) and cached whole in memory.
 */
public final class Principals {
  private final MetadataStore store;
  private final Map<String, Integer> ids = new ConcurrentHashMap<>();
  private final Map<Integer, String> names = new ConcurrentHashMap<>();
  /**
   * The same names by id, for {@link #nameOf}: a listing asks twice per entry, and ids are small
   * and dense (allocated from 1). Replaced whole, under the lock, when a principal is added.
   */
  private volatile String[] byId = new String[0];
  private int nextId = 1;

  public Principals(MetadataStore store) {
    this.store = store;
    try (RocksIterator it = store.iterator(store.principals(), null)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        byte[] k = it.key();
        if (k[0] == 'n') {
          String name = new String(k, 1, k.length - 1, StandardCharsets.UTF_8);
          int id = ByteBuffer.wrap(it.value()).getInt();
          ids.put(name, id);
          names.put(id, name);
          nextId = Math.max(nextId, id + 1);
        }
      }
    }
    index();
  }

  /** Rebuilds {@link #byId} from {@link #names} (at start, and under the lock after an addition). */
  private void index() {
    int max = 0;
    for (int id : names.keySet()) {
      max = Math.max(max, id);
    }
    String[] table = new String[max + 1];
    names.forEach((id, name) -> {
      if (id >= 0) {
        table[id] = name;
      }
    });
    byId = table;
  }

  /** The id of {@code name}, allocating and durably recording a new one on first use. */
  public int idOf(String name) throws IOException {
    Integer id = ids.get(name);
    if (id != null) {
      return id;
    }
    synchronized (this) {
      id = ids.get(name);
      if (id != null) {
        return id;
      }
      int fresh = nextId++;
      byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
      byte[] nameKey = ByteBuffer.allocate(1 + nameBytes.length).put((byte) 'n').put(nameBytes).array();
      byte[] idKey = ByteBuffer.allocate(5).put((byte) 'i').putInt(fresh).array();
      try (WriteBatch batch = new WriteBatch()) {
        batch.put(store.principals(), nameKey, ByteBuffer.allocate(4).putInt(fresh).array());
        batch.put(store.principals(), idKey, nameBytes);
        store.writeDurably(batch);
      } catch (RocksDBException e) {
        throw new IOException("Cannot record principal " + name, e);
      }
      names.put(fresh, name);
      index();
      ids.put(name, fresh);
      return fresh;
    }
  }

  /** Every id and its name (a split ships it beside entries: see PrincipalTranslation). */
  public Map<Integer, String> table() {
    return Map.copyOf(names);
  }

  /** Whether {@code name} has an id here (never allocates one). */
  public boolean knows(String name) {
    return ids.containsKey(name);
  }

  public String nameOf(int id) {
    String[] table = byId;
    String name = id >= 0 && id < table.length ? table[id] : names.get(id);
    if (name == null) {
      throw new IllegalStateException("Unknown principal id " + id);
    }
    return name;
  }
}
