package org.indexfs.hadoop.decoupled;

import org.indexfs.proto.FileStatus;
import org.indexfs.proto.FileType;

/**
 * What the copy did to an entry the server holds (a rename or a delete of something read at
 * check-out), recorded in order: the merge replays these on the server, each only when the entry
 * is still the one checked out ({@link #expected}). Entries made in the copy need no record: the
 * merge publishes the copy's final state of them.
 *
 * @param expected the entry as checked out; null for a directory the merge itself made on the
 *     server (a new directory something checked out was moved into), which has nothing to compare
 */
record ServerChange(Kind kind, String path, String to, FileStatus expected) {
  enum Kind { MOVE, DELETE }

  static ServerChange move(String from, String to, FileStatus expected) {
    return new ServerChange(Kind.MOVE, from, to, expected);
  }

  static ServerChange delete(String path, FileStatus expected) {
    return new ServerChange(Kind.DELETE, path, null, expected);
  }

  /**
   * Why the server's entry {@code now} is not the one the copy changed, or null when it is. A
   * rename needs the same entry (its content moves with it, nothing is lost); a delete of a file
   * also needs the content unchanged (deleting what someone wrote since would lose it).
   */
  String differs(FileStatus now) {
    if (expected == null) {
      return null;
    }
    if (now == null) {
      return "deleted on the server since check-out";
    }
    if (now.getInodeId() != expected.getInodeId()) {
      return "replaced on the server since check-out";
    }
    if (kind == Kind.DELETE && expected.getType() == FileType.FILE
        && (now.getMtime() != expected.getMtime() || now.getLength() != expected.getLength())) {
      return "changed on the server since check-out";
    }
    return null;
  }
}
