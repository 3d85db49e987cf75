package org.indexfs.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import org.indexfs.client.cache.ResolutionCache;
import org.indexfs.common.PathNames;
import org.indexfs.common.giga.GigaIndex;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.schema.NameHash;
import org.indexfs.proto.Ancestor;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Resolution;
import org.indexfs.proto.Response;

/**
 * The routing loop, client-side resolution (IndexFS §II-B): start from the deepest directory cached
 * for the path, send the call to that directory's home slot, and when the server says the walk
 * continues on another slot, cache what it walked and go there. Bounded, with backoff on stale
 * caches. Each try goes out through {@link FailoverSender}; the answer comes back with the slot
 * that gave it ({@link Routed}), so a writer's later calls can go to the slot holding its lease.
 */
final class PathRouter {
  /** An OK answer and the slot whose server gave it. */
  record Routed(Response response, int slot) {}

  /** Re-routing a call more often than this means the namespace keeps moving under it. */
  private static final int MAX_HOPS = 32;
  /** How long a call keeps re-routing while the namespace moves under it, at most. */
  private static final long ROUTING_PATIENCE_MS = 30_000;

  private final ClusterConnection cluster;
  private final FailoverSender sender;
  private final RpcCounters counters;
  private final long timeoutMs;
  /** See {@link IndexFsClient#waitForLocalized}. */
  private volatile long localizedWaitMs = 65_000;

  PathRouter(ClusterConnection cluster, FailoverSender sender, RpcCounters counters, long timeoutMs) {
    this.cluster = cluster;
    this.sender = sender;
    this.counters = counters;
    this.timeoutMs = timeoutMs;
  }

  void waitForLocalized(long ms) {
    this.localizedWaitMs = ms;
  }

  /**
   * A call about {@code path}, sent to its parent directory's home slot (or, {@code into}, the
   * directory's own; {@code intoHash} picks the partition inside it). {@code dst}: a rename's
   * destination, resolved alongside. Error answers are thrown as {@code IndexFsException}.
   */
  Routed route(Request.Builder request, String path, boolean into, long intoHash, String dst) throws IOException {
    ResolutionCache cache = cluster.resolutions();
    List<String> names = PathNames.components(path, Integer.MAX_VALUE);
    List<String> dstNames = dst == null ? null : PathNames.components(dst, Integer.MAX_VALUE);
    Resolution known = cache.resolve(names, into ? names.size() : names.size() - 1);
    Resolution knownDst = dst == null ? null : cache.resolve(dstNames, dstNames.size() - 1);
    long localizedUntil = 0;
    StringBuilder trail = new StringBuilder();
    // Entries move (splits, renames across slots) for moments: keep re-routing for a while.
    long deadline = System.nanoTime() + Math.min(timeoutMs, ROUTING_PATIENCE_MS) * 1_000_000L;
    for (int attempt = 0; ; attempt++) {
      request.setResolution(known);
      if (knownDst != null) {
        request.setDstResolution(knownDst);
      }
      int slot = slotOf(known, names, intoHash);
      long sent = System.nanoTime();
      Response response = sender.send(slot, request);
      if (response.getCode() == Code.OK) {
        return new Routed(response, slot);
      }
      boolean patient = attempt < MAX_HOPS || System.nanoTime() - deadline < 0;
      if (!patient && isRouting(response.getCode())) {
        // Routing answers are the servers' business and never reach a caller (issue 16).
        throw new IOException("Cannot reach " + path + ": the directories on its way kept moving ("
            + attempt + " attempts; last: " + trail + ")");
      }
      if (attempt >= MAX_HOPS - 4 && trail.length() < 2_000) {
        trail.append(" slot ").append(slot).append(' ').append(response.getCode()).append(' ')
            .append(response.getMessage()).append(';');
      }
      if (response.getCode() == Code.RESOLVE_ELSEWHERE) {
        counters.count("resolve.elsewhere");
        if (response.getResolvedDst()) {
          knownDst = response.getResolved();
          cache.remember(dstNames, knownDst, sent);
        } else {
          known = response.getResolved();
          cache.remember(names, known, sent);
        }
        if (attempt >= MAX_HOPS / 2) {
          // Far more hops than any path has slots: something moves under this call; do not spin.
          backoff(attempt - MAX_HOPS / 2);
        }
      } else if (response.getCode() == Code.SUBTREE_LOCALIZED && localizedWaitMs > 0) {
        // Another client holds the subtree (bulk insertion); it publishes soon: wait, not a hop.
        long now = System.nanoTime();
        localizedUntil = localizedUntil == 0 ? now + localizedWaitMs * 1_000_000 : localizedUntil;
        if (now - localizedUntil > 0) {
          return new Routed(FailoverSender.check(response), slot);
        }
        counters.count("localized.wait");
        attempt--;
        backoff(6);
      } else if (response.getCode() == Code.STALE_RESOLUTION) {
        counters.count("resolve.stale");
        cache.forget(names);
        known = Resolution.getDefaultInstance();
        if (dstNames != null) {
          cache.forget(dstNames);
          knownDst = Resolution.getDefaultInstance();
        }
        backoff(attempt);
      } else {
        return new Routed(FailoverSender.check(response), slot);
      }
    }
  }

  /** The slot a request with this resolution goes to: the one holding the next name's partition. */
  int slotOf(Resolution r, List<String> names, long intoHash) throws IOException {
    if (r.getAncestorsCount() == 0) {
      return 0;
    }
    int k = r.getAncestorsCount() - 1;
    Ancestor dir = r.getAncestors(k);
    long hash = k < names.size() ? NameHash.of(names.get(k)) : intoHash;
    PartitionBitmap bitmap = cluster.resolutions().bitmap(dir.getInodeId());
    if (bitmap == null) {
      return dir.getZerothSlot();
    }
    return GigaIndex.slotOf(dir.getZerothSlot(), GigaIndex.partitionOf(hash, bitmap), cluster.slotCount());
  }

  /** Answers that only tell the client where to go next. */
  private static boolean isRouting(Code code) {
    return code == Code.RESOLVE_ELSEWHERE || code == Code.STALE_RESOLUTION;
  }

  private static void backoff(int attempt) throws InterruptedIOException {
    try {
      Thread.sleep(Math.min(200, 5L << Math.min(attempt, 6)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while re-resolving");
    }
  }
}
