package org.indexfs.server.rpc;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of half-received large frames a server holds (DESIGN §14): at most {@code total} for
 * every connection together and at most {@code perClient} for the connections of one client
 * address, so one client cannot take the whole budget and starve the others (issue 31: 32
 * half-sent 4 MiB frames filled 128 MiB, and another user's 64 KiB put waited 27 s).
 */
final class BufferBudget {
  private final long total;
  private final long perClient;
  private final AtomicLong held = new AtomicLong();
  /** Bytes held per client address; an address holding none has no entry. */
  private final ConcurrentHashMap<InetAddress, Long> byClient = new ConcurrentHashMap<>();

  BufferBudget(long total, long perClient) {
    this.total = total;
    this.perClient = perClient;
  }

  /** Takes {@code length} bytes for {@code client}; the reason it cannot, or null when it did. */
  String reserve(InetAddress client, long length) {
    String[] refusal = {null};
    byClient.compute(client, (address, mine) -> {
      long own = mine == null ? 0 : mine;
      if (own + length > perClient) {
        refusal[0] = "a " + length + "-byte frame would take the partial frames of " + address.getHostAddress()
            + " to " + (own + length) + " bytes, over indexfs.rpc.max-buffered-bytes-per-client=" + perClient;
        return mine;
      }
      long now;
      do {
        now = held.get();
        if (now + length > total) {
          refusal[0] = "a " + length + "-byte frame would take the server's partial frames to " + (now + length)
              + " bytes, over indexfs.rpc.max-buffered-bytes=" + total;
          return mine;
        }
      } while (!held.compareAndSet(now, now + length));
      return own + length;
    });
    return refusal[0];
  }

  /** Gives back what {@link #reserve} took. */
  void release(InetAddress client, long length) {
    byClient.compute(client, (address, mine) -> mine == null || mine <= length ? null : mine - length);
    held.addAndGet(-length);
  }

  /** Bytes held now, by every client. */
  long held() {
    return held.get();
  }

  /** Bytes held now for {@code client}. */
  long heldBy(InetAddress client) {
    return byClient.getOrDefault(client, 0L);
  }
}
