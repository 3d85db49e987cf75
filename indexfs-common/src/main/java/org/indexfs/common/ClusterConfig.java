package org.indexfs.common;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * The cluster-wide settings fixed at format time, stored at {@code /indexfs/<cluster>/config}:
 * the number of slots (the namespace is spread over slots 0..N-1) and the format version.
 */
public record ClusterConfig(int slots, int formatVersion) {
  public static final int FORMAT_VERSION = 1;

  public ClusterConfig {
    if (slots < 1 || slots > (1 << InodeIds.SLOT_BITS)) {
      throw new IllegalArgumentException("slots must be between 1 and 65536, got " + slots);
    }
  }

  public static ClusterConfig ofSlots(int slots) {
    return new ClusterConfig(slots, FORMAT_VERSION);
  }

  public byte[] encode() {
    return ("slots=" + slots + "\nformat=" + formatVersion + "\n").getBytes(StandardCharsets.UTF_8);
  }

  public static ClusterConfig decode(byte[] data) throws IOException {
    Properties p = new Properties();
    p.load(new StringReader(new String(data, StandardCharsets.UTF_8)));
    try {
      int version = Integer.parseInt(p.getProperty("format", "0").trim());
      if (version != FORMAT_VERSION) {
        throw new IOException("Cluster format version " + version + " is not supported (expected " + FORMAT_VERSION + ")");
      }
      return new ClusterConfig(Integer.parseInt(p.getProperty("slots", "").trim()), version);
    } catch (NumberFormatException e) {
      throw new IOException("Malformed cluster config: " + p, e);
    }
  }
}
