package org.indexfs.hadoop.parity;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code hadoop fs} scripts against HDFS and against IndexFS on one slot and on four: getfacl and
 * setfacl with every option, getfattr and setfattr with every encoding, ls showing the "+" of an
 * ACL, and cp preserving times, ownership, permission, ACLs and xattrs (-p[topax]). Exit codes,
 * standard output and standard error must be identical.
 */
class ShellParityTest {
  private static SideBySideClusters clusters;

  @BeforeAll
  static void start() throws Exception {
    clusters = new SideBySideClusters("shell", Map.of("dfs.namenode.acls.enabled", "true"), Map.of(), 1, 4);
  }

  @AfterAll
  static void stop() {
    if (clusters != null) {
      clusters.close();
    }
  }

  /** Runs {@code hadoop fs args} on the side, with fs.defaultFS pointing at it. */
  static void fs(Side side, Transcript t, String... args) throws Exception {
    Configuration conf = new Configuration(side.conf());
    conf.set("fs.defaultFS", side.uri().toString());
    Shell.Output o = Shell.fs(conf, null, args);
    t.note("$ hadoop fs " + String.join(" ", args) + "\n" + withoutNow(o.toString()));
  }

  /** {@link #fixTimes}'s time as ls prints it (to the minute, in this JVM's zone). */
  private static final String FIXED = new java.text.SimpleDateFormat("yyyy-MM-dd HH:mm")
      .format(new java.util.Date(1_500_000_000_000L));

