package org.indexfs.bench.replay;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.text.StringEscapeUtils;

/**
 * Writes a synthetic NameNode audit log: a seeded, reproducible stream of calls with a given
 * operation mix (the LinkedIn mix of the IndexFS paper §III-B, 84 % lookups, 9 % creates, 7 %
 * updates) over a namespace that exists before the trace starts — home trees {@code /user/<u>}
 * whose depths grow like a random recursive tree and whose directory sizes are heavy-tailed (new
 * entries go preferentially where many already are). Each subtree is used only by its owner.
 *
 * <p>Besides single commands the mix can hold what real NameNode logs are full of, written as
 * HDFS writes them (pinned against HDFS itself by HdfsAuditQuirksTest): {@code put}, a
 * {@code hadoop fs -put} (getfileinfo of the destination, which does not exist yet but is audited
 * allowed, of its directory and of {@code NAME._COPYING_}, create of {@code NAME._COPYING_}, a
 * getfileinfo of it, rename onto {@code NAME}; one in four into a new job output directory as
 * {@code _SUCCESS}); {@code snapshotProbe}, HBase's getfileinfo of a table's {@code .snapshot};
 * and {@code refused}, another user refused in a user's {@code private} directory (getfileinfo,
 * listStatus, mkdirs), an open or setPermission of a user's file by another, or a delete that
 * finds nothing.
 */
public final class TraceGenerator {
  /** The LinkedIn mix: percentages per command. */
  public static final String LINKEDIN_MIX = "getfileinfo=48,open=26,listStatus=9,contentSummary=1,"
      + "create=7,mkdirs=2,setPermission=1.5,setTimes=1,setReplication=0.5,rename=2,delete=2";
  /** The replay's default: the LinkedIn mix with the patterns of real logs (per pick; a put writes six lines). */
  public static final String DEFAULT_MIX = LINKEDIN_MIX + ",put=0.5,snapshotProbe=0.5,refused=0.5";

  private static final String PUT = "put";
  private static final String SNAPSHOT_PROBE = "snapshotProbe";
  private static final String REFUSED = "refused";

  private static final DateTimeFormatter LOG4J = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS")
      .withZone(ZoneOffset.UTC);
  private static final long START_MILLIS = Instant.parse("2024-01-01T00:00:00Z").toEpochMilli();

  private record Dir(String path, int user) {}

  private record File(int dir, String name) {}

  private final SplittableRandom random;
  private final int users;
  private final Map<String, Double> mix;
  private final List<Dir> dirs = new ArrayList<>();
  private final List<File> files = new ArrayList<>();
  private final ArrayDeque<String> pending = new ArrayDeque<>();
  private long nextId;
  private long clock = START_MILLIS;

  public TraceGenerator(long seed, int users, String mix) {
    this.random = new SplittableRandom(seed);
    this.users = users;
    this.mix = parseMix(mix);
  }

