package org.indexfs.hadoop.admin;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.indexfs.client.admin.AdminClient;
import org.indexfs.hadoop.IndexFileSystem;

/**
 * {@code bin/indexfs admin}: the cluster's operator commands, in the manner of
 * {@code hdfs dfsadmin} — the cluster is {@code fs.defaultFS} (or {@code -fs indexfs://name/}),
 * the caller is the Hadoop user, errors print as {@code <command>: <message>} and exit -1. The
 * generic options ({@code -D}, {@code -conf}, {@code -fs}) work as for every Hadoop tool.
 */
public final class IndexFsAdmin extends Configured implements Tool {
  static final String USAGE = """
      Usage: indexfs admin [generic options]
      \t[-report]
      \t[-safemode <enter | leave | get | wait | forceExit>]
      \t[-balance [-top <n>]]
      \t[-fsck [<path>]]
      \t[-setQuota <quota> <dirname>...<dirname>]
      \t[-clrQuota <dirname>...<dirname>]
      \t[-setSpaceQuota <quota> [-storageType <storagetype>] <dirname>...<dirname>]
      \t[-clrSpaceQuota [-storageType <storagetype>] <dirname>...<dirname>]
      \t[-allowSnapshot <snapshotDir>]
      \t[-disallowSnapshot <snapshotDir>]
      \t[-lsSnapshottableDir]
      \t[-handover <slot> [--to <name>]]
      \t[-setPolicy <path> [--consistency strong|localized|decoupled] [--durability sync|async|client-journal]]
      \t[-clrPolicy <path>]
      \t[-getPolicy <path>]
      \t[-listPolicies]
      \t[-replayJournals <path>]
      \t[-help]
      """;

  private final PrintStream out;
  private final PrintStream err;

  public IndexFsAdmin(Configuration conf) {
    this(conf, System.out, System.err);
  }

  IndexFsAdmin(Configuration conf, PrintStream out, PrintStream err) {
    super(conf);
    this.out = out;
    this.err = err;
  }

  @Override
  public int run(String[] args) throws Exception {
    if (args.length == 0 || args[0].equals("-help")) {
      (args.length == 0 ? err : out).print(USAGE);
      return args.length == 0 ? -1 : 0;
    }
    String cmd = args[0];
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    if (cmd.endsWith("Quota")) {
      return quota(cmd, args);
    }
    FileSystem fs = FileSystem.get(getConf());
    if (!(fs instanceof IndexFileSystem ifs)) {
      err.println("FileSystem " + fs.getUri() + " is not an IndexFS file system");
      return -1;
    }
    AdminClient admin = new AdminClient(ifs.client());
    try {
      return switch (cmd) {
        case "-report" -> new ReportCommand(admin, ifs, out).run();
        case "-safemode" -> new SafeModeCommand(admin, out).run(rest);
        case "-balance" -> new BalanceCommand(admin, out).run(rest);
        case "-fsck" -> new FsckCommand(admin, ifs, getConf(), out).run(rest.length == 0 ? "/" : rest[0]);
        case "-handover" -> new HandoverCommand(admin, out).run(rest);
        case "-setPolicy", "-clrPolicy", "-getPolicy", "-listPolicies", "-replayJournals" -> new PolicyCommand(ifs, out).run(cmd, rest);
        case "-allowSnapshot", "-disallowSnapshot" -> {
          if (rest.length != 1) {
            // As dfsadmin: the verb's own usage line, nothing else.
            err.println("Usage: indexfs admin [" + cmd + " <snapshotDir>]");
            yield -1;
          }
          boolean on = cmd.equals("-allowSnapshot");
          org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path(rest[0]);
          if (on) {
            ifs.allowSnapshot(dir);
          } else {
            ifs.disallowSnapshot(dir);
          }
          out.println((on ? "Allowing" : "Disallowing") + " snapshot on " + rest[0] + " succeeded");
          yield 0;
        }
        case "-lsSnapshottableDir" -> {
          // As `hdfs lsSnapshottableDir` prints them.
          org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus.print(ifs.getSnapshottableDirListing(), out);
          yield 0;
        }
        default -> {
          err.println(cmd.substring(cmd.startsWith("-") ? 1 : 0) + ": Unknown command");
          err.print(USAGE);
          yield -1;
        }
      };
    } catch (IllegalArgumentException e) {
      err.println(cmd.substring(1) + ": " + e.getMessage());
      err.print(USAGE);
      return -1;
    } catch (UnsupportedOperationException e) {
      // A feature not built (e.g. a subtree policy whose mechanism is missing): said, not thrown.
      err.println(cmd.substring(1) + ": " + e.getMessage());
      return -1;
    } catch (IOException e) {
      // dfsadmin prints the first line of the server's message after the command's name.
      String m = String.valueOf(e.getLocalizedMessage());
      err.println(cmd.substring(1) + ": " + m.split("\n", 2)[0]);
      return -1;
    }
  }

  /** The quota verbs, as {@code hdfs dfsadmin} runs them (its usage line on a wrong call, exit -1). */
  private int quota(String cmd, String[] args) {
    try {
      QuotaCommand command = QuotaCommand.parse(cmd, args, 1, getConf());
      command.out = out;
      command.err = err;
      return command.runAll();
    } catch (IllegalArgumentException e) {
      err.println(cmd.substring(1) + ": " + e.getLocalizedMessage());
      err.println("Usage: indexfs admin [" + QuotaCommand.usage(cmd) + "]");
      return -1;
    }
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new IndexFsAdmin(new Configuration()), args));
  }
}
