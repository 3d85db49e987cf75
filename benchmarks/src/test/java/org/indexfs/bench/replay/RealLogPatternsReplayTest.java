package org.indexfs.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.bench.report.BenchReport;
import org.indexfs.bench.report.Table;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19's must-show: a NameNode log with what real clusters log — {@code hadoop fs -put}'s
 * {@code _COPYING_} dance (its getfileinfo of the destination is audited allowed although nothing
 * is there), {@code put -f} over an existing file, a listStatus of a file, HBase's
 * {@code .snapshot} probes, an inode path, refusals of several kinds, Kerberos and proxy users,
 * commands and lines nothing can replay — replayed by {@code bin/indexfs replay} on the cluster
 * {@code bin/indexfs local --hdfs} runs: IndexFS, and the MiniDFSCluster beside it (whose
 * login user may impersonate, as the replay needs). Every record ends as the trace says on both:
 * the tool causes no difference on either.
 */
class RealLogPatternsReplayTest {
  private static final String KERBEROS = "alice@EXAMPLE.COM (auth:KERBEROS)";
  private static final String VIA_HUE = "alice (auth:PROXY) via hue/sandbox.example.com@EXAMPLE.COM (auth:KERBEROS)";
  private static final String BOB = "bob@EXAMPLE.COM (auth:KERBEROS)";
  private static final String HUE = "hue/sandbox.example.com@EXAMPLE.COM (auth:KERBEROS)";
  private static final String HBASE = "hbase/rs1.example.com@EXAMPLE.COM (auth:KERBEROS)";

  private final List<String> log = new ArrayList<>();

  private void add(boolean allowed, String ugi, String cmd, String src, String dst, String perm) {
    int s = log.size();
    log.add(String.format("2024-03-05 10:%02d:%02d,%03d INFO FSNamesystem.audit: allowed=%s\tugi=%s\tip=/10.1.2.3"
        + "\tcmd=%s\tsrc=%s\tdst=%s\tperm=%s\tproto=rpc\tcallerContext=CLI", s / 60, s % 60, s * 7 % 1000, allowed, ugi,
        cmd, src, dst, perm));
  }

  private void ok(String ugi, String cmd, String src) {
    add(true, ugi, cmd, src, null, null);
  }

  private void refused(String ugi, String cmd, String src) {
    add(false, ugi, cmd, src, null, null);
  }

  private Path writeLog(Path dir) throws IOException {
    String file = "/user/alice/out/_SUCCESS";
    ok(KERBEROS, "getfileinfo", file); // not there yet, audited allowed
    ok(KERBEROS, "getfileinfo", "/user/alice/out");
    ok(KERBEROS, "getfileinfo", file + "._COPYING_");
    add(true, KERBEROS, "create", file + "._COPYING_", null, "alice:hadoop:rw-r--r--");
    ok(KERBEROS, "getfileinfo", file + "._COPYING_");
    add(true, KERBEROS, "rename", file + "._COPYING_", file, "alice:hadoop:rw-r--r--");
    ok(KERBEROS, "getfileinfo", file);
    ok(KERBEROS, "open", "/user/alice/out/part-00000");
    // hadoop fs -put -f over a file that is there, through Hue.
    String part = "/user/alice/out/part-00000";
    ok(VIA_HUE, "getfileinfo", part);
    ok(VIA_HUE, "getfileinfo", part + "._COPYING_");
    add(true, VIA_HUE, "create", part + "._COPYING_", null, "alice:hadoop:rw-r--r--");
    ok(VIA_HUE, "getfileinfo", part + "._COPYING_");
    ok(VIA_HUE, "delete", part);
    add(true, VIA_HUE, "rename", part + "._COPYING_", part, "alice:hadoop:rw-r--r--");
    // A listing of a file lists the file; it is a file (it is opened).
    ok(KERBEROS, "listStatus", "/user/alice/data/file.csv");
    ok(KERBEROS, "open", "/user/alice/data/file.csv");
    ok(KERBEROS, "listStatus", "/user/alice/data");
    // HBase looks for snapshots; an inode path.
    ok(HBASE, "getfileinfo", "/apps/hbase/data/data/default/t1/.snapshot");
    ok(HBASE, "listStatus", "/apps/hbase/data/data/default/t1");
    ok(HBASE, "getfileinfo", "/apps/hbase/data/data/default/t2/.snapshot/snap-1");
    ok(HBASE, "getfileinfo", "/.reserved/.inodes/16386");
    ok(HBASE, "getfileinfo", "/apps/hbase/data/data/default/t1/.tabledesc");
    // Refusals: bob in alice's private directory, on her files; hue writing in her output; a
    // delete of nothing; a file whose mode the trace prints.
    ok(KERBEROS, "open", "/user/alice/private/notes.txt");
    ok(KERBEROS, "listStatus", "/user/alice/private");
    refused(BOB, "getfileinfo", "/user/alice/private/notes.txt");
    refused(BOB, "listStatus", "/user/alice/private");
    refused(BOB, "open", "/user/alice/private/notes.txt");
    refused(BOB, "mkdirs", "/user/alice/private/bobs");
    refused(BOB, "setPermission", "/user/alice/data/file.csv");
    refused(BOB, "delete", "/user/alice/nothing-here");
    refused(HUE, "create", "/user/alice/out/hue-was-here");
    add(true, KERBEROS, "setTimes", "/user/alice/data/old.csv", null, "alice:hadoop:rw-r-----");
    refused(BOB, "open", "/user/alice/data/old.csv");
    ok(BOB, "getfileinfo", "/user/alice/data/old.csv");
    add(true, KERBEROS, "setPermission", "/user/alice/data/file.csv", null, "alice:hadoop:rw-r--r--");
    // What cannot be replayed.
    ok(KERBEROS, "getAclStatus", "/user/alice/data");
    log.add("2024-03-05 10:01:00,000 INFO FSNamesystem: Roll Edit Log from 10.1.2.3");
    ok(HUE, "listCachePools", "null");
    return Files.write(dir.resolve("hdfs-audit.log"), log, StandardCharsets.UTF_8);
  }

