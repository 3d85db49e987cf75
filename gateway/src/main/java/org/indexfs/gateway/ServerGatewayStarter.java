package org.indexfs.gateway;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.indexfs.server.InProcessGateway;

/**
 * The gateway inside a server process ({@code indexfs.server.gateway.enabled=true}): configured by
 * the server's own settings, so it names the server's cluster and ZooKeeper, and its
 * {@code hadoop.proxyuser.*} rules (which Hadoop keeps once per process) are the server's.
 */
public final class ServerGatewayStarter implements InProcessGateway.Starter {
  @Override
  public InProcessGateway start(Map<String, String> conf) throws IOException {
    Configuration c = new Configuration();
    conf.forEach(c::set);
    Gateway gateway = Gateway.start(c);
    return new InProcessGateway() {
      @Override
      public URI uri() {
        return gateway.uri();
      }

      @Override
      public void close() {
        gateway.close();
      }
    };
  }
}
