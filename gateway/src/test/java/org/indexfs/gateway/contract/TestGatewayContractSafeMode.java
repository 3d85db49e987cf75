package org.indexfs.gateway.contract;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractSafeModeTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

public class TestGatewayContractSafeMode extends AbstractContractSafeModeTest {
  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new GatewayContract(conf);
  }
}
