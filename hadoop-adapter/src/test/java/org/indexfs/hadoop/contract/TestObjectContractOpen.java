package org.indexfs.hadoop.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractOpenTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** The Open suite with every file in an HDFS object (indexfs.inline.max-bytes=0). */
public class TestObjectContractOpen extends AbstractContractOpenTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return IndexFsContract.objectsOnly(conf);
  }
}
