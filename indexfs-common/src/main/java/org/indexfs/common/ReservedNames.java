package org.indexfs.common;

import java.util.List;
import org.indexfs.proto.Code;

/**
 * The names HDFS keeps for itself, refused as the NameNode refuses them (its words): a component
 * {@code .snapshot} anywhere (snapshot paths), and {@code /.reserved} (raw and inode-id paths).
 * Nothing of either name is ever created, so reads need no rule of their own: such a path is simply
 * not found.
 */
public final class ReservedNames {
  public static final String DOT_SNAPSHOT = ".snapshot";
  public static final String DOT_RESERVED = ".reserved";

  private ReservedNames() {}

  /** Before creating the entries of {@code names} (mkdirs, create, a rename's destination). */
  public static void checkCreatable(List<String> names) throws IndexFsException {
    if (!names.isEmpty() && names.get(0).equals(DOT_RESERVED)) {
      throw new IndexFsException(Code.RESERVED_NAME, "File name \"" + DOT_RESERVED + "\" is reserved and cannot be"
          + " created. If this is during upgrade change the name of the existing file or directory to another"
          + " name before upgrading to the new release.");
    }
    for (String n : names) {
      if (n.equals(DOT_SNAPSHOT)) {
        throw new IndexFsException(Code.RESERVED_NAME, "\"" + DOT_SNAPSHOT + "\" is a reserved name.");
      }
    }
  }

  /** True for {@code /.reserved} and everything below it. */
  public static boolean isReserved(List<String> names) {
    return !names.isEmpty() && names.get(0).equals(DOT_RESERVED);
  }

  /** create or delete of /.reserved: HDFS's InvalidPathException (its message prefix included). */
  public static void refuseReservedPath(List<String> names, String path) throws IndexFsException {
    if (isReserved(names)) {
      throw new IndexFsException(Code.RESERVED_PATH, "Invalid path name " + path);
    }
  }

  /** A rename to or from /.reserved. */
  public static void refuseReservedRename(List<String> src, List<String> dst) throws IndexFsException {
    if (isReserved(src) || isReserved(dst)) {
      throw new IndexFsException(Code.RESERVED_PATH, "Invalid path name Cannot rename to or from /" + DOT_RESERVED);
    }
  }
}
