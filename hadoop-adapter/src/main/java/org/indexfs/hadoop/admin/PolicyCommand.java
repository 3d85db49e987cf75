package org.indexfs.hadoop.admin;

import java.io.IOException;
import java.io.PrintStream;
import org.apache.hadoop.fs.Path;
import org.indexfs.common.policy.PolicyAt;
import org.indexfs.common.policy.SubtreePolicy;
import org.indexfs.hadoop.IndexFileSystem;

/**
 * {@code -setPolicy PATH --consistency strong|localized|decoupled --durability sync|async|client-journal},
 * {@code -clrPolicy PATH}, {@code -getPolicy PATH}, {@code -listPolicies}, {@code -replayJournals PATH}
 * (issue 18, subtree policies).
 * An option left out of {@code -setPolicy} keeps what is in force at PATH now.
 */
final class PolicyCommand {
  static final String USAGE = "-setPolicy <path> [--consistency strong|localized|decoupled]"
      + " [--durability sync|async|client-journal]";

  private final IndexFileSystem fs;
  private final PrintStream out;

  PolicyCommand(IndexFileSystem fs, PrintStream out) {
    this.fs = fs;
    this.out = out;
  }

  int run(String cmd, String[] args) throws IOException {
    switch (cmd) {
      case "-setPolicy" -> set(args);
      case "-clrPolicy" -> {
        fs.setPolicy(new Path(path(args)), null);
        out.println("Cleared the policy of " + args[0] + "; it inherits " + fs.getPolicy(new Path(args[0])).policy());
      }
      case "-getPolicy" -> out.println(fs.getPolicy(new Path(path(args))));
      case "-listPolicies" -> {
        for (PolicyAt p : fs.listPolicies()) {
          out.println(p.path() + "\t" + p.policy());
        }
      }
      case "-replayJournals" -> {
        long applied = fs.replayClientJournals(new Path(path(args)));
        out.println("Replayed " + applied + " operations from dead clients' journals in " + args[0]);
      }
      default -> throw new IllegalArgumentException("Unknown command " + cmd);
    }
    return 0;
  }

  private void set(String[] args) throws IOException {
    Path path = new Path(path(args));
    SubtreePolicy now = fs.getPolicy(path).policy();
    SubtreePolicy.Consistency c = now.consistency();
    SubtreePolicy.Durability d = now.durability();
    for (int i = 1; i < args.length; i++) {
      String opt = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("Missing value after " + opt);
      }
      switch (opt) {
        case "--consistency" -> c = SubtreePolicy.consistency(args[++i]);
        case "--durability" -> d = SubtreePolicy.durability(args[++i]);
        default -> throw new IllegalArgumentException("Unknown option " + opt);
      }
    }
    SubtreePolicy policy = new SubtreePolicy(c, d);
    fs.setPolicy(path, policy);
    out.println("Set " + policy + " on " + path);
  }

  private static String path(String[] args) {
    if (args.length == 0) {
      throw new IllegalArgumentException("Missing path");
    }
    return args[0];
  }
}
