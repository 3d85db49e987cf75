package org.indexfs.client.admin;

/**
 * One inconsistency fsck found: its kind, the path it concerns (null when it has none, as for a
 * data object no entry names), and a sentence saying exactly what is wrong.
 */
public record FsckProblem(Kind kind, String path, String message) {
  /** What can be wrong across slots. */
  public enum Kind {
    /** An entry whose key or value cannot be decoded. */
    CORRUPT_ENTRY,
    /** A partition record or lease record that cannot be decoded. */
    CORRUPT_RECORD,
    /** Entries in a directory that does not exist. */
    ORPHAN_ENTRY,
    /** Entries on a slot that does not hold their partition. */
    MISPLACED_ENTRY,
    /** A partition a directory should have is not recorded on its slot. */
    MISSING_PARTITION,
    /** A partition record of a directory no entry names. */
    ORPHAN_PARTITION,
    /** A GIGA+ bitmap that disagrees with the partitions that exist. */
    BITMAP_MISMATCH,
    /** A partition record whose home or access attributes differ from the directory's entry. */
    HOME_MISMATCH,
    /** A directory that refuses new entries although no removal is under way. */
    SEALED_PARTITION,
    /** One inode id named by two entries. */
    DUPLICATE_INODE,
    /** An inode id at or above its slot's allocation mark: the allocator would hand it out again. */
    ID_ABOVE_MARK,
    /** A file marked open for writing with no write lease. */
    OPEN_WITHOUT_LEASE,
    /** A write lease on a file that is not open for writing there. */
    STRAY_LEASE,
    /** An entry referring to a data object that does not exist. */
    MISSING_OBJECT,
    /** A data object no entry, writer or reclamation refers to. */
    UNREFERENCED_OBJECT,
    /** A listing-order record that disagrees with its entry, or names no entry: listings would show it wrong. */
    INDEX_MISMATCH,
    /** Directories whose parents lead back to themselves instead of to the root. */
    CYCLE
  }

  @Override
  public String toString() {
    return kind + ": " + message;
  }
}
