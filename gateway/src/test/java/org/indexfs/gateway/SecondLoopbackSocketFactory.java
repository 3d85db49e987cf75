package org.indexfs.gateway;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.apache.hadoop.net.StandardSocketFactory;

/**
 * Hadoop RPC sockets that leave from 127.0.0.2 (hadoop.rpc.socket.factory.class.default): a client
 * on the same machine as the gateway, but with an address of its own, so a test can tell which
 * address a server saw.
 */
public final class SecondLoopbackSocketFactory extends StandardSocketFactory {
  public static final String ADDRESS = "127.0.0.2";

  @Override
  public Socket createSocket() throws IOException {
    Socket s = super.createSocket();
    s.bind(new InetSocketAddress(ADDRESS, 0));
    return s;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SecondLoopbackSocketFactory;
  }

  @Override
  public int hashCode() {
    return SecondLoopbackSocketFactory.class.hashCode();
  }
}
