package org.indexfs.server;

/**
 * Calls that run on a network I/O thread must never wait for anything slow (DESIGN §10): while
 * they wait, every other call of that connection waits too. Every place that may wait — an fsync,
 * a call to a peer or the data tier, a lease revocation — asks {@link #check} first; on an I/O
 * thread that throws {@link MustNotBlock}, and the dispatcher moves the call to a handler thread,
 * where it starts again from the beginning. So an operation must reach its first possibly blocking
 * step before it changes anything, or not run on an I/O thread at all.
 */
public final class Blocking {
  private static final ThreadLocal<Boolean> IO_THREAD = ThreadLocal.withInitial(() -> Boolean.FALSE);

  /** Thrown on an I/O thread by a step that may block. */
  public static final class MustNotBlock extends RuntimeException {
    private MustNotBlock(String what) {
      super(what, null, false, false);
    }
  }

  private Blocking() {}

  /** Marks (or unmarks) the current thread as running a call on an I/O thread. */
  public static void onIoThread(boolean on) {
    IO_THREAD.set(on);
  }

  public static boolean onIoThread() {
    return IO_THREAD.get();
  }

  /** Call before a step that may block; {@code what} names it (for the log of a misplaced call). */
  public static void check(String what) {
    if (IO_THREAD.get()) {
      throw new MustNotBlock(what);
    }
  }
}
