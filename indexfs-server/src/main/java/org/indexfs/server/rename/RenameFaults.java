package org.indexfs.server.rename;

import java.util.function.Consumer;

/**
 * Fault-injection points of a cross-slot rename, for tests that stop a server between phases:
 * {@code out.recorded} (source: intent written, nothing asked yet), {@code out.landed}
 * (source: the destination answered, the source entry not yet removed) and {@code in.landed}
 * (destination: entry written, no answer sent). A hook that throws stops the rename there.
 */
public final class RenameFaults {
  private static volatile Consumer<String> hook = point -> { };

  private RenameFaults() {}

  public static void at(String point) {
    hook.accept(point);
  }

  /** Tests only; {@code null} restores the no-op. */
  public static void install(Consumer<String> h) {
    hook = h == null ? point -> { } : h;
  }
}
