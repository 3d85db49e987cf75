package org.indexfs.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The IndexFS servers' audit log, record by record, against what HDFS's NameNode writes. */
class IndexFsAuditLogTest {
  private static org.apache.hadoop.fs.Path p(String s) {
    return new org.apache.hadoop.fs.Path(s);
  }

  private static List<String> records(Path dir, boolean enabled) throws Exception {
    MixedWorkload.registerUsers();
    UserGroupInformation login = UserGroupInformation.getLoginUser();
    UserGroupInformation alice = UserGroupInformation.createProxyUserForTesting("alice", login,
        MixedWorkload.ALICE_GROUPS);
    try (AuditCapture capture = new AuditCapture()) {
      try (LocalCluster cluster = ServerIdentities.with(LocalCluster.builder(dir)).set("indexfs.audit.enabled", String.valueOf(enabled)).start()) {
        Configuration conf = new Configuration();
        cluster.clientConf().forEach(conf::set);
        conf.set("fs.permissions.umask-mode", "022");
        try (FileSystem root = FileSystem.newInstance(conf)) {
          root.mkdirs(p("/a/sub"), new FsPermission((short) 0777));
          root.setPermission(p("/a"), new FsPermission((short) 0777));
          root.setPermission(p("/a/sub"), new FsPermission((short) 0777));
        }
        alice.doAs((PrivilegedExceptionAction<Void>) () -> {
          try (FileSystem fs = FileSystem.newInstance(conf)) {
            fs.create(p("/a/f")).close();
            fs.rename(p("/a/f"), p("/a/sub")); // into the directory
            assertFalse(fs.rename(p("/a/missing"), p("/a/x"))); // refused quietly: not audited
            assertFalse(fs.setReplication(p("/a/sub"), (short) 2)); // a directory: not audited
            assertFalse(fs.delete(p("/a/missing"), false)); // audited, allowed=false
            fs.getFileStatus(p("/a/sub/f"));
          }
          return null;
        });
      }
      return capture.lines();
    }
  }

  @Test
  void recordsFollowNameNodeRules(@TempDir Path dir) throws Exception {
    String via = " (auth:PROXY) via " + UserGroupInformation.getLoginUser().getUserName() + " (auth:SIMPLE)";
    List<String> lines = records(dir, true).stream()
        .map(l -> l.substring(l.indexOf(" INFO FSNamesystem.audit: ") + 26)).toList();
    String root = UserGroupInformation.getLoginUser().getShortUserName();
    assertThat(lines).containsExactly(
        "allowed=true\tugi=" + root + " (auth:SIMPLE)\tip=/127.0.0.1\tcmd=mkdirs\tsrc=/a/sub\tdst=null\tperm="
            + root + ":supergroup:rwxr-xr-x\tproto=rpc",
        "allowed=true\tugi=" + root + " (auth:SIMPLE)\tip=/127.0.0.1\tcmd=setPermission\tsrc=/a\tdst=null\tperm="
            + root + ":supergroup:rwxrwxrwx\tproto=rpc",
        "allowed=true\tugi=" + root + " (auth:SIMPLE)\tip=/127.0.0.1\tcmd=setPermission\tsrc=/a/sub\tdst=null\tperm="
            + root + ":supergroup:rwxrwxrwx\tproto=rpc",
        "allowed=true\tugi=alice" + via + "\tip=/127.0.0.1\tcmd=create\tsrc=/a/f\tdst=null"
            + "\tperm=alice:supergroup:rw-r--r--\tproto=rpc",
        "allowed=true\tugi=alice" + via + "\tip=/127.0.0.1\tcmd=rename\tsrc=/a/f\tdst=/a/sub"
            + "\tperm=alice:supergroup:rw-r--r--\tproto=rpc",
        "allowed=false\tugi=alice" + via + "\tip=/127.0.0.1\tcmd=delete\tsrc=/a/missing\tdst=null\tperm=null\tproto=rpc",
        "allowed=true\tugi=alice" + via + "\tip=/127.0.0.1\tcmd=getfileinfo\tsrc=/a/sub/f\tdst=null\tperm=null\tproto=rpc");
  }

  @Test
  void turningTheAuditLogOffWritesNothing(@TempDir Path dir) throws Exception {
    assertThat(records(dir, false)).isEmpty();
  }
}
