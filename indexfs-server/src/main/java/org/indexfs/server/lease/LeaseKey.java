package org.indexfs.server.lease;

import java.util.Objects;

/**
 * A directory entry a lease is granted on: {@code name} inside directory {@code parentId}. Leases
 * are on entries (path components), not inodes: a client caches "this name in that directory
 * resolves to this inode with these permissions" (IndexFS, SC'14, §II-B).
 */
public record LeaseKey(long parentId, String name) {
  public LeaseKey {
    Objects.requireNonNull(name, "name");
  }
}
