package org.indexfs.server.call;

import org.indexfs.proto.Request;

/**
 * Whether a call may run on the I/O thread that read it (DESIGN §10): only when it cannot wait —
 * for a lock held across a remote call, a peer, a lease, a disk sync or the data tier. Such a call
 * makes at most one change, with {@link org.indexfs.server.ns.Namespace#mutateLocked}, and every
 * step that may wait comes before that change and asks {@link org.indexfs.server.Blocking#check}
 * (a call that finds it must wait moves to a handler thread, nothing changed yet).
 */
@FunctionalInterface
public interface IoThread {
  IoThread YES = (request, server) -> true;
  IoThread NO = (request, server) -> false;
  /** On one slot the operation never calls a peer; on several it may. */
  IoThread ONE_SLOT = (request, server) -> server.slotCount() == 1;

  boolean allows(Request request, Server server);

  /** What a rule may ask of the server the call runs on (read per call: both may change). */
  interface Server {
    int slotCount();

    /** True when a durable reply waits for a WAL sync ({@code indexfs.wal.sync}). */
    boolean syncsCommits();
  }
}
