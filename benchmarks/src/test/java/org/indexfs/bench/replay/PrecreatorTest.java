package org.indexfs.bench.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrecreatorTest {

  @Test
  void entriesAreBuiltPermissiveEmptyAndOwnedByTheirFirstUser(@TempDir Path dir) throws Exception {
    MixedWorkload.registerUsers();
    try (LocalCluster cluster = ServerIdentities.with(LocalCluster.builder(dir)).start()) {
      Configuration conf = new Configuration();
      cluster.clientConf().forEach(conf::set);
      URI uri = URI.create(cluster.defaultFs());
      List<PrecreatePlan.Entry> plan = List.of(
          new PrecreatePlan.Entry("/warehouse", true, null),
          new PrecreatePlan.Entry("/warehouse/t1", true, "bob"),
          new PrecreatePlan.Entry("/warehouse/t1/part-0", false, "alice"));
      try (Identities ids = new Identities(uri, TraceReplay.replayConf(conf), Impersonation.PROXY, null)) {
        new Precreator(ids, 4).build(plan);
      }
      try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
        String login = UserGroupInformation.getLoginUser().getShortUserName();
        assertEquals("d " + login + " rwxrwxrwx", describe(fs.getFileStatus(new org.apache.hadoop.fs.Path("/warehouse"))));
        assertEquals("d bob rwxrwxrwx", describe(fs.getFileStatus(new org.apache.hadoop.fs.Path("/warehouse/t1"))));
        assertEquals("f alice rw-rw-rw- 0",
            describe(fs.getFileStatus(new org.apache.hadoop.fs.Path("/warehouse/t1/part-0"))));
      }
    }
  }

  private static String describe(FileStatus s) {
    return (s.isDirectory() ? "d " : "f ") + s.getOwner() + " " + s.getPermission() + (s.isDirectory() ? "" : " " + s.getLen());
  }
}
