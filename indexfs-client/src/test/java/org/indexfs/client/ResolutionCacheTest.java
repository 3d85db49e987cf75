package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.indexfs.client.cache.ResolutionCache;
import org.indexfs.proto.Ancestor;
import org.indexfs.proto.Resolution;
import org.junit.jupiter.api.Test;

/** The client's leased directory cache: expiry by its own clock, chains cut at a moved parent, a bound. */
class ResolutionCacheTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);

  private static Ancestor dir(long id, int slot, long leaseMs) {
    return Ancestor.newBuilder().setInodeId(id).setPermission(0755).setOwner("u").setGroup("g")
        .setZerothSlot(slot).setLeaseMs(leaseMs).build();
  }

  private static Resolution chain(Ancestor... ancestors) {
    return Resolution.newBuilder().addAllAncestors(List.of(ancestors)).build();
  }

  @Test
  void entriesExpireBeforeTheServersLeaseDoes() {
    ResolutionCache cache = new ResolutionCache(100, now::get);
    List<String> names = List.of("a", "b", "f");
    cache.remember(names, chain(dir(1, 0, 1000), dir(2, 1, 1000), dir(3, 2, 1000)), now.get());
    assertEquals(3, cache.resolve(names, 2).getAncestorsCount());
    assertEquals(0, cache.resolve(names, 2).getAncestors(2).getLeaseMs(), "leases are not sent back");
    now.addAndGet(899_000_000L);
    assertEquals(3, cache.resolve(names, 2).getAncestorsCount());
    now.addAndGet(1_000_000L);
    assertEquals(0, cache.resolve(names, 2).getAncestorsCount(), "gone at ttl minus margin (100 ms)");
  }

  @Test
  void uncacheableEntriesEndTheChain() {
    ResolutionCache cache = new ResolutionCache(100, now::get);
    List<String> names = List.of("a", "b", "f");
    cache.remember(names, chain(dir(1, 0, 1000), dir(2, 1, 0), dir(3, 2, 1000)), now.get());
    assertEquals(1, cache.resolve(names, 2).getAncestorsCount());
  }

  @Test
  void aChainIsCutWhereAParentNoLongerMatches() {
    ResolutionCache cache = new ResolutionCache(100, now::get);
    cache.remember(List.of("a", "b", "f"), chain(dir(1, 0, 1000), dir(2, 1, 1000), dir(3, 2, 1000)), now.get());
    // /a was replaced by another directory (id 9); /a/b is still leased from the old /a.
    cache.remember(List.of("a", "x"), chain(dir(1, 0, 1000), dir(9, 3, 1000)), now.get());
    Resolution r = cache.resolve(List.of("a", "b", "f"), 2);
    assertEquals(2, r.getAncestorsCount(), "root and the new /a; /a/b, leased under the old /a, is not used");
    assertEquals(9, r.getAncestors(1).getInodeId());
  }

  @Test
  void theCacheKeepsWithinItsBound() {
    ResolutionCache cache = new ResolutionCache(10, now::get);
    for (int i = 0; i < 100; i++) {
      cache.remember(List.of("d" + i, "f"), chain(dir(1, 0, 1000), dir(100 + i, 1, 1000)), now.get());
      assertEquals(true, cache.size() <= 10);
    }
    assertEquals(2, cache.resolve(List.of("d99", "f"), 1).getAncestorsCount());
  }

  @Test
  void forgettingAPathDropsItsDirectories() {
    ResolutionCache cache = new ResolutionCache(100, now::get);
    List<String> names = List.of("a", "b", "f");
    cache.remember(names, chain(dir(1, 0, 1000), dir(2, 1, 1000), dir(3, 2, 1000)), now.get());
    cache.forget(names);
    assertEquals(0, cache.resolve(names, 2).getAncestorsCount());
  }
}
