package org.indexfs.common;

/**
 * POSIX-style permission bits as HDFS keeps them: 9 rwx bits plus the sticky bit (01000).
 * Actions are 3-bit masks: READ=4, WRITE=2, EXECUTE=1.
 */
public final class Permission {
  public static final int READ = 4;
  public static final int WRITE = 2;
  public static final int EXECUTE = 1;
  public static final int ALL = 7;
  public static final int READ_EXECUTE = READ | EXECUTE;
  public static final int WRITE_EXECUTE = WRITE | EXECUTE;

  public static final int STICKY = 01000;
  public static final int MASK = 01777;
  public static final int DEFAULT_DIR = 0755;
  public static final int DEFAULT_FILE = 0644;

  private Permission() {}

  public static boolean isSticky(int mode) {
    return (mode & STICKY) != 0;
  }

  public static int ownerBits(int mode) {
    return (mode >> 6) & 7;
  }

  public static int groupBits(int mode) {
    return (mode >> 3) & 7;
  }

  public static int otherBits(int mode) {
    return mode & 7;
  }

  /**
   * The mode of an implicitly created parent (FSDirMkdirOp.addImplicitUwx): the rwx bits of
   * {@code mode} plus u+wx so the creator can keep going; HDFS rebuilds it from the user, group
   * and other actions alone, so the sticky bit is never passed on.
   */
  public static int withImplicitUserWriteExecute(int mode) {
    return (mode & 0777) | 0300;
  }

  /** "rwxr-x---" style, with 't'/'T' for the sticky bit, as in HDFS messages. */
  public static String symbolic(boolean directory, int mode) {
    StringBuilder sb = new StringBuilder(10);
    sb.append(directory ? 'd' : '-');
    for (int shift = 6; shift >= 0; shift -= 3) {
      int bits = (mode >> shift) & 7;
      sb.append((bits & READ) != 0 ? 'r' : '-');
      sb.append((bits & WRITE) != 0 ? 'w' : '-');
      boolean x = (bits & EXECUTE) != 0;
      if (shift == 0 && isSticky(mode)) {
        sb.append(x ? 't' : 'T');
      } else {
        sb.append(x ? 'x' : '-');
      }
    }
    return sb.toString();
  }

  public static String actionName(int action) {
    StringBuilder sb = new StringBuilder();
    sb.append((action & READ) != 0 ? 'r' : '-');
    sb.append((action & WRITE) != 0 ? 'w' : '-');
    sb.append((action & EXECUTE) != 0 ? 'x' : '-');
    switch (sb.toString()) {
      case "r--": return "READ";
      case "-w-": return "WRITE";
      case "--x": return "EXECUTE";
      case "r-x": return "READ_EXECUTE";
      case "-wx": return "WRITE_EXECUTE";
      case "rw-": return "READ_WRITE";
      case "rwx": return "ALL";
      default: return "NONE";
    }
  }
}
