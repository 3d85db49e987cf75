package org.indexfs.server.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.EnvOptions;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.SstFileWriter;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;
import org.rocksdb.Statistics;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * One server's RocksDB and its column families (DESIGN §3):
 * <ul>
 *   <li>{@code entries}: directory entries, {@code parentId | nameHash | name → Inode};</li>
 *   <li>{@code principals}: interned owner/group names, so entry values stay fixed-width;</li>
 *   <li>{@code meta}: counters and durable work records (pending reclamation);</li>
 *   <li>{@code names}: the same entries in HDFS's listing order, {@link NameIndex} (DESIGN §13).</li>
 * </ul>
 * Owns every native handle it opens and closes them in reverse order.
 */
public final class MetadataStore implements AutoCloseable {
  static {
    RocksDB.loadLibrary();
  }

  private final DBOptions dbOptions;
  private final Statistics statistics;
  private final ColumnFamilyOptions entryOptions;
  private final ColumnFamilyOptions plainOptions;
  private final List<ColumnFamilyHandle> handles = new ArrayList<>();
  private final RocksDB db;
  private final WriteOptions writeOptions;
  private final ColumnFamilyHandle entries;
  private final ColumnFamilyHandle principals;
  private final ColumnFamilyHandle meta;
  private final ColumnFamilyHandle names;
  private final NameIndex nameIndex;

