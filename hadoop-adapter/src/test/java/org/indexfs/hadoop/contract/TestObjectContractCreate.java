package org.indexfs.hadoop.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractCreateTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** The Create suite with every file in an HDFS object (indexfs.inline.max-bytes=0). */
public class TestObjectContractCreate extends AbstractContractCreateTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return IndexFsContract.objectsOnly(conf);
  }
}
