package org.indexfs.server.ns;

/**
 * Grants a client a lease on a directory entry it walked through (IndexFS §II-B): the TTL it may
 * cache the entry for, 0 for "do not cache".
 */
@FunctionalInterface
public interface LeaseGrants {
  LeaseGrants NONE = (parentId, name, depth) -> 0;

  long grant(long parentId, String name, int depth);
}
