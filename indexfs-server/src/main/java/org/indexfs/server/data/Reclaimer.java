package org.indexfs.server.data;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.indexfs.common.schema.Bytes;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.placement.HomeSync;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reclaims what deletes and overwrites leave behind, in the background and from durable records
 * written in the same batch as the unlink (DESIGN §7): the entries of a detached subtree
 * ({@code reclaim.dir/<id>}) and data objects on the underlying FS ({@code reclaim.obj/<name>}).
 * A restart resumes from the records, so nothing leaks and nothing is reclaimed twice.
 */
public final class Reclaimer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Reclaimer.class);
  private static final byte[] DIR_PREFIX = "reclaim.dir/".getBytes(StandardCharsets.UTF_8);
  private static final byte[] OBJ_PREFIX = "reclaim.obj/".getBytes(StandardCharsets.UTF_8);
  private static final int BATCH = 1000;

  private final Namespace ns;
  private final DataTier data;
  private final Thread thread;
  private volatile boolean running = true;
  private volatile HomeSync homes;
  private long objectsReclaimed;
  private long entriesReclaimed;
  private volatile java.util.function.BooleanSupplier paused = () -> false;

  public Reclaimer(Namespace ns, DataTier data) {
    this.ns = ns;
    this.data = data;
    this.thread = new Thread(this::run, "indexfs-reclaimer-" + ns.slot());
    thread.setDaemon(true);
  }

  /** While {@code condition} holds (safe mode), start no background change. */
  public void pauseWhile(java.util.function.BooleanSupplier condition) {
    this.paused = condition;
  }

  public void start() {
    thread.start();
  }

  /** Records, in the caller's batch, that {@code objectName} must be removed from the data FS. */
  public void reclaimObject(WriteBatch batch, String objectName) throws IOException {
    put(batch, Bytes.concat(OBJ_PREFIX, objectName.getBytes(StandardCharsets.UTF_8)));
  }

  /** Records, in the caller's batch, that everything below directory {@code dirId} is garbage. */
  public void reclaimSubtree(WriteBatch batch, long dirId) throws IOException {
    put(batch, Bytes.concat(DIR_PREFIX, ByteBuffer.allocate(8).putLong(dirId).array()));
  }

  private void put(WriteBatch batch, byte[] key) throws IOException {
    try {
      batch.put(ns.store().meta(), key, new byte[0]);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  private void delete(WriteBatch batch, byte[] record) throws IOException {
    try {
      batch.delete(ns.store().meta(), record);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  public synchronized void wake() {
    notifyAll();
  }

  /** Runs one full pass; true when no work remained. Visible for tests. */
  public boolean runOnce() throws IOException {
    boolean idle = true;
    for (byte[] record : records(DIR_PREFIX)) {
      idle = false;
      reclaimDirectory(record, ByteBuffer.wrap(record, DIR_PREFIX.length, 8).getLong());
    }
    for (byte[] record : records(OBJ_PREFIX)) {
      idle = false;
      String name = new String(record, OBJ_PREFIX.length, record.length - OBJ_PREFIX.length, StandardCharsets.UTF_8);
      deleteObject(name);
      ns.mutate(batch -> {
        delete(batch, record);
        return null;
      });
      objectsReclaimed++;
    }
    return idle;
  }

  private List<byte[]> records(byte[] prefix) {
    List<byte[]> out = new ArrayList<>();
    try (RocksIterator it = ns.store().iterator(ns.store().meta(), null)) {
      for (it.seek(prefix); it.isValid() && Bytes.startsWith(it.key(), prefix) && out.size() < BATCH; it.next()) {
        out.add(it.key());
      }
    }
    return out;
  }

  /** Detached directories whose entries are still being reclaimed (fsck counts what is below them as garbage). */
  public List<Long> pendingDirectories() {
    List<Long> out = new ArrayList<>();
    try (RocksIterator it = ns.store().iterator(ns.store().meta(), null)) {
      for (it.seek(DIR_PREFIX); it.isValid() && Bytes.startsWith(it.key(), DIR_PREFIX); it.next()) {
        out.add(ByteBuffer.wrap(it.key(), DIR_PREFIX.length, 8).getLong());
      }
    }
    return out;
  }

  /** Data objects recorded for removal and not yet removed. */
  public List<String> pendingObjects() {
    List<String> out = new ArrayList<>();
    try (RocksIterator it = ns.store().iterator(ns.store().meta(), null)) {
      for (it.seek(OBJ_PREFIX); it.isValid() && Bytes.startsWith(it.key(), OBJ_PREFIX); it.next()) {
        out.add(new String(it.key(), OBJ_PREFIX.length, it.key().length - OBJ_PREFIX.length, StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  /** Removes up to BATCH children of a detached directory; drops the record once it is empty. */
  private void reclaimDirectory(byte[] record, long dirId) throws IOException {
    List<Long> remoteChildren = new ArrayList<>();
    ns.mutate(batch -> {
      byte[] prefix = EntryKey.prefix(dirId);
      int n = 0;
      try (RocksIterator it = ns.store().iterator(ns.store().entries(), null)) {
        for (it.seek(prefix); it.isValid() && Bytes.startsWith(it.key(), prefix) && n < BATCH; it.next(), n++) {
          Inode child = Inode.decode(it.value());
          String name = EntryKey.decode(it.key()).name();
          if (child.isDirectory() && homes != null
              && (child.zerothSlot != ns.slot() || ns.bitmap(child.inodeId).count() > 1)) {
            // Its entries live on its home slot: that slot drops them once told the entry is gone.
            homes.record(batch, child.inodeId, child.zerothSlot, dirId, name);
            remoteChildren.add(child.inodeId);
          } else if (child.isDirectory()) {
            reclaimSubtree(batch, child.inodeId);
            ns.deletePartition(batch, child.inodeId);
          } else if (child.dataObject != null) {
            reclaimObject(batch, child.dataObject);
          }
          if (!child.isDirectory() && child.isUnderConstruction() && leases != null) {
            // An open file of a deleted directory: its writer's lease goes with it, as HDFS's
            // delete removes the leases below (the lease monitor's sweep would only find it later).
            leases.release(batch, child.inodeId);
          }
          ns.deleteEntry(batch, dirId, name);
          ns.attrs().deleteFor(batch, child);
        }
      }
      if (n < BATCH) {
        delete(batch, record);
      }
      entriesReclaimed += n;
      return null;
    });
    for (long child : remoteChildren) {
      homes.drive(child);
    }
  }

  /** Lets reclamation release the write leases of open files it removes. */
  public void useLeases(org.indexfs.server.filelease.LeaseTable leases) {
    this.leases = leases;
  }

  private volatile org.indexfs.server.filelease.LeaseTable leases;

  /** Lets reclamation reach directories homed on other slots. */
  public void useHomes(HomeSync homes) {
    this.homes = homes;
  }

  private void deleteObject(String name) throws IOException {
    if (data.configured()) {
      data.delete(name);
    }
  }

  public long objectsReclaimed() {
    return objectsReclaimed;
  }

  public long entriesReclaimed() {
    return entriesReclaimed;
  }

  private void run() {
    while (running) {
      try {
        boolean idle = paused.getAsBoolean() || runOnce(); // safe mode: reclaim later
        if (idle) {
          synchronized (this) {
            if (running) {
              wait(1000);
            }
          }
        }
      } catch (InterruptedException e) {
        return;
      } catch (IOException | RuntimeException e) {
        if (!running) {
          return;
        }
        LOG.warn("Reclamation pass failed; will retry", e);
        try {
          Thread.sleep(1000);
        } catch (InterruptedException ie) {
          return;
        }
      }
    }
  }

  /** Stops the thread; the data tier belongs to the server, which closes it. */
  @Override
  public void close() {
    running = false;
    wake();
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
