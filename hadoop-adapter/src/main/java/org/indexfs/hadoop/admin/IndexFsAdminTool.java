package org.indexfs.hadoop.admin;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.Tool;

/** {@code indexfs admin} as a Hadoop {@link Tool}, printing to System.out and System.err (for scripts and tests). */
public final class IndexFsAdminTool {
  private IndexFsAdminTool() {}

  public static Tool create(Configuration conf) {
    return new IndexFsAdmin(conf, System.out, System.err);
  }
}
