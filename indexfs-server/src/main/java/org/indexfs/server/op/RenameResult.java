package org.indexfs.server.op;

import org.indexfs.proto.Resolution;

/**
 * What a rename's batch on this slot came to: done here, or not begun because its destination's
 * directory lives on another slot — then {@link RenameOp} hands it to {@link CrossSlotRename}.
 */
sealed interface RenameResult {
  /** Renamed on this slot ({@code renamed}), or refused as LEGACY rename refuses: false. {@code to}: where it went. */
  record Local(boolean renamed, String to) implements RenameResult {}

  /** Nothing written: {@code destination} is the walk so far, for the two-phase rename to go on from. */
  record CrossesSlots(Resolution destination) implements RenameResult {}
}
