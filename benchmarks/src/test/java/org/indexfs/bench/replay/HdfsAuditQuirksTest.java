package org.indexfs.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the pre-create plan and the trace generator assume about HDFS's audit log, checked on HDFS
 * itself (a MiniDFSCluster, Hadoop 3.5): {@code hadoop fs -put} probes its destination with a
 * getfileinfo that is audited allowed although nothing is there, then writes and renames
 * {@code NAME._COPYING_}; getfileinfo and listStatus are audited allowed whether or not the path
 * exists, and a listStatus of a file lists the file; an open of a missing file is not audited at
 * all, even below a directory the caller may not traverse; HDFS refuses to make {@code .snapshot}.
 * The log HDFS writes for all this replays on IndexFS with no difference.
 */
class HdfsAuditQuirksTest {
  private static org.apache.hadoop.fs.Path p(String s) {
    return new org.apache.hadoop.fs.Path(s);
  }

  @Test
  void hdfsAuditsWhatThePlanAssumesAndItsLogReplaysOnIndexFs(@TempDir Path dir) throws Exception {
    MixedWorkload.registerUsers();
    MiniHdfs hdfs = MiniHdfs.shared();
    Configuration conf = hdfs.conf();
    Path local = Files.writeString(dir.resolve("local.txt"), "hello");
    List<String> lines;
    try (AuditCapture capture = new AuditCapture(); FileSystem fs = FileSystem.newInstance(hdfs.uri(), conf)) {
      fs.mkdirs(p("/quirks/out"));
      fs.mkdirs(p("/quirks/private"), new FsPermission((short) 0700));
      fs.setPermission(p("/quirks/private"), new FsPermission((short) 0700));
      fs.create(p("/quirks/file")).close();
      assertEquals(0, new FsShell(conf).run(new String[] {"-put", local.toString(), hdfs.uri() + "/quirks/out/_SUCCESS"}));
      assertThrows(FileNotFoundException.class, () -> fs.getFileStatus(p("/quirks/missing")));
      assertThrows(FileNotFoundException.class, () -> fs.listStatus(p("/quirks/missing")));
      assertEquals(1, fs.listStatus(p("/quirks/file")).length);
      assertThrows(FileNotFoundException.class, () -> fs.getFileStatus(p("/quirks/out/.snapshot")));
      assertThrows(IOException.class, () -> fs.mkdirs(p("/quirks/out/.snapshot")));
      UserGroupInformation.createUserForTesting("bob", MixedWorkload.BOB_GROUPS)
          .doAs((PrivilegedExceptionAction<Void>) () -> {
            try (FileSystem bob = FileSystem.newInstance(hdfs.uri(), conf)) {
              assertThrows(FileNotFoundException.class, () -> bob.open(p("/quirks/private/missing")).close());
            }
            return null;
          });
      assertEquals(false, fs.delete(p("/quirks/missing"), false));
      lines = capture.lines();
      Files.write(dir.resolve("hdfs-audit.log"), lines);
    }
    List<String> records = new ArrayList<>();
    for (String l : lines) {
      AuditEvent e = new AuditLogParser(ZoneOffset.UTC).parse(l, 0).event();
      if (e != null) {
        records.add(e.allowed() + " " + e.command().auditName() + " " + e.src() + (e.dst() == null ? "" : " " + e.dst()));
      }
    }
    String put = "/quirks/out/_SUCCESS";
    assertThat(records).containsSubsequence(
        "true getfileinfo " + put, "true getfileinfo /quirks/out", "true getfileinfo " + put + "._COPYING_",
        "true create " + put + "._COPYING_", "true getfileinfo " + put + "._COPYING_",
        "true rename " + put + "._COPYING_ " + put);
    assertThat(records).contains("true getfileinfo /quirks/missing", "true listStatus /quirks/missing",
        "true listStatus /quirks/file", "false delete /quirks/missing")
        .doesNotContain("false open /quirks/private/missing", "true open /quirks/private/missing")
        .noneMatch(r -> r.contains("mkdirs /quirks/out/.snapshot"));
    assertThat(lines).anyMatch(l -> l.contains("cmd=getfileinfo\tsrc=/quirks/out/.snapshot\t"));
    assertEquals(putShape(records, put), putShape(generatedPut(), null), "the generator writes a put as HDFS does");

    ReplayResult result;
    try (LocalCluster indexfs = LocalCluster.builder(dir.resolve("indexfs")).start()) {
      Configuration c = new Configuration();
      indexfs.clientConf().forEach(c::set);
      result = new TraceReplay(List.of(dir.resolve("hdfs-audit.log")), ZoneId.systemDefault())
          .run(TraceReplay.Settings.of("indexfs", URI.create(indexfs.defaultFs()), c, 4));
    }
    assertThat(result.differences()).isEmpty();
    assertThat(result.byCommand().get(Command.GETFILEINFO).outcomesWhenAllowed())
        .containsEntry("FileNotFoundException", 3L); // the put's two probes and /quirks/missing
  }

  /** The commands of the first put in {@code records} (from the getfileinfo of its destination), paths as roles. */
  private static List<String> putShape(List<String> records, String dst) {
    int start = -1;
    for (int i = 0; i < records.size() && start < 0; i++) {
      String r = records.get(i);
      if (r.startsWith("true getfileinfo ") && (dst == null ? records.get(i + 3).startsWith("true create ")
          && records.get(i + 3).endsWith("._COPYING_") : r.equals("true getfileinfo " + dst))) {
        start = i;
      }
    }
    String target = records.get(start).substring("true getfileinfo ".length());
    String parent = PrecreatePlan.parentOf(target);
    List<String> shape = new ArrayList<>();
    for (String r : records.subList(start, start + 6)) {
      shape.add(r.replace(target + "._COPYING_", "TMP").replace(target, "DST").replace(" " + parent, " DIR"));
    }
    return shape;
  }

  private static List<String> generatedPut() throws IOException {
    StringWriter w = new StringWriter();
    new TraceGenerator(5, 2, "put=1").write(w, 7); // a put after a mkdirs, if it is a _SUCCESS
    List<String> out = new ArrayList<>();
    for (String l : w.toString().split("\n")) {
      AuditEvent e = new AuditLogParser(ZoneOffset.UTC).parse(l, 0).event();
      out.add(e.allowed() + " " + e.command().auditName() + " " + e.src() + (e.dst() == null ? "" : " " + e.dst()));
    }
    return out;
  }
}
