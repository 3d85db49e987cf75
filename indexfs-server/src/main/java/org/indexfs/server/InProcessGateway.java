package org.indexfs.server;

import java.io.IOException;
import java.net.URI;
import java.util.Iterator;
import java.util.Map;
import java.util.ServiceLoader;
import org.indexfs.common.IndexFsConfig;

/**
 * A NameNode-protocol gateway run inside a server process ({@code indexfs.server.gateway.enabled}).
 * The gateway module is built after this one (it uses the server's embedded cluster), so the
 * server finds it on its classpath ({@link ServiceLoader}) rather than naming it.
 */
public interface InProcessGateway extends AutoCloseable {
  /** Starts a gateway for the cluster a server process is configured for. */
  interface Starter {
    InProcessGateway start(Map<String, String> conf) throws IOException;
  }

  /** Where hdfs:// clients reach it. */
  URI uri();

  @Override
  void close();

  /** The gateway {@code conf} asks for, started; null when it asks for none. */
  static InProcessGateway startIfEnabled(Map<String, String> conf) throws IOException {
    if (!IndexFsConfig.SERVER_GATEWAY_ENABLED.get(conf)) {
      return null;
    }
    Iterator<Starter> starters = ServiceLoader.load(Starter.class, InProcessGateway.class.getClassLoader()).iterator();
    if (!starters.hasNext()) {
      throw new IOException(IndexFsConfig.SERVER_GATEWAY_ENABLED.name() + " is true but the gateway module is not on"
          + " this server's classpath (bin/indexfs server puts it there; else add gateway-*.jar)");
    }
    return starters.next().start(conf);
  }
}
