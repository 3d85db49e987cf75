package org.indexfs.server.call;

import org.indexfs.proto.SnapshotRequest;

/** The forms of a snapshot request, which share one operation but not their traits. */
final class SnapshotForms {
  private SnapshotForms() {}

  /** A client's change: HDFS's allowSnapshot, disallowSnapshot, createSnapshot, renameSnapshot, deleteSnapshot. */
  static final When CLIENT_CHANGE = r -> switch (r.getSnapshot().getAction()) {
    case ALLOW, DISALLOW, CREATE, RENAME, DELETE -> true;
    default -> false;
  };

  /** A client's change that adds records (a delete frees them). */
  static final When CLIENT_GROWTH = r -> CLIENT_CHANGE.test(r)
      && r.getSnapshot().getAction() != SnapshotRequest.Action.DELETE;

  /**
   * The barrier, scans, counts and registrations are asked by servers only: a client could otherwise
   * hold every slot's gate or read entries past their permissions.
   */
  static final When BETWEEN_SERVERS = r -> switch (r.getSnapshot().getAction()) {
    case COUNT, HOLD, TAKE, OPEN_GATE, RELEASE, SCAN, ROWS, REGISTER, REGISTERED, FORGET, TRACK, MOVED -> true;
    case LIST_DIRS -> r.getSnapshot().getOn();
    default -> false;
  };

  /** Everything that changes what a slot keeps: a client's change, and the barrier's and registrations' steps. */
  static final When CHANGES = r -> switch (r.getSnapshot().getAction()) {
    case ALLOW, DISALLOW, CREATE, RENAME, DELETE, HOLD, TAKE, OPEN_GATE, RELEASE, REGISTER, FORGET, TRACK, MOVED -> true;
    default -> false;
  };
}
