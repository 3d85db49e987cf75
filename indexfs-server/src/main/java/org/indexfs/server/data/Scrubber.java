package org.indexfs.server.data;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.indexfs.common.schema.Inode;
import org.indexfs.server.filelease.FileLease;
import org.indexfs.server.filelease.LeaseTable;
import org.indexfs.proto.ReferencedRequest;
import org.indexfs.proto.Request;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.peer.Peers;
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
 * written right now.
 *
 * <p>On several slots an object's entry (and an open file's lease) can live on another slot than
 * the one that named the object: cross-slot renames and GIGA+ splits move entries, never objects.
 * So an object unreferenced here is only a candidate: every other slot is asked whether it refers
 * to it ({@link #referenced}), twice, and only what no slot referred to in either round goes. An
 * entry moving between two slots is always on at least one of them; a round can still miss it if
 * it moves from a slot not yet asked to one already asked, so the second round must miss it again
 * moving the same way.
 */
public final class Scrubber implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Scrubber.class);

  private final Namespace ns;
  private final DataTier data;
  private final LeaseTable leases;
  private final long intervalMs;
  private final long graceMs;
  private final Periodic loop;
  private volatile Peers peers;
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

  /** Lets passes ask the other slots about candidates (a cluster of several slots). */
  public void usePeers(Peers peers) {
    this.peers = peers;
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
    Set<String> candidates = new java.util.TreeSet<>();
    for (DataTier.StoredObject object : stored) {
      if (object.modificationTime() <= cutoff) {
        candidates.add(object.name());
      }
    }
    for (int round = 0; round < 2 && !candidates.isEmpty(); round++) {
      candidates.removeAll(referenced(candidates));
      candidates.removeAll(referencedElsewhere(candidates));
    }
    for (String name : candidates) {
      if (data.delete(name)) {
        deleted.add(name);
      }
    }
    sweepPublishDirectories(cutoff);
    removed += deleted.size();
    if (!deleted.isEmpty()) {
      LOG.info("Scrubber removed {} unreferenced data objects of slot {}: {}", deleted.size(), ns.slot(),
          deleted.size() <= 10 ? deleted : deleted.subList(0, 10) + "...");
    }
    return deleted;
  }

  /**
   * Removes the publish directories of holders that are gone (a client that died before its
   * lease ended leaves its directory, perhaps with an SST in it): every directory under
   * {@code .publish/<slot>} not modified since {@code cutoff} whose holder no localization of this
   * slot still records.
   */
  private void sweepPublishDirectories(long cutoff) throws IOException {
    Set<String> live = new HashSet<>();
    for (org.indexfs.server.bulk.Localization l : org.indexfs.server.bulk.Localizations.all(ns.store(), null)) {
      for (org.indexfs.server.bulk.Localization.Holder h : l.holders()) {
        if (h.publishDirectory() != null) {
          live.add(h.publishDirectory());
        }
      }
    }
    for (DataTier.StoredObject dir : data.listPublishDirectories()) {
      if (dir.modificationTime() <= cutoff && !live.contains(dir.name()) && data.deleteTree(dir.name())) {
        LOG.info("Scrubber removed publish directory {} of a holder that is gone", dir.name());
      }
    }
  }

  /** Which of {@code names} the other slots refer to (none on a single slot). */
  private Set<String> referencedElsewhere(Set<String> names) throws IOException {
    Set<String> out = new HashSet<>();
    Peers p = peers;
    if (p == null || names.isEmpty()) {
      return out;
    }
    for (int slot = 0; slot < p.slotCount(); slot++) {
      if (slot != ns.slot()) {
        out.addAll(p.call(slot, Request.newBuilder().setReferenced(ReferencedRequest.newBuilder()
            .addAllObjects(names))).getNames().getNamesList());
      }
    }
    return out;
  }

  /**
   * Which of {@code names} an entry of this slot refers to or a writer's lease here reserves, in
   * one consistent snapshot.
   */
  public Set<String> referenced(Set<String> names) throws IOException {
    Set<String> live = liveObjects();
    live.retainAll(names);
    // Names a bulk-insertion client may write under while its localization lasts (its prefix, its id blocks).
    List<org.indexfs.server.bulk.Localization> localized = org.indexfs.server.bulk.Localizations.all(ns.store(), null);
    if (!localized.isEmpty()) {
      for (String name : names) {
        if (org.indexfs.server.bulk.Localizations.reserved(localized, name)) {
          live.add(name);
        }
      }
    }
    return live;
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
