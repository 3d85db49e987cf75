package org.indexfs.server.security;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * The Hadoop configuration security follows on a server: Hadoop's defaults and the
 * {@code core-site.xml} on its classpath, overlaid with every key the server was started with, so
 * the group mapping, {@code hadoop.proxyuser.*} and {@code hadoop.security.*} keys go in the same
 * {@code indexfs-site.xml} (or {@code -D}) as the server's own.
 */
public final class HadoopSettings {
  private HadoopSettings() {}

  public static Configuration of(Map<String, String> serverConf) {
    Configuration conf = new Configuration();
    serverConf.forEach(conf::set);
    return conf;
  }
}
