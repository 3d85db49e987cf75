package org.indexfs.server.ns;

import org.indexfs.proto.Resolution;

/**
 * A rename's destination as this slot sees it: walked here ({@link #path}), or stopped at a
 * directory whose entries live on another slot ({@link #elsewhere}: what was walked, for the slot
 * that holds them). The second is no error: the rename goes on as a two-phase rename across slots.
 */
public record Destination(ResolvedPath path, Resolution elsewhere) {
  static Destination here(ResolvedPath path) {
    return new Destination(path, null);
  }

  static Destination elsewhere(Resolution walked) {
    return new Destination(null, walked);
  }

  /** True when the destination's directory lives on another slot. */
  public boolean isElsewhere() {
    return elsewhere != null;
  }
}
