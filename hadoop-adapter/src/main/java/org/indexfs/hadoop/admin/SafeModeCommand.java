package org.indexfs.hadoop.admin;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import org.indexfs.client.admin.AdminClient;
import org.indexfs.proto.SafeModeRequest;

/**
 * {@code -safemode enter|leave|get|wait|forceExit}: the cluster-wide read-only switch. Prints
 * what {@code hdfs dfsadmin -safemode} prints: {@code Safe mode is ON} or {@code Safe mode is OFF}.
 */
final class SafeModeCommand {
  private final AdminClient admin;
  private final PrintStream out;

  SafeModeCommand(AdminClient admin, PrintStream out) {
    this.admin = admin;
    this.out = out;
  }

  int run(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("expected one of enter, leave, get, wait, forceExit");
    }
    SafeModeRequest.Action action = switch (args[0]) {
      case "enter" -> SafeModeRequest.Action.ENTER;
      case "leave", "forceExit" -> SafeModeRequest.Action.LEAVE;
      case "get", "wait" -> SafeModeRequest.Action.GET;
      default -> throw new IllegalArgumentException("unknown safe mode action " + args[0]);
    };
    boolean on = admin.safeMode(action).getOn();
    while (args[0].equals("wait") && on) {
      try {
        Thread.sleep(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("Interrupted while waiting for safe mode to end");
      }
      on = admin.safeMode(action).getOn();
    }
    out.println("Safe mode is " + (on ? "ON" : "OFF"));
    return 0;
  }
}
