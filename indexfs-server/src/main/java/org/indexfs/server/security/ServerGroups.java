package org.indexfs.server.security;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.security.Groups;
import org.indexfs.server.Blocking;

/**
 * Group membership as the NameNode learns it: from Hadoop's group mapping
 * ({@code hadoop.security.group.mapping}, {@code hadoop.user.group.static.mapping.overrides}, the
 * {@link Groups} cache) configured on the server, never from the groups a client sends.
 *
 * <p>This server's own {@link Groups} instance, not the process-wide one, so servers sharing a JVM
 * (tests, {@code bin/indexfs local --servers N}) each follow their own configuration. A resolution
 * Hadoop still has to make (a shell or LDAP lookup) may wait, so it never runs on an I/O thread:
 * the users resolved lately are kept here for as long as Hadoop's own cache keeps them.
 */
public final class ServerGroups {
  private final Groups groups;
  private final long ttlNanos;
  private final ConcurrentHashMap<String, Known> recent = new ConcurrentHashMap<>();
  private final int maxRecent;

  private record Known(List<String> groups, long until) {}

  public ServerGroups(Configuration conf) {
    this.groups = new Groups(conf);
    this.ttlNanos = conf.getLong(CommonConfigurationKeys.HADOOP_SECURITY_GROUPS_CACHE_SECS,
        CommonConfigurationKeys.HADOOP_SECURITY_GROUPS_CACHE_SECS_DEFAULT) * 1_000_000_000L;
    this.maxRecent = 10_000;
  }

  /** The groups of {@code user} (empty when the mapping knows none), first group first. */
  public List<String> groupsOf(String user) {
    long now = System.nanoTime();
    Known k = recent.get(user);
    if (k != null && now - k.until < 0) {
      return k.groups;
    }
    Blocking.check("resolving the groups of " + user);
    List<String> resolved;
    try {
      resolved = List.copyOf(groups.getGroups(user));
    } catch (IOException noGroups) {
      // Hadoop's answer for a user the mapping does not know: no groups (HDFS carries on so too).
      resolved = List.of();
    }
    if (recent.size() >= maxRecent) {
      recent.clear();
    }
    recent.put(user, new Known(resolved, now + ttlNanos));
    return resolved;
  }
}
