package org.indexfs.client.bulk;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.indexfs.client.IndexFsClient;
import org.indexfs.proto.LocalizeGrant;
import org.indexfs.proto.PublishResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client's localized subtrees (IndexFS §II-D): takes the leases, finds the subtree a path lies
 * in, and keeps the leases renewed from a daemon thread (every third of the lease). A denied
 * renewal makes the holder publish and give the subtree back; closing publishes everything.
 */
public final class BulkInsertion implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BulkInsertion.class);
  private static final int FIRST_IDS = 65_536;

  private final IndexFsClient client;
  private final SstShipper shipper;
  private final String storeKind;
  private final Path scratch;
  private final long bufferEntries;
  private final long dataLimit;
  private final Map<String, LocalSubtree> subtrees = new ConcurrentHashMap<>();
  private volatile boolean any;
  private Thread renewer;
  private long renewMs = 10_000;
  private boolean closed;

  public BulkInsertion(IndexFsClient client, SstShipper shipper, String storeKind, Path scratch, long bufferEntries,
      long dataLimit) {
    this.client = client;
    this.shipper = shipper;
    this.storeKind = storeKind;
    this.scratch = scratch;
    this.bufferEntries = bufferEntries;
    this.dataLimit = dataLimit;
  }

  /**
   * LOCALIZE ({@code shared}: SHARED_LOCALIZE) {@code path}: makes the directory if it is missing,
   * takes the lease, and runs what happens below it here until it is published.
   */
  public LocalSubtree localize(String path, int permission, boolean shared) throws IOException {
    String root = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    LocalSubtree existing = subtrees.get(root);
    if (existing != null && !existing.ended()) {
      return existing;
    }
    client.mkdirs(root, permission);
    LocalizeGrant grant = client.localize(root, shared, FIRST_IDS);
    boolean empty = !client.list(root).hasNext();
    LocalSubtree s = new LocalSubtree(client, root, grant, empty, LocalStore.open(storeKind, scratch), shipper,
        bufferEntries, dataLimit);
    subtrees.put(root, s);
    any = true;
    startRenewer(grant.getLeaseMs());
    return s;
  }

  /** The live localized subtree {@code path} lies below, or null. */
  public LocalSubtree find(String path) {
    if (!any) {
      return null;
    }
    for (LocalSubtree s : subtrees.values()) {
      if (s.contains(path)) {
        if (s.ended()) {
          forget(s);
          return null;
        }
        return s;
      }
    }
    return null;
  }

  /** The subtree localized at exactly {@code path}, or null. */
  public LocalSubtree at(String path) {
    LocalSubtree s = subtrees.get(path);
    return s == null || s.ended() ? null : s;
  }

  /** The live subtrees localized at {@code path} or below it (what a rename or delete of {@code path} takes along). */
  public List<LocalSubtree> atOrBelow(String path) {
    if (!any) {
      return List.of();
    }
    String prefix = path.endsWith("/") ? path : path + "/";
    List<LocalSubtree> out = new java.util.ArrayList<>();
    for (LocalSubtree s : subtrees.values()) {
      if (!s.ended() && (s.root().equals(path) || s.root().startsWith(prefix))) {
        out.add(s);
      }
    }
    return out;
  }

  /** Drops subtree {@code s} and what is pending in it, giving the lease up; returns its files' data objects. */
  public List<String> discard(LocalSubtree s) throws IOException {
    List<String> objects = s.discard();
    forget(s);
    return objects;
  }

  /** Publishes what is pending below {@code path} (with {@code release}, ending the lease). */
  public PublishResult publish(String path, boolean release) throws IOException {
    LocalSubtree s = at(path);
    if (s == null) {
      throw new IOException(path + " is not localized by this client");
    }
    PublishResult r = s.publish(release);
    if (s.ended()) {
      forget(s);
    }
    return r;
  }

  private void forget(LocalSubtree s) {
    if (subtrees.remove(s.root(), s)) {
      s.closeStore();
    }
    any = !subtrees.isEmpty();
  }

  private synchronized void startRenewer(long leaseMs) {
    renewMs = Math.max(20, Math.min(renewMs, leaseMs / 3));
    if (renewer == null && !closed) {
      renewer = new Thread(this::renewLoop, "indexfs-localize-renewer-" + client.caller().getClientId());
      renewer.setDaemon(true);
      renewer.start();
    }
  }

  private void renewLoop() {
    while (true) {
      synchronized (this) {
        try {
          wait(renewMs);
        } catch (InterruptedException e) {
          return;
        }
        if (closed) {
          return;
        }
      }
      for (LocalSubtree s : List.copyOf(subtrees.values())) {
        try {
          s.renew();
          if (s.ended()) {
            forget(s);
          }
        } catch (IOException e) {
          LOG.warn("Could not renew the localization of {}: {}", s.root(), e.toString());
        }
      }
    }
  }

  /** Stops renewing without publishing: as if this client died (tests). */
  public void stopRenewing() {
    Thread t;
    synchronized (this) {
      closed = true;
      notifyAll();
      t = renewer;
    }
    if (t != null) {
      try {
        t.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Publishes and releases every subtree, then stops. */
  @Override
  public void close() {
    stopRenewing();
    for (LocalSubtree s : List.copyOf(subtrees.values())) {
      try {
        PublishResult r = s.publish(true);
        if (r.getRejectedCount() > 0) {
          LOG.warn("Publishing {} on close: {} entries refused", s.root(), r.getRejectedCount());
        }
      } catch (IOException e) {
        LOG.warn("Could not publish {} on close; its lease runs out: {}", s.root(), e.toString());
      }
      forget(s);
    }
  }
}
