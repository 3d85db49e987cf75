package org.indexfs.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrecreatePlanTest {
  private final AuditLogParser parser = new AuditLogParser(ZoneOffset.UTC);

  private PrecreatePlan plan(String... records) {
    PrecreatePlan p = new PrecreatePlan();
    for (String r : records) {
      p.add(parser.parse(r, 1).event());
    }
    return p;
  }

  private static String rec(String user, String cmd, String src, String dst) {
    return "allowed=true\tugi=" + user + " (auth:SIMPLE)\tip=/1.1.1.1\tcmd=" + cmd + "\tsrc=" + src + "\tdst="
        + (dst == null ? "null" : dst) + "\tperm=null\tproto=rpc";
  }

  @Test
  void entriesReadBeforeTheTraceCreatesThemArePreCreatedWithTheirParents() {
    // /data/out is pre-created as well: below a pre-existing directory, a trace cannot tell a
    // parent made by create from one that was there.
    PrecreatePlan p = plan(
        rec("alice", "open", "/data/in/part-0", null),
        rec("alice", "create", "/data/out/result", null),
        rec("alice", "getfileinfo", "/data/out/result", null));
    assertEquals(List.of(
        new PrecreatePlan.Entry("/data", true, null),
        new PrecreatePlan.Entry("/data/in", true, null),
        new PrecreatePlan.Entry("/data/out", true, null),
        new PrecreatePlan.Entry("/data/in/part-0", false, "alice")), p.entries());
  }

  @Test
  void listingsMakeDirectoriesAndLaterChildrenTurnGuessesIntoDirectories() {
    PrecreatePlan p = plan(
        rec("bob", "listStatus", "/logs", null),
        rec("bob", "getfileinfo", "/tables/t1", null),
        rec("bob", "open", "/tables/t1/part-0", null));
    assertThat(p.entries()).contains(new PrecreatePlan.Entry("/logs", true, "bob"),
        new PrecreatePlan.Entry("/tables/t1", true, "bob"), new PrecreatePlan.Entry("/tables/t1/part-0", false, "bob"));
  }

  @Test
  void anEntryReachedThroughARenamedDirectoryIsPreCreatedWhereItWasAtTheStart() {
    PrecreatePlan p = plan(
        rec("carol", "rename", "/staging/job1", "/final/job1"),
        rec("carol", "open", "/final/job1/out", null));
    assertThat(p.entries()).extracting(PrecreatePlan.Entry::path)
        .contains("/staging/job1", "/staging/job1/out", "/final")
        .doesNotContain("/final/job1", "/final/job1/out");
  }

  @Test
  void legacyRenameIntoAnExistingDirectoryMovesIntoIt() {
    PrecreatePlan p = plan(
        rec("a", "mkdirs", "/dst", null),
        rec("a", "rename", "/src/f", "/dst"),
        rec("a", "open", "/dst/f", null));
    assertThat(p.entries()).extracting(PrecreatePlan.Entry::path).containsExactly("/src", "/src/f");
    assertEquals(Map.of(), p.inconsistencies());
  }

  @Test
  void deletedEntriesAreGoneAndCreatedOnesNeedNothing() {
    PrecreatePlan p = plan(
        rec("a", "delete", "/tmp/old", null),
        rec("a", "mkdirs", "/tmp/new/x", null),
        rec("a", "open", "/tmp/new/x", null));
    assertThat(p.entries()).extracting(PrecreatePlan.Entry::path).containsExactly("/tmp", "/tmp/new", "/tmp/old");
  }

  @Test
  void parentsMadeInsideDirectoriesTheTraceCreatedAreNotPreCreated() {
    PrecreatePlan p = plan(
        rec("a", "mkdirs", "/jobs/new", null),
        rec("a", "create", "/jobs/new/out/part-0", null),
        rec("a", "open", "/jobs/new/out/part-0", null));
    assertThat(p.entries()).extracting(PrecreatePlan.Entry::path).containsExactly("/jobs");
  }

  @Test
  void refusedRecordsTellNothing() {
    PrecreatePlan p = plan(rec("a", "open", "/secret", null).replace("allowed=true", "allowed=false"));
    assertThat(p.entries()).isEmpty();
  }

  @Test
  void aReadInsideADirectoryTheTraceCreatedButNeverFilledIsCountedAsUnexplained() {
    PrecreatePlan p = plan(
        rec("a", "mkdirs", "/new", null),
        rec("a", "open", "/new/ghost", null));
    assertEquals(Map.of("entry used inside a directory the trace created, but never created there", 1L),
        p.inconsistencies());
    assertThat(p.entries()).isEmpty();
  }

  @Test
  void concatSourcesAndTargetMustExist() {
    PrecreatePlan p = plan("allowed=true\tugi=a (auth:SIMPLE)\tip=/1.1.1.1\tcmd=concat\tsrc=[/d/p1, /d/p2]"
        + "\tdst=/d/p0\tperm=null\tproto=rpc");
    assertThat(p.entries()).extracting(PrecreatePlan.Entry::path).containsExactly("/d", "/d/p0", "/d/p1", "/d/p2");
  }
}
