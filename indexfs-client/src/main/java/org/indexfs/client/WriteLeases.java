package org.indexfs.client;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.indexfs.proto.Code;
import org.indexfs.proto.RenewLeaseRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;

/**
 * The files this client writes and the slot holding each one's write lease: the slot a create or
 * append was answered by ({@link PathRouter.Routed#slot}). A writer's later calls (flush,
 * complete) go straight there; when a directory split has moved the file, they are routed by path
 * again and the new slot remembered.
 */
final class WriteLeases {
  private final ClusterConnection cluster;
  private final FailoverSender sender;
  private final PathRouter router;
  private final Map<Long, Integer> writing = new ConcurrentHashMap<>();

  WriteLeases(ClusterConnection cluster, FailoverSender sender, PathRouter router) {
    this.cluster = cluster;
    this.sender = sender;
    this.router = router;
  }

  /** File {@code inodeId} is being written; its lease was granted by {@code slot}. */
  void opened(long inodeId, int slot) {
    writing.put(inodeId, slot);
  }

  /** The writer of {@code inodeId} closed it: its lease is gone. */
  void closed(long inodeId) {
    writing.remove(inodeId);
  }

  /** A writer's call, to the slot that granted its lease (the file may have moved since). */
  Response call(Request.Builder request, String path, long inodeId) throws IOException {
    Integer slot = writing.get(inodeId);
    if (slot != null) {
      Response response = sender.send(slot, request);
      Code code = response.getCode();
      if (code != Code.STALE_RESOLUTION && code != Code.RESOLVE_ELSEWHERE) {
        return FailoverSender.check(response);
      }
      // The file moved with a directory split: find it by its path, and remember where it is now.
    }
    PathRouter.Routed r = router.route(request.clearResolution(), path, false, 0, null);
    writing.computeIfPresent(inodeId, (id, old) -> r.slot());
    return r.response();
  }

  /**
   * Keeps every write lease of this client alive. A directory split may have moved an open file's
   * lease to another slot, so with more than one slot every slot is told.
   */
  void renewAll() throws IOException {
    if (writing.isEmpty()) {
      return;
    }
    Set<Integer> slots = new TreeSet<>(writing.values());
    for (int s = 0, n = cluster.slotCount(); n > 1 && s < n; s++) {
      slots.add(s);
    }
    for (int slot : slots) {
      sender.call(slot, Request.newBuilder().setRenewLease(RenewLeaseRequest.getDefaultInstance()));
    }
  }
}
