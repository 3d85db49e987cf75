package org.indexfs.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.Map;
import org.indexfs.common.IndexFsConfig;
import org.junit.jupiter.api.Test;

/**
 * indexfs.server.gateway.enabled without the gateway module on the classpath (this module's tests
 * have none): the server process refuses to start, saying why, instead of running without the
 * hdfs:// endpoint it was asked for. (The gateway module's GatewayInServerProcessTest runs one.)
 */
class InProcessGatewayTest {
  @Test
  void askedForWithoutTheGatewayModuleItFailsSayingWhy() {
    IOException e = assertThrows(IOException.class,
        () -> InProcessGateway.startIfEnabled(Map.of(IndexFsConfig.SERVER_GATEWAY_ENABLED.name(), "true")));
    assertEquals("indexfs.server.gateway.enabled is true but the gateway module is not on this server's classpath"
        + " (bin/indexfs server puts it there; else add gateway-*.jar)", e.getMessage());
  }

  @Test
  void notAskedForNothingStarts() throws IOException {
    assertNull(InProcessGateway.startIfEnabled(Map.of()));
  }
}
