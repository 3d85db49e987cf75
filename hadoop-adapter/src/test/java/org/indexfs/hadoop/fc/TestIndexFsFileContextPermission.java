package org.indexfs.hadoop.fc;

import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileContextPermissionBase;
import org.apache.hadoop.fs.FileContextTestHelper;
import org.indexfs.hadoop.IndexFsTestCluster;

/** Hadoop's FileContext permission suite against {@code IndexFs} on the shared cluster. */
public class TestIndexFsFileContextPermission extends FileContextPermissionBase {
  /** One FileContext for the class: the base class asks for it before every test. */
  private static FileContext shared;

  @Override
  protected FileContextTestHelper getFileContextHelper() {
    return new FileContextTestHelper("/fc-permission");
  }

  @Override
  protected FileContext getFileContext() throws Exception {
    synchronized (TestIndexFsFileContextPermission.class) {
      if (shared == null) {
        shared = FileContext.getFileContext(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
      }
      return shared;
    }
  }
}
