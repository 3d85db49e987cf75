package org.indexfs.hadoop.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractAppendTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** The Append suite with every file in an HDFS object (indexfs.inline.max-bytes=0). */
public class TestObjectContractAppend extends AbstractContractAppendTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return IndexFsContract.objectsOnly(conf);
  }
}
