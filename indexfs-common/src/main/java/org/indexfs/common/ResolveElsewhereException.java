package org.indexfs.common;

import org.indexfs.proto.Code;
import org.indexfs.proto.Resolution;

/**
 * A server walked a path as far as its own slot allows: the next directory's entries live on
 * another slot. Carries the directories walked so far (with their leases), so the client caches
 * them and continues at that directory's home slot.
 */
public final class ResolveElsewhereException extends IndexFsException {
  private final Resolution resolution;
  private final boolean destination;

  public ResolveElsewhereException(String path, Resolution resolution, boolean destination) {
    super(Code.RESOLVE_ELSEWHERE, "Continue resolving " + path + " at slot " + (resolution.getAncestorsCount() == 0
        ? 0 : resolution.getAncestors(resolution.getAncestorsCount() - 1).getZerothSlot()));
    this.resolution = resolution;
    this.destination = destination;
  }

  public Resolution resolution() {
    return resolution;
  }

  /** True when it concerns a rename's destination path. */
  public boolean destination() {
    return destination;
  }
}
