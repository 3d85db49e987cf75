package org.indexfs.common;

/**
 * Renders every key of {@link IndexFsConfig} as a Hadoop-style XML file with its default and
 * description. {@code conf/indexfs-site.xml} is this output; a test keeps the two identical.
 */
public final class ConfigDoc {
  private ConfigDoc() {}

  public static String render() {
    StringBuilder sb = new StringBuilder();
    sb.append("<?xml version=\"1.0\"?>\n")
        .append("<!--\n")
        .append("  IndexFS configuration: every key with its default. Generated from IndexFsConfig\n")
        .append("  (java -cp ... org.indexfs.common.ConfigDoc); edit values, not the list.\n")
        .append("  Clients read the same keys from their Hadoop configuration (core-site.xml).\n")
        .append("-->\n")
        .append("<configuration>\n");
    for (ConfigKey<?> key : IndexFsConfig.ALL) {
      sb.append("  <property>\n")
          .append("    <name>").append(key.name()).append("</name>\n")
          .append("    <value>").append(escape(String.valueOf(key.defaultValue()))).append("</value>\n")
          .append("    <description>").append(escape(key.description())).append("</description>\n")
          .append("  </property>\n");
    }
    sb.append("</configuration>\n");
    return sb.toString();
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  public static void main(String[] args) {
    System.out.print(render());
  }
}