  /** A mix: {@code name=percent,...}, names being generated commands and the patterns put, snapshotProbe, refused. */
  static Map<String, Double> parseMix(String spec) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (String part : spec.split(",")) {
      String[] kv = part.trim().split("=");
      String name = kv.length == 2 ? kv[0].trim() : "";
      Command c = Command.ofAuditName(name);
      boolean pattern = name.equals(PUT) || name.equals(SNAPSHOT_PROBE) || name.equals(REFUSED);
      if (!pattern && (c == null || c == Command.SET_OWNER || c == Command.APPEND || c == Command.TRUNCATE
          || c == Command.CONCAT)) {
        throw new IllegalArgumentException("Bad mix entry '" + part + "': expected name=percent with name one of "
            + "getfileinfo, open, listStatus, contentSummary, create, mkdirs, setPermission, setTimes, "
            + "setReplication, rename, delete, or the patterns put, snapshotProbe, refused");
      }
      out.put(name, Double.parseDouble(kv[1].trim()));
    }
    return out;
  }

  /** Writes {@code lines} records to {@code out} (gzip-compressed when the name ends in .gz). */
  public void write(Path out, long lines) throws IOException {
    OutputStream os = Files.newOutputStream(out);
    if (out.getFileName().toString().endsWith(".gz")) {
      os = new GZIPOutputStream(os, 1 << 16);
    }
    try (Writer w = new BufferedWriter(new OutputStreamWriter(os, StandardCharsets.UTF_8), 1 << 16)) {
      write(w, lines);
    }
  }

  public void write(Writer w, long lines) throws IOException {
    seedNamespace(Math.max(200, lines / 5));
    double total = mix.values().stream().mapToDouble(Double::doubleValue).sum();
    for (long i = 0; i < lines; i++) {
      if (pending.isEmpty()) {
        double pick = random.nextDouble() * total;
        String chosen = null;
        for (Map.Entry<String, Double> m : mix.entrySet()) {
          chosen = m.getKey();
          pick -= m.getValue();
          if (pick < 0) {
            break;
          }
        }
        switch (chosen) {
          case PUT -> put();
          case SNAPSHOT_PROBE -> snapshotProbe();
          case REFUSED -> refused();
          default -> pending.add(line(Command.ofAuditName(chosen)));
        }
      }
      clock += 1 + (long) (-Math.log(1 - random.nextDouble()) * 1.0); // about 1000 calls per second
      // A pattern cut by the end of the trace stays consistent: its records only make sense in order.
      String line = pending.poll();
      w.write(line.replace("@TIME@", LOG4J.format(Instant.ofEpochMilli(clock))));
      w.write('\n');
    }
  }

  /** The namespace before the trace: dirs in per-user trees, files placed with preferential attachment. */
  private void seedNamespace(long fileCount) {
    for (int u = 0; u < users; u++) {
      dirs.add(new Dir("/user/" + user(u), u));
    }
    if (mix.containsKey(REFUSED)) {
      for (int u = 0; u < users; u++) {
        dirs.add(new Dir("/user/" + user(u) + "/private", u)); // index users + u: refusals happen here
      }
    }
    long dirCount = Math.max(users * 4L, fileCount / 24);
    for (long i = users; i < dirCount; i++) {
      Dir parent = dirs.get(random.nextInt(dirs.size()));
      dirs.add(new Dir(parent.path() + "/d" + nextId++, parent.user()));
    }
    for (long i = 0; i < fileCount; i++) {
      files.add(new File(placeEntry(), "f" + nextId++));
    }
  }

  /** A directory for a new entry: mostly next to a random existing file (heavy-tailed sizes). */
  private int placeEntry() {
    if (!files.isEmpty() && random.nextInt(10) < 8) {
      return files.get(random.nextInt(files.size())).dir();
    }
    return random.nextInt(dirs.size());
  }

  private String line(Command c) {
    switch (c) {
      case GETFILEINFO, OPEN -> {
        File f = randomFile();
        return record(dirs.get(f.dir()).user(), c.auditName(), path(f), null, null);
      }
      case LIST_STATUS, CONTENT_SUMMARY -> {
        Dir d = dirs.get(random.nextInt(dirs.size()));
        return record(d.user(), c.auditName(), d.path(), null, null);
      }
      case CREATE -> {
        File f = new File(placeEntry(), "f" + nextId++);
        files.add(f);
        Dir d = dirs.get(f.dir());
        return record(d.user(), "create", path(f), null, user(d.user()) + ":supergroup:rw-r--r--");
      }
      case MKDIRS -> {
        Dir parent = dirs.get(placeEntry());
        Dir d = new Dir(parent.path() + "/d" + nextId++, parent.user());
        dirs.add(d);
        return record(d.user(), "mkdirs", d.path(), null, user(d.user()) + ":supergroup:rwxr-xr-x");
      }
      case SET_PERMISSION -> {
        File f = randomFile();
        String mode = new String[] {"rw-r--r--", "rw-r-----", "rw-------"}[random.nextInt(3)];
        int u = dirs.get(f.dir()).user();
        return record(u, "setPermission", path(f), null, user(u) + ":supergroup:" + mode);
      }
      case SET_TIMES, SET_REPLICATION -> {
        File f = randomFile();
        int u = dirs.get(f.dir()).user();
        return record(u, c.auditName(), path(f), null, c == Command.SET_TIMES ? user(u) + ":supergroup:rw-r--r--" : null);
      }
      case RENAME -> {
        int index = random.nextInt(files.size());
        File f = files.get(index);
        int u = dirs.get(f.dir()).user();
        int target = sameUserDir(u);
        File moved = new File(target, "f" + nextId++);
        files.set(index, moved);
        return record(u, "rename", path(f), path(moved), user(u) + ":supergroup:rw-r--r--");
      }
      case DELETE -> {
        int index = random.nextInt(files.size());
        File f = files.get(index);
        files.set(index, files.get(files.size() - 1));
        files.remove(files.size() - 1);
        return record(dirs.get(f.dir()).user(), "delete", path(f), null, null);
      }
      default -> throw new IllegalStateException("Not generated: " + c);
    }
  }

  private File randomFile() {
    return files.get(random.nextInt(files.size()));
  }

  private int sameUserDir(int user) {
    for (int tries = 0; tries < 32; tries++) {
      int d = placeEntry();
      if (dirs.get(d).user() == user) {
        return d;
      }
    }
    return user; // the user's home directory is always index `user`
  }

  private String path(File f) {
    return dirs.get(f.dir()).path() + "/" + f.name();
  }

  private static String user(int u) {
    return String.format(Locale.ROOT, "user%02d", u);
  }

  /** {@code hadoop fs -put} of a new file, as HDFS audits it. */
  private void put() {
    int d = placeEntry();
    int u = dirs.get(d).user();
    String name = "f" + nextId++;
    if (random.nextInt(4) == 0) {
      Dir out = new Dir(dirs.get(d).path() + "/out-" + nextId++, u);
      dirs.add(out);
      pending.add(record(u, "mkdirs", out.path(), null, user(u) + ":supergroup:rwxr-xr-x"));
      d = dirs.size() - 1;
      name = "_SUCCESS";
    }
    String dir = dirs.get(d).path();
    String dst = dir + "/" + name;
    String tmp = dst + "._COPYING_";
    String perm = user(u) + ":supergroup:rw-r--r--";
    pending.add(record(u, "getfileinfo", dst, null, null)); // audited allowed=true: it does not exist yet
    pending.add(record(u, "getfileinfo", dir, null, null));
    pending.add(record(u, "getfileinfo", tmp, null, null));
    pending.add(record(u, "create", tmp, null, perm));
    pending.add(record(u, "getfileinfo", tmp, null, null));
    pending.add(record(u, "rename", tmp, dst, perm));
    files.add(new File(d, name));
  }

  /** HBase looks for snapshots of its tables; HDFS audits the getfileinfo of {@code .snapshot} as allowed. */
  private void snapshotProbe() {
    pending.add(record("hbase", "getfileinfo", "/hbase/data/default/t" + random.nextInt(8) + "/.snapshot", null, null,
        true));
  }

  /** A refused call: another user in a private directory, a setPermission by a non-owner, a delete of nothing. */
  private void refused() {
    int kind = users < 2 ? 5 : random.nextInt(6);
    if (kind == 2) {
      // HDFS audits a refused open only of a file that exists (a missing one is FileNotFoundException).
      File f = randomFile();
      pending.add(record(user(other(dirs.get(f.dir()).user())), "open", path(f), null, null, false));
      return;
    }
    if (kind == 4) {
      File f = randomFile();
      int owner = dirs.get(f.dir()).user();
      pending.add(record(owner, "getfileinfo", path(f), null, null));
      pending.add(record(user(other(owner)), "setPermission", path(f), null, null, false));
      return;
    }
    int owner = random.nextInt(users);
    if (kind == 5) {
      pending.add(record(user(owner), "delete", dirs.get(owner).path() + "/gone-" + nextId++, null, null, false));
      return;
    }
    String priv = dirs.get(users + owner).path();
    // The owner's look at it shows the directory existed: the refusal has a place to come from.
    pending.add(record(owner, "getfileinfo", priv, null, null));
    String intruder = user(other(owner));
    switch (kind) {
      case 0 -> pending.add(record(intruder, "getfileinfo", priv + "/f" + nextId++, null, null, false));
      case 1 -> pending.add(record(intruder, "listStatus", priv, null, null, false));
      default -> pending.add(record(intruder, "mkdirs", priv + "/d" + nextId++, null, null, false));
    }
  }

  private int other(int u) {
    return (u + 1 + random.nextInt(users - 1)) % users;
  }

  private String record(int u, String cmd, String src, String dst, String perm) {
    return record(user(u), cmd, src, dst, perm, true);
  }

  /** One record; its time is filled in when it is written ({@code @TIME@}). */
  private String record(String user, String cmd, String src, String dst, String perm, boolean allowed) {
    int u = Math.floorMod(user.hashCode(), 250);
    return "@TIME@ INFO FSNamesystem.audit: allowed=" + allowed
        + "\tugi=" + user + " (auth:SIMPLE)"
        + "\tip=/10.0." + (u / 250) + "." + (u % 250 + 1)
        + "\tcmd=" + cmd
        + "\tsrc=" + StringEscapeUtils.escapeJava(src)
        + "\tdst=" + (dst == null ? "null" : StringEscapeUtils.escapeJava(dst))
        + "\tperm=" + (perm == null ? "null" : perm)
        + "\tproto=rpc";
  }
}
