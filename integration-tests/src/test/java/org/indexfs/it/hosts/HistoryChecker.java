package org.indexfs.it.hosts;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Checks a {@link History} against the final namespace. Every path belongs to one writer, so the
 * writer's own order of completions is the order its changes took effect; replaying its
 * acknowledged calls gives what each path must be at the end: a directory, a file with the bytes
 * its create wrote, or absent. A call with an unknown outcome (info) leaves its paths unknown.
 * Then: an acknowledged path missing is <b>lost</b>; a path that must be absent but is there (a
 * renamed-away or deleted file back, i.e. a create or rename applied twice) is <b>applied twice</b>;
 * a file with other bytes is <b>corrupt</b>; an entry no call made is a <b>phantom</b>; a rename or
 * delete answering false where it must succeed is an <b>anomaly</b>.
 */
final class HistoryChecker {
  private enum Kind { DIR, FILE, ABSENT, UNKNOWN }

  private record Expect(Kind kind, String content) {
    static final Expect DIR = new Expect(Kind.DIR, null);
    static final Expect ABSENT = new Expect(Kind.ABSENT, null);
    static final Expect UNKNOWN = new Expect(Kind.UNKNOWN, null);
  }

  /** What the check found; {@link #clean()} when nothing is wrong. */
  record Result(long acknowledged, long unknown, List<String> lost, List<String> appliedTwice, List<String> corrupt,
                List<String> phantoms, List<String> anomalies) {
    boolean clean() {
      return lost.isEmpty() && appliedTwice.isEmpty() && corrupt.isEmpty() && phantoms.isEmpty() && anomalies.isEmpty();
    }

    @Override
    public String toString() {
      return acknowledged + " acknowledged operations, " + unknown + " with unknown outcome (errors at the application); "
          + lost.size() + " lost, " + appliedTwice.size() + " applied twice, " + corrupt.size() + " corrupt, "
          + phantoms.size() + " phantoms, " + anomalies.size() + " anomalies"
          + (clean() ? "" : " — e.g. lost " + first(lost) + ", twice " + first(appliedTwice) + ", corrupt "
              + first(corrupt) + ", phantoms " + first(phantoms) + ", anomalies " + first(anomalies));
    }

    /** A few paths of each kind of finding. */
    List<String> examples() {
      List<String> all = new ArrayList<>();
      for (List<String> l : List.of(lost, appliedTwice, corrupt, phantoms)) {
        all.addAll(first(l));
      }
      return all;
    }

    private static List<String> first(List<String> l) {
      return l.subList(0, Math.min(5, l.size()));
    }
  }

  static Result check(History history, FileSystem fs, List<String> dirs) throws IOException {
    Map<String, Expect> model = new TreeMap<>();
    List<String> anomalies = new ArrayList<>();
    long acknowledged = 0;
    long unknown = 0;
    for (History.Event e : history.events()) {
      if (e.process() < 0) {
        continue;
      }
      String[] paths = e.args().split(" ");
      switch (e.type()) {
        case INVOKE -> { }
        case INFO, FAIL -> {
          unknown++;
          for (String p : paths) {
            model.put(p, Expect.UNKNOWN);
          }
        }
        case OK -> {
          acknowledged++;
          boolean answer = Boolean.parseBoolean(e.result());
          switch (e.op()) {
            case "mkdir" -> model.put(paths[0], Expect.DIR);
            case "create" -> model.put(paths[0], new Expect(Kind.FILE, ChaosWorkload.content(paths[0])));
            case "rename" -> {
              if (!answer) {
                anomalies.add("rename " + e.args() + " answered false");
                model.put(paths[0], Expect.UNKNOWN);
                model.put(paths[1], Expect.UNKNOWN);
              } else {
                model.put(paths[1], model.getOrDefault(paths[0], Expect.UNKNOWN));
                model.put(paths[0], Expect.ABSENT);
              }
            }
            case "delete" -> {
              if (!answer) {
                anomalies.add("delete " + e.args() + " answered false");
              }
              model.put(paths[0], answer ? Expect.ABSENT : Expect.UNKNOWN);
            }
            default -> anomalies.add("unknown op " + e.op());
          }
        }
      }
    }
    Map<String, FileStatus> listed = new TreeMap<>();
    for (String d : dirs) {
      for (FileStatus s : fs.listStatus(new Path(d))) {
        listed.put(d + "/" + s.getPath().getName(), s);
      }
    }
    List<String> lost = new ArrayList<>();
    List<String> twice = new ArrayList<>();
    List<String> corrupt = new ArrayList<>();
    for (Map.Entry<String, Expect> m : model.entrySet()) {
      FileStatus s = listed.get(m.getKey());
      switch (m.getValue().kind()) {
        case DIR -> {
          if (s == null || !s.isDirectory()) {
            lost.add(m.getKey());
          }
        }
        case FILE -> {
          if (s == null || !s.isFile()) {
            lost.add(m.getKey());
          } else if (!m.getValue().content().equals(read(fs, m.getKey()))) {
            corrupt.add(m.getKey());
          }
        }
        case ABSENT -> {
          if (s != null) {
            twice.add(m.getKey());
          }
        }
        case UNKNOWN -> { }
      }
    }
    List<String> phantoms = new ArrayList<>();
    for (String p : listed.keySet()) {
      if (!model.containsKey(p)) {
        phantoms.add(p);
      }
    }
    return new Result(acknowledged, unknown, lost, twice, corrupt, phantoms, anomalies);
  }

  private static String read(FileSystem fs, String path) throws IOException {
    try (InputStream in = fs.open(new Path(path))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (FileNotFoundException e) {
      return null;
    }
  }
}
