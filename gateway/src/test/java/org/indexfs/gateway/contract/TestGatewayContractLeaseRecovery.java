package org.indexfs.gateway.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractLeaseRecoveryTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

public class TestGatewayContractLeaseRecovery extends AbstractContractLeaseRecoveryTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new GatewayContract(conf);
  }
}
