package org.indexfs.bench.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Settings both systems get alike. Groups: the workload's user ({@value #USER}) has a group from
 * Hadoop's static mapping and nobody else has any (NullGroupsMapping), so neither server ever
 * forks a shell to look a user up — a fork costs a slice dearly, and the two systems cache
 * failed lookups for different times.
 */
final class ClusterSettings {
  /** The user the workloads run as (owner of /bench), so both systems check permissions on every call. */
  static final String USER = "bench";

  private ClusterSettings() {}

  static Map<String, String> groupMapping() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("hadoop.security.group.mapping", "org.apache.hadoop.security.NullGroupsMapping");
    m.put("hadoop.user.group.static.mapping.overrides", USER + "=" + USER);
    return m;
  }

  /** {@link #groupMapping} as a server's {@code -D key=value} arguments. */
  static List<String> groupMappingArgs() {
    List<String> args = new ArrayList<>();
    groupMapping().forEach((k, v) -> {
      args.add("-D");
      args.add(k + "=" + v);
    });
    return args;
  }
}