  /**
   * ls prints times to the minute and the sides run one after the other, so a minute may turn
   * between them: every time but the fixed one (which -pt must carry over) reads the same.
   */
  static String withoutNow(String out) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}").matcher(out);
    StringBuilder b = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(b, m.group().equals(FIXED) ? m.group() : "<now>");
    }
    return m.appendTail(b).toString();
  }

  /** Fixed times, so listings of both sides compare. */
  static void fixTimes(FileSystem fs, Path... paths) throws Exception {
    for (Path p : paths) {
      fs.setTimes(p, 1_500_000_000_000L, 1_500_000_000_000L);
    }
  }

  @Test
  void setfaclAndGetfacl() throws Exception {
    clusters.compare("facl", (side, base, t) -> {
      String d = base + "/dir";
      String f = d + "/file";
      side.fs().mkdirs(new Path(d));
      side.fs().create(new Path(f)).close();
      fs(side, t, "-getfacl", d);
      fs(side, t, "-setfacl", "-m", "user:alice:rwx,group:staff:r-x", d);
      fs(side, t, "-getfacl", d);
      fs(side, t, "-setfacl", "-m", "default:user:bob:r-x", d);
      fs(side, t, "-getfacl", d);
      fs(side, t, "-setfacl", "-x", "user:alice", d);
      fs(side, t, "-getfacl", d);
      fs(side, t, "-setfacl", "-k", d);
      fs(side, t, "-getfacl", d);
      fs(side, t, "-setfacl", "--set", "user::rw-,user:carol:r--,group::r--,other::---", f);
      fs(side, t, "-getfacl", f);
      fs(side, t, "-chmod", "640", f);
      fs(side, t, "-getfacl", f);
      fs(side, t, "-setfacl", "-b", f);
      fs(side, t, "-getfacl", f);
      fs(side, t, "-setfacl", "-R", "-m", "user:dave:r-x", d);
      fs(side, t, "-getfacl", "-R", d);
      fixTimes(side.fs(), new Path(d), new Path(f));
      fs(side, t, "-ls", "-d", d);
      fs(side, t, "-ls", d);
      fs(side, t, "-chmod", "1777", d);
      fs(side, t, "-getfacl", d);
      // What scripts get wrong: bad specs, missing paths, no options.
      fs(side, t, "-setfacl", "-m", "user:eve", d);
      fs(side, t, "-setfacl", "-m", "bogus:eve:rwx", d);
      fs(side, t, "-setfacl", "-x", "user:eve:rwx", d);
      fs(side, t, "-setfacl", "--set", "user:eve:rwx", d);
      fs(side, t, "-setfacl", "-m", "default:user:eve:rwx", f);
      fs(side, t, "-setfacl", "-m", "user:eve:rwx", base + "/missing");
      fs(side, t, "-getfacl", base + "/missing");
      fs(side, t, "-setfacl", d);
      fs(side, t, "-setfacl", "-b", "-k", d);
    });
  }

  @Test
  void setfattrAndGetfattr() throws Exception {
    clusters.compare("fattr", (side, base, t) -> {
      String d = base + "/dir";
      String f = d + "/file";
      side.fs().mkdirs(new Path(d));
      side.fs().create(new Path(f)).close();
      fs(side, t, "-setfattr", "-n", "user.text", "-v", "\"hello world\"", f);
      fs(side, t, "-setfattr", "-n", "user.hex", "-v", "0x0102ff", f);
      fs(side, t, "-setfattr", "-n", "user.b64", "-v", "0sAQID", f);
      fs(side, t, "-setfattr", "-n", "user.novalue", f);
      fs(side, t, "-setfattr", "-n", "trusted.t", "-v", "x", f);
      fs(side, t, "-getfattr", "-d", f);
      fs(side, t, "-getfattr", "-d", "-e", "hex", f);
      fs(side, t, "-getfattr", "-d", "-e", "base64", f);
      fs(side, t, "-getfattr", "-n", "user.hex", f);
      fs(side, t, "-getfattr", "-n", "user.hex", "-e", "text", f);
      fs(side, t, "-getfattr", "-n", "user.missing", f);
      fs(side, t, "-setfattr", "-x", "user.b64", f);
      fs(side, t, "-getfattr", "-d", f);
      fs(side, t, "-setfattr", "-n", "user.dir", "-v", "1", d);
      fs(side, t, "-getfattr", "-R", "-d", d);
      fs(side, t, "-getfattr", "-d", base + "/missing");
      fs(side, t, "-setfattr", "-n", "bad", "-v", "1", f);
      fs(side, t, "-setfattr", "-x", "user.missing", f);
      fs(side, t, "-setfattr", "-n", "system.x", "-v", "1", f);
      fs(side, t, "-setfattr", "-n", "user.x", "-x", "user.y", f);
      fs(side, t, "-getfattr", f);
    });
  }

  @Test
  void cpPreservesWhatItIsAskedTo() throws Exception {
    clusters.compare("cp", (side, base, t) -> {
      FileSystem fs = side.fs();
      String src = base + "/src";
      fs.mkdirs(new Path(src));
      for (String name : new String[] {"a", "b"}) {
        Path p = new Path(src, name);
        try (var out = fs.create(p)) {
          out.write(("content of " + name).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
      }
      fs(side, t, "-chown", "alice:staff", src + "/a");
      fs(side, t, "-chmod", "600", src + "/a");
      fs(side, t, "-setfacl", "-m", "user:bob:r--", src + "/a");
      fs(side, t, "-setfattr", "-n", "user.origin", "-v", "source", src + "/a");
      fs(side, t, "-setfattr", "-n", "user.origin", "-v", "dir", src);
      fs(side, t, "-setfacl", "-m", "default:user:bob:r-x", src);
      fixTimes(fs, new Path(src, "a"), new Path(src, "b"));
      for (String opt : new String[] {"-p", "-pt", "-po", "-pp", "-pa", "-px", "-ptopax"}) {
        String dst = base + "/copy" + opt;
        fs(side, t, "-cp", opt, src + "/a", dst);
        fs(side, t, "-getfacl", dst);
        fs(side, t, "-getfattr", "-d", dst);
        fs(side, t, "-ls", dst);
      }
      fs(side, t, "-cp", "-ptopax", src, base + "/tree");
      fixTimes(fs, new Path(base + "/tree"));
      fs(side, t, "-ls", "-R", base + "/tree");
      fs(side, t, "-getfacl", "-R", base + "/tree");
      fs(side, t, "-getfattr", "-R", "-d", base + "/tree");
      fs(side, t, "-cat", base + "/tree/a");
      fs(side, t, "-cp", src + "/b", base + "/plain");
      fs(side, t, "-getfacl", base + "/plain");
    });
  }
}
