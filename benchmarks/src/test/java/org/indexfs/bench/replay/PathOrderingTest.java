package org.indexfs.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PathOrderingTest {
  private final AuditLogParser parser = new AuditLogParser(ZoneOffset.UTC);
  private final List<String> ready = new ArrayList<>();
  private final PathOrdering ordering = new PathOrdering(c -> ready.add(c.event.command().auditName() + " " + c.event.src()));

  private PathOrdering.Call register(String cmd, String src, String dst) {
    AuditEvent e = parser.parse("allowed=true\tugi=a (auth:SIMPLE)\tip=/1.1.1.1\tcmd=" + cmd + "\tsrc=" + src
        + "\tdst=" + (dst == null ? "null" : dst) + "\tperm=null\tproto=rpc", 1).event();
    PathOrdering.Call c = new PathOrdering.Call(e);
    ordering.register(c);
    return c;
  }

  @Test
  void callsOnUnrelatedPathsRunAtOnce() {
    register("open", "/a/x", null);
    register("open", "/b/y", null);
    register("getfileinfo", "/a/z", null);
    assertThat(ready).containsExactly("open /a/x", "open /b/y", "getfileinfo /a/z");
  }

  @Test
  void callsOnTheSamePathKeepTheirOrder() {
    PathOrdering.Call create = register("create", "/a/f", null);
    register("setPermission", "/a/f", null);
    assertThat(ready).containsExactly("create /a/f");
    ordering.completed(create);
    assertThat(ready).containsExactly("create /a/f", "setPermission /a/f");
  }

  @Test
  void aCallWaitsForTheCallThatCreatedItsParents() {
    PathOrdering.Call mkdirs = register("mkdirs", "/p/a/b", null);
    register("create", "/p/f", null); // would otherwise make /p itself, with another mode
    register("open", "/q/g", null);
    assertThat(ready).containsExactly("mkdirs /p/a/b", "open /q/g");
    ordering.completed(mkdirs);
    assertThat(ready).contains("create /p/f");
  }

  @Test
  void aDirectoryCallWaitsForEverythingBelowAndEverythingBelowWaitsForIt() {
    ordering.completed(register("getfileinfo", "/d", null)); // /d exists: creates in it do not make it
    ready.clear();
    PathOrdering.Call f1 = register("create", "/d/f1", null);
    PathOrdering.Call f2 = register("create", "/d/f2", null);
    PathOrdering.Call delete = register("delete", "/d", null);
    register("create", "/d/f3", null);
    assertThat(ready).containsExactly("create /d/f1", "create /d/f2");
    ordering.completed(f1);
    assertThat(ready).hasSize(2);
    ordering.completed(f2);
    assertThat(ready).containsExactly("create /d/f1", "create /d/f2", "delete /d");
    ordering.completed(delete);
    assertThat(ready).last().isEqualTo("create /d/f3");
  }

  @Test
  void renameOrdersBothItsPaths() {
    PathOrdering.Call rename = register("rename", "/a/src", "/b/dst");
    register("open", "/b/dst", null);
    register("open", "/a/src", null);
    assertThat(ready).containsExactly("rename /a/src");
    ordering.completed(rename);
    assertThat(ready).containsExactly("rename /a/src", "open /b/dst", "open /a/src");
  }
}
