package org.indexfs.server.security;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.MachineList;
import org.apache.hadoop.util.StringUtils;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;

/**
 * Who may act for whom ({@code hadoop.proxyuser.<real>.users|groups|hosts}), with the rules and the
 * words of Hadoop's {@code DefaultImpersonationProvider}: a real user with no entry may impersonate
 * nobody; the effective user must be listed or in a listed group (groups as this server resolves
 * them); the connection must come from a listed host.
 *
 * <p>Hadoop's provider asks the process-wide UGI group mapping for the effective user's groups; this
 * one is given the groups the server resolved, so every server in a JVM follows its own mapping.
 */
public final class ProxyUserRule {
  private static final String PREFIX = "hadoop.proxyuser.";

  private record Acl(Set<String> users, Set<String> groups, boolean anyUser, boolean anyGroup) {
    boolean allows(String user, List<String> userGroups) {
      if (anyUser || anyGroup || users.contains(user)) {
        return true;
      }
      for (String g : userGroups) {
        if (groups.contains(g)) {
          return true;
        }
      }
      return false;
    }
  }

  private final Map<String, Acl> acls = new HashMap<>();
  private final Map<String, MachineList> hosts = new HashMap<>();

  public ProxyUserRule(Configuration conf) {
    Map<String, String> keys = conf.getValByRegex("^" + PREFIX.replace(".", "\\.") + "[^.]+\\.(users|groups|hosts)$");
    Map<String, String[]> usersAndGroups = new HashMap<>();
    for (Map.Entry<String, String> e : keys.entrySet()) {
      String rest = e.getKey().substring(PREFIX.length());
      int dot = rest.lastIndexOf('.');
      String real = rest.substring(0, dot);
      String kind = rest.substring(dot + 1);
      if (kind.equals("hosts")) {
        hosts.put(real, new MachineList(e.getValue()));
      } else {
        String[] ug = usersAndGroups.computeIfAbsent(real, r -> new String[2]);
        ug[kind.equals("users") ? 0 : 1] = e.getValue();
      }
    }
    usersAndGroups.forEach((real, ug) -> acls.put(real, new Acl(set(ug[0]), set(ug[1]),
        "*".equals(trim(ug[0])), "*".equals(trim(ug[1])))));
  }

  private static String trim(String s) {
    return s == null ? null : s.trim();
  }

  private static Set<String> set(String list) {
    Collection<String> c = StringUtils.getTrimmedStringCollection(list == null ? "" : list);
    return Set.copyOf(c);
  }

  /**
   * Refuses unless {@code realShortName} may act for {@code user} (whose groups are {@code groups})
   * from {@code remoteAddress}; the messages are Hadoop's.
   */
  public void authorize(String realShortName, String realFullName, String user, List<String> groups,
      String remoteAddress) throws IndexFsException {
    Acl acl = acls.get(realShortName);
    if (acl == null || !acl.allows(user, groups)) {
      throw new IndexFsException(Code.NOT_AUTHORIZED,
          "User: " + realFullName + " is not allowed to impersonate " + user);
    }
    MachineList from = hosts.get(realShortName);
    if (from == null || !from.includes(remoteAddress)) {
      throw new IndexFsException(Code.NOT_AUTHORIZED,
          "Unauthorized connection for super-user: " + realFullName + " from IP " + remoteAddress);
    }
  }
}
