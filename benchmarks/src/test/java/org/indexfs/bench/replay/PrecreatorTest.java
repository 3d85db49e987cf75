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
  void entriesAreBuiltEmptyWithTheirOwnersGroupsAndModesAndFailuresAreCounted(@TempDir Path dir) throws Exception {
    MixedWorkload.registerUsers();
    try (LocalCluster cluster = ServerIdentities.with(LocalCluster.builder(dir)).start()) {
      Configuration conf = new Configuration();
      cluster.clientConf().forEach(conf::set);
      URI uri = URI.create(cluster.defaultFs());
      List<PrecreatePlan.Entry> plan = List.of(
          new PrecreatePlan.Entry("/warehouse", true, null),
          new PrecreatePlan.Entry("/warehouse/t1", true, "bob"),
          new PrecreatePlan.Entry("/warehouse/t1/part-0", false, "alice"),
          new PrecreatePlan.Entry("/private", true, "alice", "analysts", 0700),
          new PrecreatePlan.Entry("/private/notes", false, "alice", null, 0640),
          new PrecreatePlan.Entry("/warehouse/t1/part-0/below-a-file", false, "alice"));
      Precreator.Result result;
      try (Identities ids = new Identities(uri, TraceReplay.replayConf(conf), Impersonation.PROXY, null)) {
        result = new Precreator(ids, 4).build(plan, null);
      }
      assertEquals(5, result.made(), () -> result.failures().toString());
      assertEquals(1, result.failed(), () -> "one entry cannot be made, and the build goes on: " + result.failures());
      try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
        String login = UserGroupInformation.getLoginUser().getShortUserName();
        assertEquals("d " + login + " rwxrwxrwx", describe(fs.getFileStatus(new org.apache.hadoop.fs.Path("/warehouse"))));
        assertEquals("d bob rwxrwxrwx", describe(fs.getFileStatus(new org.apache.hadoop.fs.Path("/warehouse/t1"))));
        assertEquals("f alice rw-rw-rw- 0",
            describe(fs.getFileStatus(new org.apache.hadoop.fs.Path("/warehouse/t1/part-0"))));
        FileStatus priv = fs.getFileStatus(new org.apache.hadoop.fs.Path("/private"));
        assertEquals("d alice rwx------ analysts", describe(priv) + " " + priv.getGroup());
        assertEquals("f alice rw-r----- 0", describe(fs.getFileStatus(new org.apache.hadoop.fs.Path("/private/notes"))));
      }
    }
  }

  private static String describe(FileStatus s) {
    return (s.isDirectory() ? "d " : "f ") + s.getOwner() + " " + s.getPermission() + (s.isDirectory() ? "" : " " + s.getLen());
  }
}
