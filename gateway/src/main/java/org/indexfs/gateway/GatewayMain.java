package org.indexfs.gateway;

import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * {@code bin/indexfs gateway [--conf FILE ...] [-D key=value ...]}: one NameNode-protocol gateway
 * until stopped. The files are Hadoop configuration files (core-site.xml, hdfs-site.xml,
 * indexfs-site.xml ...) naming the IndexFS cluster ({@code indexfs.cluster.name},
 * {@code indexfs.zookeeper.quorum} or {@code indexfs.cluster.<name>.zookeeper}), the gateway's address
 * ({@code indexfs.gateway.bind-host}, {@code indexfs.gateway.port}) and the data tier's HDFS client
 * settings. Prints {@code INDEXFS_GATEWAY_READY hdfs://host:port} once it serves.
 */
public final class GatewayMain {
  private GatewayMain() {}

  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--conf" -> conf.addResource(new Path(args[++i]));
        case "-D" -> {
          String[] kv = args[++i].split("=", 2);
          conf.set(kv[0], kv.length > 1 ? kv[1] : "");
        }
        default -> {
          System.err.println("Unknown argument " + args[i] + "\nUsage: indexfs gateway [--conf FILE ...] [-D key=value ...]");
          System.exit(2);
        }
      }
    }
    Gateway gateway;
    try {
      gateway = Gateway.start(conf);
    } catch (Exception e) {
      System.err.println("indexfs gateway: " + e.getMessage());
      System.exit(1);
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runnable stop = () -> {
      gateway.close();
      stopped.countDown();
    };
    for (String signal : new String[] {"INT", "TERM"}) {
      sun.misc.Signal.handle(new sun.misc.Signal(signal), s -> new Thread(stop, "indexfs-gateway-stop").start());
    }
    System.out.println("INDEXFS_GATEWAY_READY " + gateway.uri());
    System.out.println("hdfs:// clients (fs.defaultFS=" + gateway.uri() + ") now use IndexFS; Ctrl-C stops.");
    System.out.flush();
    stopped.await();
    System.exit(0);
  }
}
