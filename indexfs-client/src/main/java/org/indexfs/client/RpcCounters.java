package org.indexfs.client;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.indexfs.proto.Request;

/**
 * RPCs a client sent, by operation, plus how often a call was re-routed: {@code resolve.elsewhere}
 * (the walk went on at another slot) and {@code resolve.stale} (a cached directory had moved).
 * With a warm cache a metadata operation costs one RPC; cold, one per slot its path crosses.
 */
public final class RpcCounters {
  public static final String TOTAL = "rpc";

  private static final String[] OP_KEYS = new String[Request.OpCase.values().length];

  static {
    for (Request.OpCase op : Request.OpCase.values()) {
      OP_KEYS[op.ordinal()] = "rpc." + op.name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

  void count(Request.OpCase op) {
    count(TOTAL);
    count(OP_KEYS[op.ordinal()]);
  }

  void count(String key) {
    LongAdder a = counts.get(key);
    if (a == null) {
      a = counts.computeIfAbsent(key, k -> new LongAdder());
    }
    a.increment();
  }

  public long get(String key) {
    LongAdder a = counts.get(key);
    return a == null ? 0 : a.sum();
  }

  public void reset() {
    counts.clear();
  }

  /** Every counter, sorted by name. */
  public Map<String, Long> snapshot() {
    Map<String, Long> out = new TreeMap<>();
    counts.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }
}