  @Test
  void putPatternsListingsOfFilesSnapshotProbesAndRefusalsReplayAsLoggedOnHdfsAndIndexFs(@TempDir Path dir)
      throws Exception {
    System.setProperty("java.awt.headless", "true");
    MixedWorkload.registerUsers();
    UserGroupInformation.createUserForTesting("hue", new String[] {"hue"});
    UserGroupInformation.createUserForTesting("hbase", new String[] {"hbase"});
    Path trace = writeLog(dir);
    Path out = dir.resolve("report");
    BenchReport report;
    try (LocalCluster cluster = ServerIdentities.with(LocalCluster.builder(dir.resolve("local"))).hdfs(true).start()) {
      Path conf = cluster.writeClientConf(dir.resolve("conf"));
      report = ReplayMain.run(ReplayOptions.parse(new String[] {trace.toString(),
          "--target", cluster.defaultFs(), "--compare", cluster.hdfs().uri() + "/", "--conf", conf.toString(),
          "--threads", "4", "--warmup", "0", "--rounds", "2", "--min-round-seconds", "0", "--out", out.toString(),
          "--no-progress"}));
    }

    assertThat(Files.readAllLines(out.resolve("differences.tsv"))).as("no record differs from the trace on either")
        .hasSize(1);
    Map<String, String> lines = rows(report, "The trace, line by line");
    assertEquals("2", lines.get("not replayed: reserved name: .snapshot (snapshot paths are not replayed)"));
    assertEquals("1", lines.get("not replayed: reserved name: /.reserved (inode-id and raw paths are not replayed)"));
    assertEquals("1", lines.get("not replayed: command not replayable: getAclStatus"));
    assertEquals("1", lines.get("not replayed: command not replayable: listCachePools"));
    assertEquals("1", lines.get("not replayed: not an audit record (no allowed= field)"));
    Map<String, String> plan = rows(report, "What the pre-create plan inferred and assumed");
    assertEquals("7", plan.get("refusals reproduced by pre-created owners and modes"));
    assertEquals("1", plan.get("refusals that are deletes of missing paths (nothing to set up)"));
    assertThat(plan).noneSatisfy((k, v) -> assertThat(k).contains("not reproducible"));

    Table outcomes = report.tables().stream().filter(t -> t.title().startsWith("Outcomes")).findFirst().orElseThrow();
    for (String target : List.of("indexfs", "hdfs")) {
      Map<String, List<String>> byCommand = new TreeMap<>();
      for (List<String> row : outcomes.rows()) {
        if (row.get(0).startsWith(target + " ")) {
          byCommand.put(row.get(0).substring(target.length() + 1), row);
        }
      }
      // The put's probes of _SUCCESS, _SUCCESS._COPYING_ and part-00000._COPYING_ find nothing, as on the cluster.
      assertEquals(List.of("10", "7", "3", "1", "1", "0"), byCommand.get("getfileinfo").subList(1, 7), target);
      assertEquals(List.of("3", "3", "0", "2", "2", "0"), byCommand.get("open").subList(1, 7), target);
      assertEquals(List.of("0", "0", "0", "1", "1", "0"), byCommand.get("mkdirs").subList(1, 7), target);
      assertEquals(List.of("1", "1", "0", "1", "1", "0"), byCommand.get("delete").subList(1, 7), target);
      assertEquals(List.of("1", "1", "0", "1", "1", "0"), byCommand.get("setPermission").subList(1, 7), target);
      assertThat(report.facts().get(target + " replay")).contains(" 0 replayed records differ");
    }
  }

  private static Map<String, String> rows(BenchReport report, String title) {
    Map<String, String> out = new TreeMap<>();
    report.tables().stream().filter(t -> t.title().equals(title)).findFirst().orElseThrow()
        .rows().forEach(r -> out.put(r.get(0), r.get(1)));
    return out;
  }
}
