package org.indexfs.bench.replay;

/** HDFS's symbolic modes ({@code rwxr-x--T}) as the audit log prints them, to and from bits. */
final class Modes {
  private Modes() {}

  static int parse(String symbolic) {
    int mode = 0;
    for (int i = 0; i < 9; i++) {
      char c = symbolic.charAt(i);
      int bit = 1 << (8 - i);
      if (c == 't') {
        mode |= bit | 01000;
      } else if (c == 'T') {
        mode |= 01000;
      } else if (c != '-') {
        mode |= bit;
      }
    }
    return mode;
  }

  static String format(int mode) {
    String rwx = "rwxrwxrwx";
    StringBuilder sb = new StringBuilder(9);
    for (int i = 0; i < 9; i++) {
      sb.append((mode & (1 << (8 - i))) != 0 ? rwx.charAt(i) : '-');
    }
    if ((mode & 01000) != 0) {
      sb.setCharAt(8, (mode & 1) != 0 ? 't' : 'T');
    }
    return sb.toString();
  }
}
