package org.indexfs.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AuditLogParserTest {
  private final AuditLogParser parser = new AuditLogParser(ZoneOffset.UTC);

  private AuditEvent parse(String line) {
    AuditLogParser.Result r = parser.parse(line, 1);
    assertNull(r.unusableReason(), () -> "unusable: " + r.unusableReason());
    return r.event();
  }

  private String reason(String line) {
    AuditLogParser.Result r = parser.parse(line, 1);
    assertNull(r.event());
    return r.unusableReason();
  }

  @Test
  void parsesARecordBehindTheLog4jPrefixWithItsTimestamp() {
    AuditEvent e = parse("2024-05-01 10:00:00,123 INFO FSNamesystem.audit: allowed=true\tugi=alice (auth:SIMPLE)"
        + "\tip=/10.0.0.5\tcmd=mkdirs\tsrc=/a/b\tdst=null\tperm=alice:staff:rwxr-x---\tproto=rpc");
    assertEquals(1714557600123L, e.timeMillis());
    assertTrue(e.allowed());
    assertEquals("alice", e.user());
    assertEquals("/10.0.0.5", e.ip());
    assertEquals(Command.MKDIRS, e.command());
    assertEquals("/a/b", e.src());
    assertNull(e.dst());
    assertEquals(0750, e.permMode());
    assertEquals("alice", e.permOwner());
    assertEquals("staff", e.permGroup());
  }

  @Test
  void aBareRecordHasNoTimestamp() {
    AuditEvent e = parse("allowed=false\tugi=bob\tip=null\tcmd=open\tsrc=/x\tdst=null\tperm=null\tproto=webhdfs");
    assertEquals(-1, e.timeMillis());
    assertFalse(e.allowed());
    assertEquals("bob", e.user());
    assertNull(e.perm());
  }

  @Test
  void kerberosAndProxyUgisGiveTheEffectiveShortName() {
    assertEquals("alice", AuditLogParser.shortUserName("alice@EXAMPLE.COM (auth:KERBEROS)"));
    assertEquals("hive", AuditLogParser.shortUserName("hive/host1.example.com@EXAMPLE.COM (auth:KERBEROS)"));
    assertEquals("alice", AuditLogParser.shortUserName("alice (auth:PROXY) via oozie/h@EXAMPLE.COM (auth:KERBEROS)"));
    assertEquals("bob", AuditLogParser.shortUserName("bob (auth:TOKEN)"));
    AuditEvent e = parse("allowed=true\tugi=alice (auth:PROXY) via oozie (auth:SIMPLE)\tip=/1.2.3.4\tcmd=getfileinfo"
        + "\tsrc=/p\tdst=null\tperm=null\tproto=rpc");
    assertEquals("alice", e.user());
    assertEquals("alice (auth:PROXY) via oozie (auth:SIMPLE)", e.ugi());
  }

  @Test
  void renameOptionsAreSplitFromTheCommand() {
    AuditEvent e = parse("allowed=true\tugi=a (auth:SIMPLE)\tip=/1.2.3.4\tcmd=rename (options=[OVERWRITE])"
        + "\tsrc=/a\tdst=/b\tperm=a:g:rw-r--r--\tproto=rpc");
    assertEquals(Command.RENAME, e.command());
    assertTrue(e.renameWithOptions());
    assertTrue(e.overwrite());
    assertEquals("/b", e.dst());
    AuditEvent legacy = parse("allowed=true\tugi=a (auth:SIMPLE)\tip=/1.2.3.4\tcmd=rename\tsrc=/a\tdst=/b"
        + "\tperm=a:g:rw-r--r--\tproto=rpc");
    assertFalse(legacy.renameWithOptions());
    assertEquals(0, CallRunner.renameOptions("[]").length);
  }

  @Test
  void concatListsItsSources() {
    AuditEvent e = parse("allowed=true\tugi=a (auth:SIMPLE)\tip=/1.2.3.4\tcmd=concat\tsrc=[/d/p1, /d/p 2]"
        + "\tdst=/d/p0\tperm=a:g:rw-r--r--\tproto=rpc");
    assertEquals(List.of("/d/p1", "/d/p 2"), e.concatSources());
    assertEquals("/d/p0", e.dst());
    assertEquals(List.of("/d/p1", "/d/p 2", "/d/p0"), e.paths());
  }

  @Test
  void aPrefixMovesEveryPath() {
    AuditEvent rename = parse("allowed=true\tugi=a\tip=/1.2.3.4\tcmd=rename\tsrc=/a\tdst=/b/c\tperm=null\tproto=rpc");
    assertEquals(List.of("/r/a", "/r/b/c"), rename.under("/r/").paths());
    AuditEvent concat = parse("allowed=true\tugi=a\tip=/1.2.3.4\tcmd=concat\tsrc=[/d/p1, /d/p2]\tdst=/d/p0"
        + "\tperm=null\tproto=rpc");
    assertEquals(List.of("/r/d/p1", "/r/d/p2", "/r/d/p0"), concat.under("/r").paths());
    AuditEvent root = parse("allowed=true\tugi=a\tip=/1.2.3.4\tcmd=listStatus\tsrc=/\tdst=null\tperm=null\tproto=rpc");
    assertEquals("/r", root.under("/r").src());
  }

  @Test
  void optionalFieldsAreAccepted() {
    AuditEvent e = parse("allowed=true\tugi=a (auth:TOKEN)\tip=/1.2.3.4\tcmd=listStatus\tsrc=/d\tdst=null"
        + "\tperm=null\ttrackingId=abc123\tproto=rpc\tcallerContext=mr_attempt_1:sig");
    assertEquals(Command.LIST_STATUS, e.command());
  }

  @Test
  void escapedPathsAreUnescapedToSpacesTabsAndUnicode() {
    AuditEvent e = parse("allowed=true\tugi=a (auth:SIMPLE)\tip=/1.2.3.4\tcmd=create"
        + "\tsrc=/with space/na\\u00EFve \\u2713\\tx\\\\y.txt\tdst=null\tperm=a:g:rw-r--r--\tproto=rpc");
    assertEquals("/with space/na\u00efve \u2713\tx\\y.txt", e.src());
  }

  @Test
  void stickyAndSetuidLikeModesParse() {
    assertEquals(01777, Modes.parse("rwxrwxrwt"));
    assertEquals(01776, Modes.parse("rwxrwxrwT"));
    assertEquals("rwxrwxrwt", Modes.format(01777));
    assertEquals("rw-r-----", Modes.format(0640));
  }

  @Test
  void unusableLinesSayWhy() {
    assertEquals("blank line", reason("   "));
    assertEquals("not an audit record (no allowed= field)",
        reason("2024-05-01 10:00:00,123 INFO FSNamesystem: Roll Edit Log from 10.0.0.1"));
    assertEquals("command not replayable: getAclStatus",
        reason("allowed=true\tugi=a\tip=/1.2.3.4\tcmd=getAclStatus\tsrc=/a\tdst=null\tperm=null\tproto=rpc"));
    assertEquals("missing cmd=", reason("allowed=true\tugi=a\tip=/1.2.3.4\tsrc=/a\tdst=null\tperm=null"));
    assertEquals("missing ugi=", reason("allowed=true\tip=/1.2.3.4\tcmd=open\tsrc=/a\tdst=null"));
    assertEquals("malformed allowed= value", reason("allowed=maybe\tugi=a\tcmd=open\tsrc=/a"));
    assertEquals("src is not an absolute path", reason("allowed=true\tugi=a\tcmd=open\tsrc=a/b\tdst=null"));
    assertEquals("missing src=", reason("allowed=true\tugi=a\tcmd=open\tsrc=null\tdst=null"));
    assertEquals("rename without an absolute dst", reason("allowed=true\tugi=a\tcmd=rename\tsrc=/a\tdst=null"));
    assertEquals("malformed field (not key=value)", reason("allowed=true\tugi=a\tgarbage\tcmd=open\tsrc=/a"));
  }

  @Test
  void readerDecompressesGzipByContentAndCountsEveryLine(@TempDir Path dir) throws IOException {
    String good = "allowed=true\tugi=a (auth:SIMPLE)\tip=/1.2.3.4\tcmd=open\tsrc=/f\tdst=null\tperm=null\tproto=rpc\n";
    String text = good + "garbage line\n" + good.replace("cmd=open", "cmd=datanodeReport") + "\n" + good;
    Path plain = dir.resolve("audit.log");
    Files.writeString(plain, text, StandardCharsets.UTF_8);
    Path gz = dir.resolve("audit.log.1"); // compressed, without a .gz name
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
    List<AuditEvent> events = new ArrayList<>();
    TraceCounts counts;
    try (TraceReader r = new TraceReader(List.of(plain, gz), ZoneOffset.UTC)) {
      r.forEachRemaining(events::add);
      counts = r.counts();
    }
    assertEquals(4, events.size());
    assertThat(events).extracting(AuditEvent::line).containsExactly(1L, 5L, 6L, 10L); // numbered across the files, in order
    assertEquals(10, counts.lines());
    assertEquals(Map.of(Command.OPEN, 4L), counts.usableByCommand());
    assertEquals(Map.of("not an audit record (no allowed= field)", 2L, "command not replayable: datanodeReport", 2L,
        "blank line", 2L), counts.unusableByReason());
  }
}
