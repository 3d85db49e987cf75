package org.indexfs.common;

/** ZooKeeper layout of a cluster (DESIGN §8): {@code /indexfs/<cluster>/...}. */
public final class ClusterPaths {
  private ClusterPaths() {}

  public static String root(String cluster) {
    return "/indexfs/" + cluster;
  }

  /** Cluster-wide settings: slot count and format version. */
  public static String config(String cluster) {
    return root(cluster) + "/config";
  }

  public static String slots(String cluster) {
    return root(cluster) + "/slots";
  }

  /** The lease of slot k: a leader latch whose leader is the one process serving the slot. */
  public static String lease(String cluster, int slot) {
    return root(cluster) + "/leases/" + slot;
  }

  /**
   * The epoch of slot k: bumped by every process that becomes the slot's writer, so a writer that
   * lost its lease can tell on its return whether another took over meanwhile (DESIGN §11).
   */
  public static String epoch(String cluster, int slot) {
    return root(cluster) + "/epochs/" + slot;
  }

  /** A planned handover of slot k: the server that should take it next, and until when. */
  public static String handover(String cluster, int slot) {
    return root(cluster) + "/handover/" + slot;
  }

  /** The standbys of slot k, one ephemeral node each (name → how far it replayed). */
  public static String standbys(String cluster, int slot) {
    return root(cluster) + "/standbys/" + slot;
  }

  /** The owner of slot k publishes its address here. */
  public static String slot(String cluster, int slot) {
    return slots(cluster) + "/" + slot;
  }

  /** A slot's entry count, refreshed by its server: what directory placement compares. */
  public static String load(String cluster, int slot) {
    return root(cluster) + "/load/" + slot;
  }

  /** The lock every directory rename of a many-slot cluster holds (no cycles across slots). */
  public static String renameLock(String cluster) {
    return root(cluster) + "/locks/rename";
  }

  /**
   * Safe mode (bin/indexfs admin -safemode): while this node exists every server of the cluster
   * refuses mutations. One switch for the whole cluster, since a namespace half read-only is not
   * a maintenance state.
   */
  public static String safeMode(String cluster) {
    return root(cluster) + "/safemode";
  }

  /**
   * The keys that seal the ancestors servers hand out (DESIGN §14); readable by the servers only when
   * {@code indexfs.security.zookeeper.digest} (or ZooKeeper SASL) protects it.
   */
  public static String resolutionKeys(String cluster) {
    return root(cluster) + "/security/resolution-keys";
  }

  /** The {@code host:port} of slot k's status page (ephemeral, absent when its HTTP port is off). */
  public static String http(String cluster, int slot) {
    return root(cluster) + "/http/" + slot;
  }

  /** The {@code host:port} a server publishes at {@link #slot}. */
  public static java.net.InetSocketAddress address(byte[] published) {
    String hostPort = new String(published, java.nio.charset.StandardCharsets.UTF_8);
    int colon = hostPort.lastIndexOf(':');
    return new java.net.InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
  }
}
