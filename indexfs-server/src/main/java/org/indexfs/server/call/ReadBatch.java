package org.indexfs.server.call;

import java.util.ArrayList;
import java.util.List;
import org.indexfs.server.store.GroupCommit;

/**
 * The calls one read of a connection ran on its I/O thread, from the transport's {@code
 * readStarted} to its {@code readComplete} (DESIGN §10): one WAL sync covers their writes, and the
 * retry cache's answer records of those calls are written together when the read ends, before its
 * replies are flushed ({@link Commit#readComplete}). One per connection, used by its I/O thread only.
 */
public final class ReadBatch extends GroupCommit.Read {
  /** Answer records (key, value) of the calls answered in this read, written when it ends. */
  final List<byte[][]> answers = new ArrayList<>();
}