  private MetadataStore(Path dir, int blobMinBytes) throws IOException {
    Files.createDirectories(dir);
    // RocksDB's own counters (compactions, stalls, block cache), read by the server's metrics.
    statistics = new Statistics();
    dbOptions = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)
        .setMaxBackgroundJobs(2).setStatistics(statistics);
    BlockBasedTableConfig table = new BlockBasedTableConfig()
        .setFilterPolicy(new BloomFilter(10, false))
        .setWholeKeyFiltering(true);
    entryOptions = new ColumnFamilyOptions().setTableFormatConfig(table)
        .setWriteBufferSize(32L << 20);
    if (blobMinBytes > 0) {
      // Integrated BlobDB: large values (inline file bytes) live in blob files; compactions move keys
      // and small attribute records only (IndexFS §II-C, column-style storage).
      entryOptions.setEnableBlobFiles(true).setMinBlobSize(blobMinBytes).setEnableBlobGarbageCollection(true);
    }
    plainOptions = new ColumnFamilyOptions();
    List<ColumnFamilyDescriptor> descriptors = List.of(
        new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, plainOptions),
        new ColumnFamilyDescriptor(bytes("entries"), entryOptions),
        new ColumnFamilyDescriptor(bytes("principals"), plainOptions),
        new ColumnFamilyDescriptor(bytes("meta"), plainOptions),
        new ColumnFamilyDescriptor(bytes("names"), plainOptions));
    try {
      db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
    } catch (RocksDBException e) {
      closeOptions();
      throw new IOException("Cannot open metadata store at " + dir + ": " + e.getMessage(), e);
    }
    entries = handles.get(1);
    principals = handles.get(2);
    meta = handles.get(3);
    names = handles.get(4);
    nameIndex = new NameIndex(this);
    // The WAL is written on every mutation; fsync is GroupCommit's job, shared by concurrent writers.
    writeOptions = new WriteOptions().setSync(false);
  }

  public static MetadataStore open(Path dir) throws IOException {
    return open(dir, 0);
  }

  /** With {@code blobMinBytes > 0}, entry values of that size or more go to blob files. */
  public static MetadataStore open(Path dir, int blobMinBytes) throws IOException {
    MetadataStore store = new MetadataStore(dir, blobMinBytes);
    try {
      store.nameIndex.ensureBuilt();
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
    return store;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  public ColumnFamilyHandle entries() {
    return entries;
  }

  public ColumnFamilyHandle principals() {
    return principals;
  }

  public ColumnFamilyHandle meta() {
    return meta;
  }

  public ColumnFamilyHandle names() {
    return names;
  }

  /** The entries in listing order (DESIGN §13). */
  public NameIndex nameIndex() {
    return nameIndex;
  }

  /**
   * Writes the entries in {@code [from, to)} as seen by {@code snapshot} into an SST file (GIGA+
   * split migration, DESIGN §4); returns how many it wrote (0: no file).
   */
  public long exportRange(Snapshot snapshot, byte[] from, byte[] to, java.nio.file.Path file) throws IOException {
    long n = 0;
    try (ReadOptions read = new ReadOptions().setSnapshot(snapshot);
        RocksIterator it = db.newIterator(entries, read);
        EnvOptions env = new EnvOptions();
        Options options = new Options();
        SstFileWriter writer = new SstFileWriter(env, options)) {
      for (it.seek(from); it.isValid() && java.util.Arrays.compareUnsigned(it.key(), to) < 0; it.next()) {
        if (n == 0) {
          writer.open(file.toString());
        }
        writer.put(it.key(), it.value());
        n++;
      }
      if (n > 0) {
        writer.finish();
      }
    } catch (RocksDBException e) {
      throw new IOException("Cannot write split file " + file + ": " + e.getMessage(), e);
    }
    return n;
  }

  /** Ingests an SST file written by {@link #exportRange} (or {@link NameIndex#exportMoving}) into {@code cf}. */
  public void ingest(ColumnFamilyHandle cf, java.nio.file.Path file) throws IOException {
    ingest(cf, file, true);
  }

  /** As {@link #ingest(ColumnFamilyHandle, java.nio.file.Path)}; {@code move} false copies, so the file stays (to ingest again in recovery). */
  public void ingest(ColumnFamilyHandle cf, java.nio.file.Path file, boolean move) throws IOException {
    try (IngestExternalFileOptions options = new IngestExternalFileOptions().setMoveFiles(move)) {
      db.ingestExternalFile(cf, List.of(file.toString()), options);
    } catch (RocksDBException e) {
      throw new IOException("Cannot ingest split file " + file + ": " + e.getMessage(), e);
    }
  }

  public byte[] get(ColumnFamilyHandle cf, byte[] key) throws IOException {
    try {
      return db.get(cf, key);
    } catch (RocksDBException e) {
      throw new IOException("RocksDB get failed: " + e.getMessage(), e);
    }
  }

  public void write(WriteBatch batch) throws IOException {
    try {
      db.write(writeOptions, batch);
    } catch (RocksDBException e) {
      throw new IOException("RocksDB write failed: " + e.getMessage(), e);
    }
  }

  /** Writes and fsyncs at once: for rare bookkeeping records that must never be lost. */
  public void writeDurably(WriteBatch batch) throws IOException {
    try (WriteOptions sync = new WriteOptions().setSync(true)) {
      db.write(sync, batch);
    } catch (RocksDBException e) {
      throw new IOException("RocksDB write failed: " + e.getMessage(), e);
    }
  }

  /** Fsyncs the WAL: every write issued before this call is durable when it returns. */
  public void syncWal() throws IOException {
    try {
      db.syncWal();
    } catch (RocksDBException e) {
      throw new IOException("WAL sync failed: " + e.getMessage(), e);
    }
  }

  /** An iterator the caller must close; {@code readOptions} may be null. */
  public RocksIterator iterator(ColumnFamilyHandle cf, ReadOptions readOptions) {
    return readOptions == null ? db.newIterator(cf) : db.newIterator(cf, readOptions);
  }

  /** A consistent point-in-time view of every column family; release it with {@link #releaseSnapshot}. */
  public Snapshot snapshot() {
    return db.getSnapshot();
  }

  public void releaseSnapshot(Snapshot snapshot) {
    db.releaseSnapshot(snapshot);
  }

  public long estimatedEntries() {
    try {
      return db.getLongProperty(entries, "rocksdb.estimate-num-keys");
    } catch (RocksDBException e) {
      return -1;
    }
  }

  /** RocksDB's statistics of this store (tickers and histograms since open). */
  public Statistics statistics() {
    return statistics;
  }

  /** An integer DB property summed over the column families ({@code rocksdb.num-running-compactions}); -1 if unknown. */
  public long property(String name) {
    try {
      return db.getAggregatedLongProperty(name);
    } catch (RocksDBException perColumnFamilyOnly) {
      try {
        return db.getLongProperty(name);
      } catch (RocksDBException e) {
        return -1;
      }
    }
  }

  private void closeOptions() {
    plainOptions.close();
    entryOptions.close();
    dbOptions.close();
    statistics.close();
  }

  @Override
  public void close() {
    writeOptions.close();
    for (ColumnFamilyHandle h : handles) {
      h.close();
    }
    db.close();
    closeOptions();
  }
}
