package org.indexfs.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrecreatePlanTest {
  private final AuditLogParser parser = new AuditLogParser(ZoneOffset.UTC);
  private final List<AuditEvent> events = new ArrayList<>();

  private PrecreatePlan plan(String... records) {
    PrecreatePlan p = new PrecreatePlan();
    for (String r : records) {
      AuditEvent e = parser.parse(r, events.size() + 1).event();
      events.add(e);
      p.add(e);
    }
    return p;
  }

  private static String rec(String user, String cmd, String src, String dst) {
    return rec(user, cmd, src, dst, null);
  }

  private static String rec(String user, String cmd, String src, String dst, String perm) {
    return "allowed=true\tugi=" + user + " (auth:SIMPLE)\tip=/1.1.1.1\tcmd=" + cmd + "\tsrc=" + src + "\tdst="
        + (dst == null ? "null" : dst) + "\tperm=" + (perm == null ? "null" : perm) + "\tproto=rpc";
  }

  private static String refused(String user, String cmd, String src) {
    return rec(user, cmd, src, null).replace("allowed=true", "allowed=false");
  }

  /** What each record (in order) is expected to do. */
  private List<Expectation> expectations(PrecreatePlan p) {
    return events.stream().map(p::expected).toList();
  }

  private static PrecreatePlan.Entry entry(PrecreatePlan p, String path) {
    return p.entries().stream().filter(e -> e.path().equals(path)).findFirst().orElse(null);
  }

  @Test
  void entriesReadBeforeTheTraceCreatesThemArePreCreatedWithTheirParents() {
    // /data/out as well: below an older directory, a trace cannot tell a parent made by create
    // from one that was there, and clients make directories with mkdirs.
    PrecreatePlan p = plan(
        rec("alice", "open", "/data/in/part-0", null),
        rec("alice", "create", "/data/out/result", null),
        rec("alice", "getfileinfo", "/data/out/result", null));
    assertEquals(List.of(
        new PrecreatePlan.Entry("/data", true, null),
        new PrecreatePlan.Entry("/data/in", true, null),
        new PrecreatePlan.Entry("/data/out", true, null),
        new PrecreatePlan.Entry("/data/in/part-0", false, "alice")), p.entries());
    assertEquals(Map.of(), p.inconsistencies());
  }

  @Test
  void hadoopFsPutProbesTheDestinationItThenRenamesOnto() {
    // What HDFS audits for `hadoop fs -put local /user/alice/out/_SUCCESS` (see HdfsAuditQuirksTest).
    PrecreatePlan p = plan(
        rec("alice", "getfileinfo", "/user/alice/out/_SUCCESS", null),
        rec("alice", "getfileinfo", "/user/alice/out", null),
        rec("alice", "getfileinfo", "/user/alice/out/_SUCCESS._COPYING_", null),
        rec("alice", "create", "/user/alice/out/_SUCCESS._COPYING_", null, "alice:hadoop:rw-r--r--"),
        rec("alice", "getfileinfo", "/user/alice/out/_SUCCESS._COPYING_", null),
        rec("alice", "rename", "/user/alice/out/_SUCCESS._COPYING_", "/user/alice/out/_SUCCESS", "alice:hadoop:rw-r--r--"),
        rec("alice", "getfileinfo", "/user/alice/out/_SUCCESS", null));
    assertThat(p.entries()).extracting(PrecreatePlan.Entry::path).containsExactly("/user", "/user/alice", "/user/alice/out");
    assertEquals(List.of(Expectation.NOT_FOUND, Expectation.SUCCESS, Expectation.NOT_FOUND, Expectation.SUCCESS,
        Expectation.SUCCESS, Expectation.SUCCESS, Expectation.SUCCESS), expectations(p));
    assertEquals(Map.of(), p.inconsistencies());
  }

  @Test
  void putDashFOverAnExistingFileFindsItFirst() {
    PrecreatePlan p = plan(
        rec("alice", "getfileinfo", "/u/f", null),
        rec("alice", "getfileinfo", "/u/f._COPYING_", null),
        rec("alice", "create", "/u/f._COPYING_", null),
        rec("alice", "delete", "/u/f", null),
        rec("alice", "rename", "/u/f._COPYING_", "/u/f"));
    assertEquals(new PrecreatePlan.Entry("/u/f", false, "alice"), entry(p, "/u/f"));
    assertEquals(Expectation.SUCCESS, expectations(p).get(0));
    assertEquals(Expectation.NOT_FOUND, expectations(p).get(1));
  }

  @Test
  void aListedPathThatIsOpenedLaterIsAFile() {
    PrecreatePlan p = plan(
        rec("bob", "listStatus", "/u/data.csv", null),
        rec("bob", "open", "/u/data.csv", null),
        rec("bob", "listStatus", "/logs", null),
        rec("bob", "getfileinfo", "/tables/t1", null),
        rec("bob", "open", "/tables/t1/part-0", null),
        rec("bob", "getfileinfo", "/tables/t2", null));
    assertEquals(new PrecreatePlan.Entry("/u/data.csv", false, "bob"), entry(p, "/u/data.csv"));
    assertEquals(new PrecreatePlan.Entry("/logs", true, "bob"), entry(p, "/logs"));
    assertEquals(new PrecreatePlan.Entry("/tables/t1", true, "bob"), entry(p, "/tables/t1"));
    assertEquals(new PrecreatePlan.Entry("/tables/t2", false, "bob"), entry(p, "/tables/t2"));
    assertThat(p.inferences()).containsEntry("types guessed: only listed, pre-created as a directory", 1L)
        .containsEntry("types unknown: pre-created as a file", 1L)
        .containsEntry("paths assumed to exist (only getfileinfo/listStatus name them; the audit log does not say)", 2L);
  }

  @Test
  void probesOfPathsTheTraceMakesOrRemovesLaterOrEarlierFindNothing() {
    PrecreatePlan p = plan(
        rec("a", "getfileinfo", "/w/staging", null),
        rec("a", "mkdirs", "/w/staging", null),
        rec("a", "getfileinfo", "/w/old/x", null),
        rec("a", "delete", "/w/old", null),
        rec("a", "listStatus", "/w/old", null),
        rec("a", "getfileinfo", "/w/old/x", null),
        rec("a", "getfileinfo", "/w/f/below-a-file", null),
        rec("a", "open", "/w/f", null));
    assertEquals(List.of(Expectation.NOT_FOUND, Expectation.SUCCESS, Expectation.SUCCESS, Expectation.SUCCESS,
        Expectation.NOT_FOUND, Expectation.NOT_FOUND, Expectation.NOT_FOUND, Expectation.SUCCESS), expectations(p));
    assertThat(p.entries()).extracting(PrecreatePlan.Entry::path).containsExactly("/w", "/w/f", "/w/old", "/w/old/x");
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
  void mkdirsOfADirectoryWhoseOlderEntriesAreUsedLaterWasANoOp() {
    PrecreatePlan p = plan(
        rec("a", "mkdirs", "/jobs/new", null, "a:g:rwxr-x---"),
        rec("a", "create", "/jobs/new/out/part-0", null),
        rec("a", "open", "/jobs/new/out/part-0", null),
        rec("a", "mkdirs", "/home/a", null),
        rec("a", "open", "/home/a/.profile", null));
    assertThat(p.entries()).extracting(PrecreatePlan.Entry::path).containsExactly("/home", "/home/a", "/home/a/.profile");
    assertEquals(Map.of(), p.inconsistencies());
    assertEquals(1L, p.inferences().get("directory trees taken as made by the trace (mkdirs; nothing shows them older)"));
  }

  @Test
  void aCallOnWhatTheTraceRemovedIsUnexplainedAndNoted() {
    PrecreatePlan p = plan(
        rec("a", "create", "/t/f", null),
        rec("a", "delete", "/t/f", null),
        rec("a", "open", "/t/f", null));
    assertEquals(Map.of("used where the trace shows nothing exists", 1L), p.inconsistencies());
    assertThat(p.note(3)).startsWith("the trace does not explain it");
    assertNull(p.note(1));
  }

  @Test
  void concatSourcesAndTargetMustExist() {
    PrecreatePlan p = plan("allowed=true\tugi=a (auth:SIMPLE)\tip=/1.1.1.1\tcmd=concat\tsrc=[/d/p1, /d/p2]"
        + "\tdst=/d/p0\tperm=null\tproto=rpc");
    assertThat(p.entries()).extracting(PrecreatePlan.Entry::path).containsExactly("/d", "/d/p0", "/d/p1", "/d/p2");
  }

  @Test
  void refusalsGetOwnersAndModesThatReproduceThem() {
    PrecreatePlan p = plan(
        rec("alice", "open", "/u/alice/private/notes", null),
        rec("alice", "listStatus", "/u/alice/private", null),
        refused("bob", "getfileinfo", "/u/alice/private/notes"),
        refused("bob", "listStatus", "/u/alice/private"),
        rec("bob", "getfileinfo", "/u/alice/private", null),
        refused("bob", "setPermission", "/u/alice/report"),
        rec("alice", "setTimes", "/u/alice/report", null),
        rec("carol", "open", "/shared/ro/table", null),
        rec("alice", "create", "/shared/ro/new", null),
        refused("bob", "create", "/shared/ro/bobs"));
    // bob may stat the directory but neither list it nor pass through it; alice owns it.
    assertEquals(new PrecreatePlan.Entry("/u/alice/private", true, "alice", null, 0722), entry(p, "/u/alice/private"));
    assertEquals(new PrecreatePlan.Entry("/u/alice/private/notes", false, "alice"), entry(p, "/u/alice/private/notes"));
    assertEquals("alice", entry(p, "/u/alice/report").owner());
    // bob may not write where alice may: alice owns it; carol still reads.
    assertEquals(new PrecreatePlan.Entry("/shared/ro", true, "alice", null, 0755), entry(p, "/shared/ro"));
    assertEquals(4L, p.inferences().get("refusals reproduced by pre-created owners and modes"));
    assertThat(p.inferences()).doesNotContainKey("refusals not reproducible: the same user is allowed that access elsewhere in the trace");
    assertThat(expectations(p).get(2)).isEqualTo(Expectation.REFUSAL);
  }

  @Test
  void aRefusalAllowedCallsContradictIsNotedAsNotReproducible() {
    PrecreatePlan p = plan(
        rec("bob", "getfileinfo", "/p/x", null),
        refused("bob", "getfileinfo", "/p/y"));
    assertEquals(-1, entry(p, "/p").mode());
    assertEquals("not reproducible: the same user is allowed that access elsewhere in the trace", p.note(2));
  }

  @Test
  void aModeTheTracePrintsIsKeptAndWidenedOnlyForAccessGroupsGranted() {
    PrecreatePlan p = plan(
        rec("alice", "setTimes", "/d/f", null, "alice:staff:rw-r-----"),
        refused("bob", "open", "/d/f"),
        rec("alice", "setTimes", "/d/g", null, "alice:staff:rw-r-----"),
        rec("dave", "open", "/d/g", null));
    assertEquals(new PrecreatePlan.Entry("/d/f", false, "alice", "staff", 0640), entry(p, "/d/f"));
    assertEquals(new PrecreatePlan.Entry("/d/g", false, "alice", "staff", 0644), entry(p, "/d/g"));
    assertNull(p.note(2));
  }

  @Test
  void aUserWhoGivesEntriesAwayIsASuperuser() {
    PrecreatePlan p = plan(rec("hdfs", "setOwner", "/user/x", null, "x:x:rwxr-xr-x"),
        rec("x", "setOwner", "/user/x/f", null, "x:other:rw-r--r--"));
    assertEquals(java.util.Set.of("hdfs"), p.superusers());
    assertEquals("x", entry(p, "/user/x/f").owner());
  }

  @Test
  void aRefusedOpenNamesAFileThatExists() {
    // HDFS answers an open of a missing file FileNotFoundException, unaudited, even below a
    // directory the caller may not traverse (pinned in HdfsAuditQuirksTest).
    PrecreatePlan p = plan(refused("bob", "open", "/u/alice/f"));
    assertEquals(new PrecreatePlan.Entry("/u/alice/f", false, null, null, 0622), entry(p, "/u/alice/f"));
  }

  @Test
  void aRefusedDeleteOfAPathNothingElseNamesFoundNothing() {
    PrecreatePlan p = plan(refused("a", "delete", "/tmp/nope"), rec("a", "getfileinfo", "/tmp/nope", null));
    assertThat(p.entries()).extracting(PrecreatePlan.Entry::path).isEmpty();
    assertEquals(List.of(Expectation.REFUSAL, Expectation.NOT_FOUND), expectations(p));
    assertEquals(1L, p.inferences().get("refusals that are deletes of missing paths (nothing to set up)"));
  }
}
