package org.indexfs.server.local;

import java.net.InetAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.hdfs.server.namenode.AuditLogger;
import org.indexfs.server.audit.AuditLine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit logger of the NameNode that {@code bin/indexfs local --hdfs} embeds as its data tier
 * ({@code dfs.namenode.audit.loggers}). In that one process the IndexFS servers write their
 * records under HDFS's own audit logger name (so NameNode tooling reads them); the NameNode's
 * records (object-level commands) go to {@value #LOGGER_NAME} instead, in the same format, so the
 * two can be told apart ({@code namenode-audit.log} next to {@code hdfs-audit.log}).
 */
public final class NameNodeAuditLogger implements AuditLogger {
  public static final String LOGGER_NAME = "org.indexfs.local.NameNode.audit";
  private static final Logger AUDIT = LoggerFactory.getLogger(LOGGER_NAME);

  @Override
  public void initialize(Configuration conf) {}

  @Override
  public void logAuditEvent(boolean succeeded, String userName, InetAddress addr, String cmd, String src, String dst,
      FileStatus stat) {
    if (AUDIT.isInfoEnabled()) {
      String perm = stat == null ? null : stat.getOwner() + ":" + stat.getGroup() + ":" + stat.getPermission();
      AUDIT.info(AuditLine.format(succeeded, userName, addr, cmd, src, dst, perm));
    }
  }
}
