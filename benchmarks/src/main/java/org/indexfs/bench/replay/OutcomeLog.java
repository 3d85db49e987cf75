package org.indexfs.bench.replay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What every call of one replay segment did, one byte per call (outcome names are few: "ok",
 * "false" and a handful of exception names), so differences.tsv can show what each target did
 * with a record that differed on only one of them.
 */
final class OutcomeLog {
  private final byte[] codes;
  private final List<String> names = new ArrayList<>(List.of("-"));
  private final Map<String, Byte> byName = new HashMap<>();

  OutcomeLog(int capacity) {
    codes = new byte[capacity];
  }

  void record(int ordinal, String outcome) {
    byte code;
    synchronized (this) {
      code = byName.computeIfAbsent(outcome, o -> {
        if (names.size() == 255) {
          return (byte) 255; // past 254 distinct outcomes (never seen): shown as "other"
        }
        names.add(o);
        return (byte) (names.size() - 1);
      });
    }
    codes[ordinal] = code;
  }

  /** The outcome of call {@code ordinal}, or "-" if it did not run. */
  synchronized String name(int ordinal) {
    int code = codes[ordinal] & 0xff;
    return code < names.size() ? names.get(code) : "other";
  }

  int capacity() {
    return codes.length;
  }
}
