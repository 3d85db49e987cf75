package org.indexfs.hadoop.fc;

import java.io.IOException;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileContextCreateMkdirBaseTest;
import org.apache.hadoop.fs.FileContextTestHelper;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.junit.jupiter.api.BeforeAll;

/** Hadoop's FileContext create/mkdir suite against {@code IndexFs} on the shared cluster. */
public class TestIndexFsFileContextCreateMkdir extends FileContextCreateMkdirBaseTest {
  @BeforeAll
  static void bindFileContext() throws IOException {
    fc = FileContext.getFileContext(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
  }

  @Override
  protected FileContextTestHelper createFileContextHelper() {
    return new FileContextTestHelper("/fc-create-mkdir");
  }
}
