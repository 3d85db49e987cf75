package org.indexfs.hadoop.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractVectoredReadTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** The VectoredRead suite with every file in an HDFS object (indexfs.inline.max-bytes=0). */
public class TestObjectContractVectoredRead extends AbstractContractVectoredReadTest {
  public TestObjectContractVectoredRead(String bufferType) {
    super(bufferType);
  }

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return IndexFsContract.objectsOnly(conf);
  }
}
