package org.indexfs.hadoop.parity;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * Runs a command-line tool (Hadoop's own FsShell, DFSAdmin, or IndexFS's admin tool) the way a
 * script would, and keeps what it printed and its exit code. Tools print to System.out and
 * System.err, so runs are not concurrent.
 */
public final class Shell {
  private Shell() {}

  /** What a command printed and returned. */
  public record Output(int code, String out, String err) {
    @Override
    public String toString() {
      return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
    }
  }

  /** {@code hadoop fs <args>} against the file system named by {@code conf}'s fs.defaultFS. */
  public static Output fs(Configuration conf, UserGroupInformation ugi, String... args) throws Exception {
    return run(ugi, () -> new FsShell(new Configuration(conf)), args);
  }

  /** {@code hdfs storagepolicies <args>} (Hadoop's StoragePolicyAdmin) against the file system at {@code uri}. */
  public static Output storagePolicies(Configuration conf, java.net.URI uri, String... args) throws Exception {
    Configuration c = new Configuration(conf);
    c.set("fs.defaultFS", uri.toString());
    return run(null, () -> new org.apache.hadoop.hdfs.tools.StoragePolicyAdmin(c), args);
  }

  /** Any tool, created inside the redirection (FsShell's commands take System.out when made). */
  public static Output run(UserGroupInformation ugi, ToolFactory factory, String... args) throws Exception {
    PrintStream stdout = System.out;
    PrintStream stderr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      PrivilegedExceptionAction<Integer> action = () -> {
        Tool tool = factory.create();
        try {
          return ToolRunner.run(tool, args);
        } finally {
          if (tool instanceof FsShell shell) {
            shell.close();
          }
        }
      };
      int code = ugi == null ? action.run() : ugi.doAs(action);
      return new Output(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(stdout);
      System.setErr(stderr);
    }
  }

  /** Makes the tool to run. */
  @FunctionalInterface
  public interface ToolFactory {
    Tool create() throws Exception;
  }
}
