package org.indexfs.hadoop.parity;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The comparison helper every HDFS-parity test shares: the same named steps (FileSystem and
 * FileContext calls, {@code hadoop fs} commands) run on {@code hdfs://} and on {@code indexfs://},
 * each rendered as text (its result, or its exception's type and first message line; a command's
 * exit code, output and errors), with only what must differ masked: the file system's URI and
 * wall-clock times. The two transcripts must be equal, line by line.
 */
public final class Parity {
  private Parity() {}

  /** One file system under test, and the directory the steps work in (the same path on both). */
  public static final class Target implements AutoCloseable {
    final String label;
    final URI uri;
    final Configuration conf;
    final Path base;
    private final Map<String, FileSystem> asUsers = new HashMap<>();
    private FileSystem fs;

    public Target(String label, URI uri, Configuration conf, Path base) {
      this.label = label;
      this.uri = uri;
      this.conf = new Configuration(conf);
      this.conf.set("fs.defaultFS", uri.toString());
      this.base = base;
    }

    public FileSystem fs() throws IOException {
      if (fs == null) {
        fs = FileSystem.newInstance(uri, conf);
      }
      return fs;
    }

    public FileContext fc() throws IOException {
      return FileContext.getFileContext(uri, conf);
    }

    public Configuration conf() {
      return conf;
    }

    /** A file system of its own for {@code user} (in a group of the same name). */
    public FileSystem as(String user) throws IOException {
      FileSystem cached = asUsers.get(user);
      if (cached != null) {
        return cached;
      }
      UserGroupInformation ugi = UserGroupInformation.createUserForTesting(user, new String[] {user + "group"});
      try {
        FileSystem other = ugi.doAs((PrivilegedExceptionAction<FileSystem>) () -> FileSystem.newInstance(uri, conf));
        asUsers.put(user, other);
        return other;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
    }

    /** {@code relative} under the base directory. */
    public Path path(String relative) {
      return relative.isEmpty() ? base : new Path(base, relative);
    }

    /** Masks what differs between two file systems by nature: their URI and the clock. */
    String normalize(String text) {
      String out = text.replace(uri.toString(), "<fs>");
      out = out.replaceAll("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}(:\\d{2})?", "<time>");
      // A crash's stack trace says where it happened, which differs by nature; its first line stays.
      out = out.replaceAll("(?m)^\\s+at .*\\R", "");
      return out;
    }

    @Override
    public void close() throws IOException {
      if (fs != null) {
        fs.close();
      }
      for (FileSystem other : asUsers.values()) {
        other.close();
      }
    }
  }

  /** A step's work on one target; its result is rendered with {@link String#valueOf}. */
  @FunctionalInterface
  public interface Action {
    Object run(Target t) throws Exception;
  }

  public record Step(String name, Action action) {}

  public static Step step(String name, Action action) {
    return new Step(name, action);
  }

  /** A {@code hadoop fs} command; {@code {base}} in an argument stands for the base directory. */
  public static Step shell(String... args) {
    return step("fs " + String.join(" ", args), t -> runShell(t, args));
  }

  /** Runs the steps in order on {@code t}; one line per step. */
  public static List<String> transcript(Target t, List<Step> steps) {
    List<String> out = new ArrayList<>();
    for (Step s : steps) {
      String rendered;
      try {
        rendered = "=> " + String.valueOf(s.action().run(t));
      } catch (Throwable e) {
        rendered = "!! " + describe(e);
      }
      out.add(s.name() + " " + t.normalize(rendered));
    }
    return out;
  }

  /** The same steps on both targets give the same transcript. */
  public static void assertSameAsHdfs(Target hdfs, Target indexfs, List<Step> steps) {
    List<String> expected = transcript(hdfs, steps);
    List<String> actual = transcript(indexfs, steps);
    System.out.println("Transcript of " + indexfs.label + " (HDFS's differs only where reported below):\n"
        + String.join("\n", actual));
    List<String> differences = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      if (!expected.get(i).equals(actual.get(i))) {
        differences.add("hdfs:    " + expected.get(i) + "\n" + indexfs.label + ": " + actual.get(i));
      }
    }
    assertEquals("", String.join("\n\n", differences),
        differences.size() + " of " + steps.size() + " steps differ from HDFS");
  }

  /** An exception as a caller sees it: its type (a remote one's class name) and first message line. */
  static String describe(Throwable e) {
    String type = e instanceof RemoteException r ? "RemoteException(" + r.getClassName() + ")" : e.getClass().getName();
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    return type + ": " + (newline < 0 ? message : message.substring(0, newline));
  }

  private static String runShell(Target t, String... args) throws Exception {
    String[] resolved = new String[args.length];
    for (int i = 0; i < args.length; i++) {
      resolved[i] = args[i].replace("{base}", t.base.toString());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream savedOut = System.out;
    PrintStream savedErr = System.err;
    int code;
    synchronized (Parity.class) {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      try {
        FsShell shell = new FsShell(new Configuration(t.conf));
        code = shell.run(resolved);
        shell.close();
      } finally {
        System.setOut(savedOut);
        System.setErr(savedErr);
      }
    }
    return "exit " + code + "\n" + out.toString(StandardCharsets.UTF_8) + "[stderr]\n"
        + err.toString(StandardCharsets.UTF_8);
  }
}
