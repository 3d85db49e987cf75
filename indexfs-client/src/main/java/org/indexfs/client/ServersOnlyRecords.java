package org.indexfs.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.indexfs.common.ClusterPaths;

/**
 * A client's check that a cluster's slot map in ZooKeeper was written by its servers before it
 * believes an address there and sends anything to it (issue 31): the cluster's root and its
 * {@code slots} node may be changed by exactly one authenticated ZooKeeper identity — the servers'
 * ({@code indexfs.security.zookeeper.server-id} when the client knows it) — so nobody else can have
 * created, replaced or redirected a slot record below them. With Kerberos the connection's mutual
 * authentication proves the server's principal as well.
 */
final class ServersOnlyRecords {
  /** Identities that ZooKeeper authenticates; {@code world}, {@code ip} and the like prove no one. */
  private static final Set<String> AUTHENTICATED = Set.of("digest", "sasl", "x509");

  private ServersOnlyRecords() {}

  /** Refuses {@code cluster} unless only one authenticated identity ({@code expected}, if set) can change its slot map. */
  static void check(CuratorFramework curator, String cluster, String expected) throws IOException {
    Id writer = null;
    for (String path : List.of(ClusterPaths.root(cluster), ClusterPaths.slots(cluster))) {
      List<ACL> acl;
      try {
        acl = curator.getACL().forPath(path);
      } catch (KeeperException.NoNodeException none) {
        continue; // nothing registered there (yet): nothing to believe
      } catch (Exception e) {
        throw new IOException("Cannot read the ACL of " + path + " in ZooKeeper: " + e, e);
      }
      for (ACL a : acl) {
        if ((a.getPerms() & ~ZooDefs.Perms.READ) == 0) {
          continue;
        }
        boolean alone = writer == null || writer.equals(a.getId());
        String id = a.getId().getScheme() + ":" + a.getId().getId();
        if (!alone || !AUTHENTICATED.contains(a.getId().getScheme()) || !expected.isEmpty() && !matches(expected, id)) {
          throw new IOException("Refusing IndexFS cluster '" + cluster + "': its slot map in ZooKeeper could be"
              + " written by someone other than its servers (" + path + " lets " + describe(acl) + " change it"
              + (expected.isEmpty() ? "" : "; the servers are " + expected) + ")");
        }
        writer = a.getId();
      }
    }
  }

  /**
   * ZooKeeper 3.9 shows a digest identity's hash only to callers with ADMIN on the node
   * (ZOOKEEPER-1392): a plain client sees {@code digest:<user>:x}. Then only the user can be
   * compared; the one-writer rule above still holds. A squatter would have to create the cluster's
   * root before its servers first did, under a digest user named as theirs (docs/security.md).
   */
  static boolean matches(String expected, String id) {
    if (expected.equals(id)) {
      return true;
    }
    int user = expected.lastIndexOf(':');
    return id.startsWith("digest:") && id.endsWith(":x") && expected.startsWith("digest:") && user > 7
        && id.equals(expected.substring(0, user) + ":x");
  }

  private static String describe(List<ACL> acl) {
    List<String> out = new ArrayList<>();
    for (ACL a : acl) {
      out.add(a.getId().getScheme() + ":" + a.getId().getId() + " (perms " + a.getPerms() + ")");
    }
    return String.join(", ", out);
  }
}
