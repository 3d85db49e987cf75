package org.indexfs.it.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The chaos checker finds each kind of wrong final namespace, on the local file system, and passes a right one. */
class HistoryCheckerTest {
  private FileSystem fs;
  private String dir;
  private History h;

  @BeforeEach
  void setUp() throws IOException {
    fs = FileSystem.getLocal(new Configuration()).getRaw();
    dir = Files.createTempDirectory("history-checker").toString();
    h = new History();
  }

  private void ok(String op, String args, boolean answer) {
    h.add(0, History.Type.INVOKE, op, args, null);
    h.add(0, History.Type.OK, op, args, String.valueOf(answer));
  }

  private void file(String path, String content) throws IOException {
    try (OutputStream out = fs.create(new Path(path), true)) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** mkdir d, create g, rename g to h, create x, delete x — and the namespace that history leaves. */
  private void aRightRun() throws IOException {
    ok("mkdir", dir + "/d", true);
    ok("create", dir + "/g", true);
    ok("rename", dir + "/g " + dir + "/h", true);
    ok("create", dir + "/x", true);
    ok("delete", dir + "/x", true);
    fs.mkdirs(new Path(dir + "/d"));
    file(dir + "/h", ChaosWorkload.content(dir + "/g"));
  }

  private HistoryChecker.Result check() throws IOException {
    return HistoryChecker.check(h, fs, List.of(dir));
  }

  @Test
  void aRightNamespaceIsClean() throws IOException {
    aRightRun();
    HistoryChecker.Result r = check();
    assertTrue(r.clean(), r.toString());
    assertEquals(5, r.acknowledged());
  }

  @Test
  void eachWrongOneIsFound() throws IOException {
    aRightRun();
    fs.delete(new Path(dir + "/d"), false);
    assertEquals(List.of(dir + "/d"), check().lost());
    fs.mkdirs(new Path(dir + "/d"));

    file(dir + "/g", ChaosWorkload.content(dir + "/g"));   // the create ran again after the rename
    assertEquals(List.of(dir + "/g"), check().appliedTwice());
    fs.delete(new Path(dir + "/g"), false);

    file(dir + "/h", "other bytes");
    assertEquals(List.of(dir + "/h"), check().corrupt());
    file(dir + "/h", ChaosWorkload.content(dir + "/g"));

    file(dir + "/nobody", "");
    assertEquals(List.of(dir + "/nobody"), check().phantoms());
    fs.delete(new Path(dir + "/nobody"), false);

    ok("rename", dir + "/h " + dir + "/h2", false);
    assertEquals(1, check().anomalies().size());
  }

  @Test
  void anUnknownOutcomeMayGoEitherWay() throws IOException {
    aRightRun();
    h.add(0, History.Type.INVOKE, "create", dir + "/u", null);
    h.add(0, History.Type.INFO, "create", dir + "/u", "java.io.IOException: timed out");
    assertTrue(check().clean());
    file(dir + "/u", ChaosWorkload.content(dir + "/u"));
    HistoryChecker.Result r = check();
    assertTrue(r.clean(), r.toString());
    assertEquals(1, r.unknown());
  }
}
