package org.indexfs.hadoop.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractUnbufferTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** The Unbuffer suite with every file in an HDFS object (indexfs.inline.max-bytes=0). */
public class TestObjectContractUnbuffer extends AbstractContractUnbufferTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return IndexFsContract.objectsOnly(conf);
  }
}
