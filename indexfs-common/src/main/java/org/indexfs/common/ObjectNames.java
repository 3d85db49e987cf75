package org.indexfs.common;

/**
 * Names of data objects on the underlying FS, relative to {@code indexfs.data.uri} (DESIGN §6):
 * {@code <slot>/<id>}. A file's first object is named by its own inode id; any later object (an
 * append that spills an inline file, concat of inline parts) takes a fresh id from the same
 * per-slot sequence. Ids are never reused, so no object name is ever handed out twice: the
 * scrubber relies on that to tell a live writer's object from an orphan.
 */
public final class ObjectNames {
  private ObjectNames() {}

  public static String of(long id) {
    return InodeIds.slot(id) + "/" + id;
  }

  /** The directory holding every object of {@code slot}, relative to the data root. */
  public static String slotDirectory(int slot) {
    return String.valueOf(slot);
  }
}
