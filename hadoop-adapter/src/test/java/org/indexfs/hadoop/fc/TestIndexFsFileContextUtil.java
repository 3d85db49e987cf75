package org.indexfs.hadoop.fc;

import java.io.IOException;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileContextUtilBase;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/** Hadoop's FileContext.Util suite (copy, recursive copy) against {@code IndexFs}. */
public class TestIndexFsFileContextUtil extends FileContextUtilBase {
  private static FileContext shared;

  @BeforeAll
  static void bindFileContext() throws IOException {
    shared = FileContext.getFileContext(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
  }

  @BeforeEach
  @Override
  public void setUp() throws Exception {
    fc = shared;
    super.setUp();
  }
}
