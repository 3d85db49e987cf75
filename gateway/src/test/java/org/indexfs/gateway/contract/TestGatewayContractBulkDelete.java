package org.indexfs.gateway.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractBulkDeleteTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

public class TestGatewayContractBulkDelete extends AbstractContractBulkDeleteTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new GatewayContract(conf);
  }
}
