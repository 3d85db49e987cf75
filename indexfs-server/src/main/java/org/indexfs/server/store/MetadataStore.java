package org.indexfs.server.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.Env;
import org.rocksdb.EnvOptions;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.SstFileWriter;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;
import org.rocksdb.SstFileManager;
import org.rocksdb.Statistics;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * One server's RocksDB and its column families (DESIGN §3):
 * <ul>
 *   <li>{@code entries}: directory entries, {@code parentId | nameHash | name → Inode};</li>
 *   <li>{@code principals}: interned owner/group names, so entry values stay fixed-width;</li>
 *   <li>{@code meta}: counters and durable work records (pending reclamation);</li>
 *   <li>{@code attrs}: extended attributes and ACLs, {@code inodeId | kind | name → value}, beside
 *       the entries they belong to (only entries flagged as having some have rows here);</li>
 *   <li>{@code usage}: what this slot's changes added to each quota'd directory's usage, as 64-bit
 *       counters RocksDB adds up itself ({@code uint64add} merges), so concurrent writers under one
 *       directory never read-modify-write.</li>
 *   <li>{@code calls}: the retry cache's record of recent non-idempotent calls (DESIGN §11).</li>
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
  private final SstFileManager sstFiles;
  private final Path dir;
  private final ColumnFamilyOptions entryOptions;
  private final ColumnFamilyOptions plainOptions;
  private final ColumnFamilyOptions callOptions;
  /** Share of a memtable's size given to its Bloom filter of whole keys. */
  private static final double MEMTABLE_BLOOM_RATIO = 0.02;
  private final List<ColumnFamilyHandle> handles = new ArrayList<>();
  private final RocksDB db;
  private final WriteOptions writeOptions;
  private final ColumnFamilyHandle entries;
  private final ColumnFamilyHandle principals;
  private final ColumnFamilyHandle meta;
  private final ColumnFamilyHandle attrs;
  private final ColumnFamilyHandle usage;
  private final ColumnFamilyOptions counterOptions;
  private final ColumnFamilyHandle calls;
  /** Where this store's committed changes are replicated (null: nowhere, or a standby replaying). */
  private volatile ChangeLog log;
  /** Held while a change is written and appended to the log, so both see the same order. */
  private final Object commitOrder = new Object();
  private static final byte[] POSITION_KEY = "log.position".getBytes(java.nio.charset.StandardCharsets.UTF_8);
  private final ColumnFamilyHandle names;
  private final NameIndex nameIndex;

  private MetadataStore(Path dir, int blobMinBytes) throws IOException {
    Files.createDirectories(dir);
    this.dir = dir;
    // RocksDB's own counters (compactions, stalls, block cache), read by the server's metrics.
    statistics = new Statistics();
    // With an SstFileManager RocksDB recovers by itself from an out-of-space error once space is
    // back (it polls the free space and resumes writing: the DB::Resume the Java API lacks).
    try {
      sstFiles = new SstFileManager(Env.getDefault());
    } catch (RocksDBException e) {
      statistics.close();
      throw new IOException("Cannot create RocksDB's SST file manager: " + e.getMessage(), e);
    }
    dbOptions = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)
        .setMaxBackgroundJobs(2).setStatistics(statistics).setSstFileManager(sstFiles);
    BlockBasedTableConfig table = new BlockBasedTableConfig()
        .setFilterPolicy(new BloomFilter(10, false))
        .setWholeKeyFiltering(true);
    // Most gets on the hot path miss (a create's name check, the retry cache's look for a call it
    // never saw): a Bloom filter over the memtable's keys answers those without walking its skip list.
    entryOptions = new ColumnFamilyOptions().setTableFormatConfig(table)
        .setWriteBufferSize(32L << 20)
        .setMemtablePrefixBloomSizeRatio(MEMTABLE_BLOOM_RATIO).setMemtableWholeKeyFiltering(true);
    if (blobMinBytes > 0) {
      // Integrated BlobDB: large values (inline file bytes) live in blob files; compactions move keys
      // and small attribute records only (IndexFS §II-C, column-style storage).
      entryOptions.setEnableBlobFiles(true).setMinBlobSize(blobMinBytes).setEnableBlobGarbageCollection(true);
    }
    plainOptions = new ColumnFamilyOptions();
    // Every at-most-once call looks its id up here first, and almost every look misses: Bloom filters
    // in the memtable and in the SST files (10 minutes of records reach the files) keep misses cheap.
    callOptions = new ColumnFamilyOptions().setTableFormatConfig(table)
        .setMemtablePrefixBloomSizeRatio(MEMTABLE_BLOOM_RATIO).setMemtableWholeKeyFiltering(true);
    counterOptions = new ColumnFamilyOptions().setMergeOperatorName("uint64add");
    List<ColumnFamilyDescriptor> descriptors = List.of(
        new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, plainOptions),
        new ColumnFamilyDescriptor(bytes("entries"), entryOptions),
        new ColumnFamilyDescriptor(bytes("principals"), plainOptions),
        new ColumnFamilyDescriptor(bytes("meta"), plainOptions),
        new ColumnFamilyDescriptor(bytes("calls"), callOptions),
        new ColumnFamilyDescriptor(bytes("names"), plainOptions),
        new ColumnFamilyDescriptor(bytes("attrs"), plainOptions),
        new ColumnFamilyDescriptor(bytes("usage"), counterOptions));
    try {
      db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
    } catch (RocksDBException e) {
      closeOptions();
      throw new IOException("Cannot open metadata store at " + dir + ": " + e.getMessage(), e);
    }
    entries = handles.get(1);
    principals = handles.get(2);
    meta = handles.get(3);
    calls = handles.get(4);
    names = handles.get(5);
    nameIndex = new NameIndex(this);
    attrs = handles.get(6);
    usage = handles.get(7);
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

  public ColumnFamilyHandle attrs() {
    return attrs;
  }

  /** Counters merged with {@code uint64add}: 8-byte little-endian values, added (two's complement) on merge. */
  public ColumnFamilyHandle usage() {
    return usage;
  }

  public ColumnFamilyHandle calls() {
    return calls;
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

  /**
   * Writes {@code rows} (key → value, in ascending unsigned key order) into an SST file for
   * {@link #ingest}: the attribute rows that travel with a split's entries.
   */
  public void exportRows(java.util.SortedMap<byte[], byte[]> rows, java.nio.file.Path file) throws IOException {
    try (EnvOptions env = new EnvOptions(); Options options = new Options();
        SstFileWriter writer = new SstFileWriter(env, options)) {
      writer.open(file.toString());
      for (java.util.Map.Entry<byte[], byte[]> row : rows.entrySet()) {
        writer.put(row.getKey(), row.getValue());
      }
      writer.finish();
    } catch (RocksDBException e) {
      throw new IOException("Cannot write split file " + file + ": " + e.getMessage(), e);
    }
  }

  /** Ingests an SST file written by {@link #exportRange} into the entries (the receiver's commit point). */
  public void ingest(java.nio.file.Path file) throws IOException {
    ingest(entries, file);
  }

  /**
   * Ingests an SST file written by {@link #exportRange} (or {@link NameIndex#exportMoving}) into
   * {@code cf} (the receiver's commit point). With a change log the file is first shipped where
   * replicas find it, and the ingest is logged by reference, in commit order.
   */
  public void ingest(ColumnFamilyHandle cf, java.nio.file.Path file) throws IOException {
    ingest(cf, file, true);
  }

  /**
   * As {@link #ingest(ColumnFamilyHandle, java.nio.file.Path)}; {@code move} false copies, so the
   * file stays (a bulk publish's recovery ingests it again).
   */
  public void ingest(ColumnFamilyHandle cf, java.nio.file.Path file, boolean move) throws IOException {
    ingest(cf, ship(file), move);
  }

  /** A file made ready for {@link #ingest(ColumnFamilyHandle, Shipped, boolean)}: {@code name} is its copy in the change log (null: none). */
  public record Shipped(java.nio.file.Path file, String name) {}

  /**
   * The slow half of an ingest, done ahead of it: with a change log, the copy of {@code file} where
   * replicas find it (an upload to the journal). A caller that must hold others off during the
   * ingest itself ships first, outside its hold.
   */
  public Shipped ship(java.nio.file.Path file) throws IOException {
    ChangeLog l = log;
    return new Shipped(file, l == null ? null : l.ship(file));
  }

  /** Ingests a file {@link #ship shipped} before (shipping it now if a change log appeared since). */
  public void ingest(ColumnFamilyHandle cf, Shipped file, boolean move) throws IOException {
    ChangeLog l = log;
    if (l == null) {
      ingestFile(cf, file.file(), move);
      return;
    }
    String shipped = file.name() != null ? file.name() : l.ship(file.file());
    synchronized (commitOrder) {
      LogPosition at = l.next();
      ingestFile(cf, file.file(), move);
      recordPosition(at);
      l.appendIngest(at, shipped, cf == names ? "names" : cf == attrs ? "attrs" : "entries");
    }
  }

  private void ingestFile(ColumnFamilyHandle cf, java.nio.file.Path file, boolean move) throws IOException {
    try (IngestExternalFileOptions options = new IngestExternalFileOptions().setMoveFiles(move)) {
      db.ingestExternalFile(cf, List.of(file.toString()), options);
    } catch (RocksDBException e) {
      throw failure("Cannot ingest split file " + file, e);
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
    commit(writeOptions, batch);
  }

  /** Writes and fsyncs at once (and makes it durable in the change log): for rare bookkeeping records that must never be lost. */
  public void writeDurably(WriteBatch batch) throws IOException {
    ChangeLog l = log;
    if (l != null) {
      commit(writeOptions, batch);
      l.sync();
      return;
    }
    try (WriteOptions sync = new WriteOptions().setSync(true)) {
      commit(sync, batch);
    }
  }

  /**
   * Applies {@code batch}; with a change log, under the commit lock, with its position recorded in
   * the batch itself and its bytes appended to the log in the same order (DESIGN §11).
   */
  private void commit(WriteOptions options, WriteBatch batch) throws IOException {
    ChangeLog l = log;
    if (l == null) {
      apply(options, batch);
      return;
    }
    synchronized (commitOrder) {
      LogPosition at = l.next();
      byte[] bytes;
      try {
        batch.put(meta, POSITION_KEY, at.encode());
        apply(options, batch);
        bytes = batch.data();
      } catch (RocksDBException e) {
        throw new IOException("Cannot record the position of a change: " + e.getMessage(), e);
      }
      l.append(at, bytes);
    }
  }

  private void apply(WriteOptions options, WriteBatch batch) throws IOException {
    try {
      db.write(options, batch);
    } catch (RocksDBException e) {
      throw failure("RocksDB write failed", e);
    }
  }

  /**
   * Makes every write issued before this call durable: the WAL fsync, or with a change log the log's
   * sync alone — the log is then the durable record (IndexFS §II-E: state pushed into the underlying
   * file system), and a store that lost its unsynced WAL tail in a crash catches up from it.
   */
  public void syncWal() throws IOException {
    ChangeLog l = log;
    if (l != null) {
      l.sync();
      return;
    }
    try {
      db.syncWal();
    } catch (RocksDBException e) {
      throw failure("WAL sync failed", e);
    }
  }

  /** From now on every change is also appended to {@code changeLog} (null: to none). */
  public void replicateTo(ChangeLog changeLog) {
    synchronized (commitOrder) {
      this.log = changeLog;
    }
  }

  /** The position in the replicated history of the last change this store holds. */
  public LogPosition position() throws IOException {
    byte[] v = get(meta, POSITION_KEY);
    return v == null ? LogPosition.NONE : LogPosition.decode(v);
  }

  /** A standby applies a replicated batch (its bytes carry their own position). */
  public void applyReplicated(byte[] batchBytes) throws IOException {
    try (WriteBatch batch = new WriteBatch(batchBytes)) {
      apply(writeOptions, batch);
    }
  }

  /** A standby applies a replicated ingest: the file (a local copy, moved in) and then its position. */
  public void applyReplicatedIngest(String columnFamily, java.nio.file.Path file, LogPosition at) throws IOException {
    ingestFile(columnFamily.equals("names") ? names : columnFamily.equals("attrs") ? attrs : entries, file, true);
    recordPosition(at);
  }

  private void recordPosition(LogPosition at) throws IOException {
    try (WriteBatch b = new WriteBatch()) {
      b.put(meta, POSITION_KEY, at.encode());
      apply(writeOptions, b);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  /**
   * A consistent copy of this store in {@code target} (RocksDB's Checkpoint: hard links where it
   * can), taken between two changes; returns the position it holds.
   */
  public LogPosition checkpoint(java.nio.file.Path target) throws IOException {
    synchronized (commitOrder) {
      try (org.rocksdb.Checkpoint c = org.rocksdb.Checkpoint.create(db)) {
        c.createCheckpoint(target.toString());
      } catch (RocksDBException e) {
        throw failure("Cannot checkpoint the store", e);
      }
      return position();
    }
  }

  /**
   * A failed write as the caller should see it: out of disk space is the NO_SPACE code (RocksDB
   * refuses every write until its SstFileManager sees space again and resumes), anything else an
   * internal error.
   */
  private IOException failure(String what, RocksDBException e) {
    if (OutOfSpace.is(e)) {
      return new IndexFsException(Code.NO_SPACE, "The metadata store at " + dir + " is out of disk space ("
          + e.getMessage() + "); writes resume by themselves once space is freed");
    }
    return new IOException(what + ": " + e.getMessage(), e);
  }

  /** The directory holding this store (its file system's free space is what writes need). */
  public Path directory() {
    return dir;
  }

  /** Writes every memtable to SST files (what a checkpoint or a shutdown would do). */
  public void flush() throws IOException {
    try (org.rocksdb.FlushOptions options = new org.rocksdb.FlushOptions().setWaitForFlush(true)) {
      db.flush(options, handles);
    } catch (RocksDBException e) {
      throw failure("RocksDB flush failed", e);
    }
  }

  /** An iterator the caller must close; {@code readOptions} may be null. */
  public RocksIterator iterator(ColumnFamilyHandle cf, ReadOptions readOptions) {
    return readOptions == null ? db.newIterator(cf) : db.newIterator(cf, readOptions);
  }

  /** The keys of {@code cf} that start with {@code prefix}, RocksDB stopping at the prefix's end ({@link PrefixIterator}). */
  public PrefixIterator prefixIterator(ColumnFamilyHandle cf, byte[] prefix) {
    return new PrefixIterator(db, cf, prefix);
  }

  /** As {@link #prefixIterator(ColumnFamilyHandle, byte[])}, over the store as it was at {@code at}. */
  public PrefixIterator prefixIterator(ColumnFamilyHandle cf, byte[] prefix, Snapshot at) {
    return new PrefixIterator(db, cf, prefix, at);
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
    counterOptions.close();
    callOptions.close();
    plainOptions.close();
    entryOptions.close();
    dbOptions.close();
    sstFiles.close();
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
