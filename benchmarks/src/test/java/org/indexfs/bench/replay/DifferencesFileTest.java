package org.indexfs.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DifferencesFileTest {
  private static AuditEvent event(long line, String cmd, String src) {
    return new AuditLogParser(ZoneOffset.UTC).parse("2024-01-01 00:00:00,000 INFO FSNamesystem.audit: allowed=true"
        + "\tugi=a (auth:SIMPLE)\tip=/1.1.1.1\tcmd=" + cmd + "\tsrc=" + src + "\tdst=null\tperm=null\tproto=rpc", line)
        .event();
  }

  @Test
  void eachDifferingRecordIsOneRowWithWhatEveryTargetDid(@TempDir Path dir) throws Exception {
    AuditEvent open = event(7, "open", "/a/b");
    AuditEvent stat = event(9, "getfileinfo", "/a/c");
    OutcomeLog a = new OutcomeLog(3);
    OutcomeLog b = new OutcomeLog(3);
    a.record(0, "ok");
    b.record(0, "ok");
    a.record(1, "FileNotFoundException");
    b.record(1, "ok");
    a.record(2, "ok");
    b.record(2, "AccessControlException");
    Replayer.Segment onA = new Replayer.Segment(Map.of(), 3, 1, List.of(
        new Difference(1, 1, open, Expectation.SUCCESS, "FileNotFoundException", "File does not exist: /a/b", null)));
    Replayer.Segment onB = new Replayer.Segment(Map.of(), 3, 1, List.of(
        new Difference(1, 2, stat, Expectation.SUCCESS, "AccessControlException", "Permission\tdenied", "a note")));
    try (DifferencesFile f = new DifferencesFile(dir, List.of("indexfs", "hdfs"))) {
      f.add(List.of(onA, onB), List.of(a, b));
      assertThat(f.rows()).isEqualTo(2);
      assertThat(f.differences(0)).isEqualTo(1);
    }
    assertThat(Files.readAllLines(dir.resolve("differences.tsv"))).containsExactly(
        "copy\tline\tcommand\texpected\tindexfs\tindexfs message\thdfs\thdfs message\tnote\taudit record",
        "1\t7\topen\tok\tFileNotFoundException\tFile does not exist: /a/b\tok\t\t\t2024-01-01 00:00:00,000 INFO "
            + "FSNamesystem.audit: allowed=true\\tugi=a (auth:SIMPLE)\\tip=/1.1.1.1\\tcmd=open\\tsrc=/a/b\\tdst=null"
            + "\\tperm=null\\tproto=rpc",
        "1\t9\tgetfileinfo\tok\tok\t\tAccessControlException\tPermission\\tdenied\ta note\t2024-01-01 00:00:00,000 INFO "
            + "FSNamesystem.audit: allowed=true\\tugi=a (auth:SIMPLE)\\tip=/1.1.1.1\\tcmd=getfileinfo\\tsrc=/a/c\\tdst=null"
            + "\\tperm=null\\tproto=rpc");
  }
}
