package org.indexfs.server.data;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.indexfs.common.schema.Inode;
import org.indexfs.server.filelease.FileLease;
import org.indexfs.server.filelease.LeaseTable;
import org.indexfs.server.ns.Namespace;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;
import org.indexfs.server.Periodic;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes data objects that nothing refers to: left behind when a writer created its object and
 * died (or its file was deleted) before the namespace recorded the object. Deletes and overwrites
 * are not its job; the {@link Reclaimer} handles those from durable records.
 *
 * <p>A pass lists this slot's objects <em>first</em>, then takes a consistent snapshot of the
 * namespace, and deletes a listed object only if no entry references it and no lease reserves it
 * as its writer's spill object in that snapshot. That never removes a referenced object: an object
 * gets referenced only by the writer whose lease reserved its name, and names are handed out once
 * ({@link org.indexfs.common.ObjectNames}). If the reservation existed at the snapshot, the object
 * is kept; if it was made after the snapshot, the object cannot have existed yet when it was
 * listed. The grace period ({@code indexfs.scrub.grace-ms}) only adds distance from objects being
 * written right now; correctness does not rest on clocks.
 */
public final class Scrubber implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Scrubber.class);

  private final Namespace ns;
  private final DataTier data;
  private final LeaseTable leases;
  private final long intervalMs;
  private final long graceMs;
  private final Periodic loop;
  private long removed;
  private volatile java.util.function.BooleanSupplier paused = () -> false;

  public Scrubber(Namespace ns, DataTier data, LeaseTable leases, long intervalMs, long graceMs) {
    this.ns = ns;
    this.data = data;
    this.leases = leases;
    this.intervalMs = intervalMs;
    this.graceMs = graceMs;
    this.loop = new Periodic("indexfs-scrubber-" + ns.slot(), intervalMs, false, this::runOnce);
  }

  /** While {@code condition} holds (safe mode), start no background change. */
  public void pauseWhile(java.util.function.BooleanSupplier condition) {
    this.paused = condition;
  }

  /** Starts periodic passes unless disabled ({@code indexfs.scrub.interval-ms=0}) or there is no data tier. */
  public void start() {
    if (intervalMs > 0 && data.configured()) {
      loop.start();
    }
  }

  /** One pass with the configured grace period; returns the objects it removed. */
  public List<String> runOnce() throws IOException {
    return runOnce(graceMs);
  }

  /** One pass leaving alone objects modified within {@code grace} ms; returns what it removed. */
  public synchronized List<String> runOnce(long grace) throws IOException {
    List<String> deleted = new ArrayList<>();
    if (paused.getAsBoolean()) {
      return deleted; // safe mode: the data tier is not touched
    }
    if (!data.configured()) {
      return deleted;
    }
    List<DataTier.StoredObject> stored = data.listObjects();
    long cutoff = System.currentTimeMillis() - grace;
    Set<String> live = liveObjects();
    for (DataTier.StoredObject object : stored) {
      if (live.contains(object.name()) || object.modificationTime() > cutoff) {
        continue;
      }
      if (data.delete(object.name())) {
        deleted.add(object.name());
      }
    }
    removed += deleted.size();
    if (!deleted.isEmpty()) {
      LOG.info("Scrubber removed {} unreferenced data objects of slot {}: {}", deleted.size(), ns.slot(),
          deleted.size() <= 10 ? deleted : deleted.subList(0, 10) + "...");
    }
    return deleted;
  }

  /** Objects referenced by an entry or reserved by a writer, in one consistent snapshot. */
  private Set<String> liveObjects() throws IOException {
    Snapshot snapshot = ns.read(none -> ns.store().snapshot());
    Set<String> live = new HashSet<>();
    try (ReadOptions read = new ReadOptions().setSnapshot(snapshot)) {
      try (RocksIterator it = ns.store().iterator(ns.store().entries(), read)) {
        for (it.seekToFirst(); it.isValid(); it.next()) {
          Inode inode = Inode.decode(it.value());
          if (inode.dataObject != null) {
            live.add(inode.dataObject);
          }
        }
      }
      for (FileLease lease : leases.all(read)) {
        if (!lease.spillObject().isEmpty()) {
          live.add(lease.spillObject());
        }
      }
    } finally {
      ns.store().releaseSnapshot(snapshot);
    }
    return live;
  }

  public synchronized long removedCount() {
    return removed;
  }

  @Override
  public void close() {
    loop.close();
  }
}
