package org.indexfs.server;

import org.indexfs.server.call.Call;

/**
 * Calls that run on a network I/O thread must never wait for anything slow (DESIGN §10): while
 * they wait, every other call of that connection waits too. Every place that may wait — an fsync,
 * a call to a peer or the data tier, a lease revocation — asks {@link #check} first; on an I/O
 * thread that throws {@link MustNotBlock}, and the dispatcher moves the call to a handler thread,
 * where it starts again from the beginning. So an operation must reach its first possibly blocking
 * step before it changes anything, or not run on an I/O thread at all.
 */
public final class Blocking {
  /** Thrown on an I/O thread by a step that may block. */
  public static final class MustNotBlock extends RuntimeException {
    private MustNotBlock(String what) {
      super(what, null, false, false);
    }
  }

  private Blocking() {}

  /** True while the running call runs on the I/O thread that read it ({@link Call#onIoThread}). */
  public static boolean onIoThread() {
    Call call = Call.current();
    return call != null && call.onIoThread();
  }

  /** Call before a step that may block; {@code what} names it (for the log of a misplaced call). */
  public static void check(String what) {
    if (onIoThread()) {
      throw new MustNotBlock(what);
    }
  }
}
