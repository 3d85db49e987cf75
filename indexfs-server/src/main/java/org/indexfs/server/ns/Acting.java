package org.indexfs.server.ns;

import org.indexfs.proto.Caller;

/**
 * The client a dispatched call acts for, on the thread running it: what a path walk needs to tell
 * a localized subtree's holder from everyone else (IndexFS §II-D). Null on background threads,
 * which act for no client.
 */
public final class Acting {
  private static final ThreadLocal<Caller> CALLER = new ThreadLocal<>();

  private Acting() {}

  /** The caller of the call running on this thread, or null. */
  public static Caller caller() {
    return CALLER.get();
  }

  /** Runs the rest of this thread's call as {@code caller}; close to forget it. */
  public static Scope as(Caller caller) {
    Caller before = CALLER.get();
    CALLER.set(caller);
    return () -> {
      if (before == null) {
        CALLER.remove();
      } else {
        CALLER.set(before);
      }
    };
  }

  /** Restores the caller that acted before. */
  @FunctionalInterface
  public interface Scope extends AutoCloseable {
    @Override
    void close();
  }
}
