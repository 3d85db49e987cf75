package org.indexfs.gateway;

/**
 * What the gateway does not serve, refused as HDFS's Router refuses what it does not implement
 * (an {@link UnsupportedOperationException} the client sees as a RemoteException naming it), with
 * a reason naming IndexFS. docs/gateway.md lists every one.
 */
final class Refusals {
  static final String CACHING = "centralized cache management (cache pools and directives) is the NameNode's,"
      + " and IndexFS keeps no block cache";
  static final String ERASURE_CODING = "IndexFS keeps every file replicated; erasure coding policies cannot be"
      + " set, added or changed";
  static final String ENCRYPTION = "IndexFS has no encryption zones";
  static final String INOTIFY = "IndexFS has no edit log to follow (inotify)";
  static final String NAMENODE_ADMIN = "this NameNode administration has no IndexFS counterpart through the"
      + " gateway; use bin/indexfs admin";
  static final String DATA_TIER_ADMIN = "blocks and DataNodes are the data tier's: ask its NameNode";
  static final String SNAPSHOT_READS = "reading snapshots (listings, diffs, .snapshot paths) is served by"
      + " indexfs:// clients only; the gateway creates, renames and deletes snapshots";

  private Refusals() {}

  static UnsupportedOperationException unsupported(String operation, String reason) {
    return new UnsupportedOperationException("Operation \"" + operation + "\" is not supported by the IndexFS"
        + " gateway: " + reason);
  }
}
