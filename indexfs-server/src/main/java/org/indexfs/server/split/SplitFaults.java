package org.indexfs.server.split;

import java.util.function.Consumer;

/**
 * Fault-injection points of a GIGA+ split, for tests that stop a server between phases:
 * {@code split.recorded} (intent written), {@code split.shipped} (SST file on the data tier, the
 * receiver not asked yet), {@code split.ingested} (receiver committed, source not cleaned up);
 * on the receiver, {@code ingest.received} (file ingested, partition not recorded) and
 * {@code ingest.recorded} (committed, no answer sent).
 * A hook that throws stops the split there.
 */
public final class SplitFaults {
  private static volatile Consumer<String> hook = point -> { };

  private SplitFaults() {}

  public static void at(String point) {
    hook.accept(point);
  }

  /** Tests only; {@code null} restores the no-op. */
  public static void install(Consumer<String> h) {
    hook = h == null ? point -> { } : h;
  }
}
