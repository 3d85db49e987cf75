package org.indexfs.server;

import java.util.function.Consumer;

/**
 * Named points inside multi-step protocols where tests stop a server between phases. A hook that
 * throws stops the step there, as a crash would; the test then restarts the server.
 *
 * <ul>
 *   <li>Cross-slot rename: {@code out.recorded} (source: intent written, nothing asked yet),
 *       {@code out.landed} (source: the destination answered, the source entry not yet removed),
 *       {@code in.landed} (destination: entry written, no answer sent).</li>
 *   <li>GIGA+ split: {@code split.recorded} (intent written), {@code split.shipped} (SST file on
 *       the data tier, the receiver not asked yet), {@code split.ingested} (receiver committed,
 *       source not cleaned up); on the receiver {@code ingest.received} (file ingested, partition
 *       not recorded) and {@code ingest.recorded} (committed, no answer sent); {@code split.awaited} (a slot
 *       entering safe mode found a split running and waits for it to end).</li>
 *   <li>Retry cache: {@code call.applied} (an at-most-once call's change written, its answer not
 *       recorded).</li>
 *   <li>Bulk ingest ({@code bulk/BulkIngest}): {@code publish.received}, {@code publish.staged},
 *       {@code publish.ingested}, {@code publish.recorded}; a publish into a directory split across
 *       slots ({@code bulk/SplitPublish}) adds, on its home, {@code publish.tx.recorded} (undecided
 *       record written, no share sent), {@code publish.aborted} (a participant did not prepare:
 *       the publish is aborted, nothing decided, participants not told), {@code publish.prepared}
 *       (every share staged, nothing decided), {@code publish.committed} (home's part in,
 *       participants not told) and {@code publish.unsettled} (a participant did not hear the
 *       outcome: left to the next settling), and on a participant {@code publish.share.prepared}
 *       (share staged, no answer sent).</li>
 * </ul>
 */
public final class FaultPoints {
  private static volatile Consumer<String> hook = point -> { };

  private FaultPoints() {}

  public static void at(String point) {
    hook.accept(point);
  }

  /** Tests only; {@code null} restores the no-op. */
  public static void install(Consumer<String> h) {
    hook = h == null ? point -> { } : h;
  }
}
