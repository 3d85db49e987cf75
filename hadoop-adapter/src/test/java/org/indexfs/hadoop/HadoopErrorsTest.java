package org.indexfs.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import org.apache.hadoop.fs.ClusterStorageCapacityExceededException;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.junit.jupiter.api.Test;

/** The codes added for self-healing servers reach Hadoop callers as the exceptions HDFS uses. */
class HadoopErrorsTest {
  @Test
  void aFullMetadataDiskIsAStorageCapacityError() {
    IndexFsException full = new IndexFsException(Code.NO_SPACE, "Cannot create file /x: IndexFS slot 0 is low on metadata space");
    IOException mapped = HadoopErrors.toHadoop(full);
    assertInstanceOf(ClusterStorageCapacityExceededException.class, mapped);
    assertEquals(full.getMessage(), mapped.getMessage());
    assertSame(full, mapped.getCause());
  }
}
