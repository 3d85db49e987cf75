package org.indexfs.bench.report;

/** HTML text escaping for report pages. */
final class Html {
  private Html() {}

  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
