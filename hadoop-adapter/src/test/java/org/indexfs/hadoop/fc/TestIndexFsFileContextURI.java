package org.indexfs.hadoop.fc;

import java.io.IOException;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileContextURIBase;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * Hadoop's FileContext URI suite: two FileContexts on the same indexfs cluster see one namespace.
 * Excluded: {@code testFileStatus}, which wants {@code getFsStatus().getUsed() > 0}; IndexFileSystem
 * does not report an FsStatus yet (FileSystem's default says used=0).
 */
public class TestIndexFsFileContextURI extends FileContextURIBase {
  private static FileContext first;
  private static FileContext second;

  @BeforeAll
  static void bindFileContexts() throws IOException {
    first = FileContext.getFileContext(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
    second = FileContext.getFileContext(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
  }

  @BeforeEach
  @Override
  public void setUp() throws Exception {
    fc1 = first;
    fc2 = second;
    super.setUp();
  }
}
