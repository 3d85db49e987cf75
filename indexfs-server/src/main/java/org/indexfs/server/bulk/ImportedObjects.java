package org.indexfs.server.bulk;

/**
 * Where imported HDFS files live on the data tier (docs/import.md): {@code imported/<import>/<path
 * below the imported directory>}, relative to {@code indexfs.data.uri}. An import moves the source
 * tree there with one HDFS rename, so each file keeps its blocks and becomes its entry's object
 * under a name made from its path. The scrubber lists only the slots' directories, never this one,
 * so it cannot take an imported object; deletes reclaim them by name like any other object.
 */
public final class ImportedObjects {
  public static final String ROOT = "imported";

  private ImportedObjects() {}

  /** True for a name below {@code imported/<import>/} with no empty, "." or ".." component. */
  public static boolean isImported(String name) {
    if (!name.startsWith(ROOT + "/")) {
      return false;
    }
    String[] parts = name.substring(ROOT.length() + 1).split("/", -1);
    if (parts.length < 2) {
      return false;
    }
    for (String p : parts) {
      if (p.isEmpty() || p.equals(".") || p.equals("..")) {
        return false;
      }
    }
    return true;
  }
}
