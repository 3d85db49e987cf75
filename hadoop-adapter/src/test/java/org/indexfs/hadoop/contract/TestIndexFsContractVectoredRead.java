package org.indexfs.hadoop.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractVectoredReadTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Vectored reads through FileSystem's default implementation over our positioned reads. */
public class TestIndexFsContractVectoredRead extends AbstractContractVectoredReadTest {
  public TestIndexFsContractVectoredRead(String bufferType) {
    super(bufferType);
  }

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new IndexFsContract(conf);
  }
}
