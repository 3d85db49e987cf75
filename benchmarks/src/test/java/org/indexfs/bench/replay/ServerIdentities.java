package org.indexfs.bench.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.server.local.LocalCluster;

/**
 * What the replay tests' IndexFS servers know of their users, as {@link MiniHdfs} tells its
 * NameNode: the workload's groups (servers resolve groups themselves, DESIGN §14) and that the
 * login user may impersonate anyone (the replayer's proxy users).
 */
final class ServerIdentities {
  private ServerIdentities() {}

  static LocalCluster.Builder with(LocalCluster.Builder b) {
    String login;
    try {
      login = UserGroupInformation.getLoginUser().getShortUserName();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return b.set("hadoop.user.group.static.mapping.overrides",
            "alice=" + String.join(",", MixedWorkload.ALICE_GROUPS) + ";bob=" + String.join(",", MixedWorkload.BOB_GROUPS)
                + ";carol=" + String.join(",", MixedWorkload.CAROL_GROUPS))
        .set("hadoop.proxyuser." + login + ".hosts", "*")
        .set("hadoop.proxyuser." + login + ".groups", "*");
  }
}
