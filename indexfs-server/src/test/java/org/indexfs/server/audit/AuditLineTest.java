package org.indexfs.server.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import org.indexfs.proto.Caller;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.FileType;
import org.junit.jupiter.api.Test;

class AuditLineTest {

  @Test
  void recordHasHdfsFieldsInHdfsOrder() throws Exception {
    String line = AuditLine.format(true, "alice (auth:SIMPLE)", InetAddress.getByAddress(new byte[] {10, 0, 0, 5}),
        "mkdirs", "/a/b", null, "alice:staff:rwxr-xr-x");
    assertEquals("allowed=true\tugi=alice (auth:SIMPLE)\tip=/10.0.0.5\tcmd=mkdirs\tsrc=/a/b\tdst=null"
        + "\tperm=alice:staff:rwxr-xr-x\tproto=rpc", line);
  }

  @Test
  void pathsAreJavaEscapedSoTabsAndUnicodeCannotBreakTheRecord() {
    String line = AuditLine.format(false, "bob (auth:SIMPLE)", null, "rename", "/x\ty", "/caf\u00e9 dir", null);
    assertEquals("allowed=false\tugi=bob (auth:SIMPLE)\tip=null\tcmd=rename\tsrc=/x\\ty\tdst=/caf\\u00E9 dir"
        + "\tperm=null\tproto=rpc", line);
  }

  @Test
  void fastEscapeAgreesWithEscapeJava() {
    for (String s : new String[] {"/plain/path_1.txt", "/q\"uote", "/back\\slash", "/del\u007f", "/nl\n",
        "/caf\u00e9", "/emoji\ud83d\ude00", " ~!@#$%^&*()+={}[]|:;'<>,.?/", ""}) {
      assertEquals(org.apache.commons.text.StringEscapeUtils.escapeJava(s), AuditLine.escape(s), s);
    }
    assertEquals(null, AuditLine.escape(null));
  }

  @Test
  void proxyCallerPrintsLikeUserGroupInformation() {
    Caller proxy = Caller.newBuilder().setUser("alice").setAuthMethod("PROXY")
        .setRealUser("oozie").setRealAuthMethod("KERBEROS").build();
    assertEquals("alice (auth:PROXY) via oozie (auth:KERBEROS)", AuditLine.ugi(proxy));
    assertEquals("carol (auth:SIMPLE)", AuditLine.ugi(Caller.newBuilder().setUser("carol").build()));
  }

  @Test
  void callerCannotForgeFieldsThroughItsNameOrAuthMethod() {
    Caller forged = Caller.newBuilder().setUser("eve\tallowed=true").setAuthMethod("SIMPLE)\tcmd=x").build();
    assertEquals("eve?allowed=true (auth:SIMPLE)", AuditLine.ugi(forged));
  }

  @Test
  void permIsOwnerGroupAndModeWithStickyBit() {
    FileStatus dir = FileStatus.newBuilder().setType(FileType.DIRECTORY).setOwner("hdfs").setGroup("supergroup")
        .setPermission(01777).build();
    assertEquals("hdfs:supergroup:rwxrwxrwt", AuditLine.perm(dir));
    FileStatus file = FileStatus.newBuilder().setType(FileType.FILE).setOwner("a").setGroup("g")
        .setPermission(0640).build();
    assertEquals("a:g:rw-r-----", AuditLine.perm(file));
  }
}
