package org.indexfs.hadoop.admin;

import java.io.IOException;
import java.io.PrintStream;
import org.indexfs.client.admin.AdminClient;

/**
 * {@code indexfs admin -handover <slot> [--to <name>]}: moves a slot to one of its standbys with no
 * error seen by clients (as {@code hdfs haadmin -failover}); the old owner stays on as a standby.
 * Growing a cluster is handing slots over to standbys started on the new machines.
 */
final class HandoverCommand {
  private final AdminClient admin;
  private final PrintStream out;

  HandoverCommand(AdminClient admin, PrintStream out) {
    this.admin = admin;
    this.out = out;
  }

  int run(String[] args) throws IOException {
    if (args.length != 1 && !(args.length == 3 && args[1].equals("--to"))) {
      throw new IllegalArgumentException("expected <slot> [--to <name>]");
    }
    int slot;
    try {
      slot = Integer.parseInt(args[0]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a slot number: " + args[0]);
    }
    if (slot < 0 || slot >= admin.slotCount()) {
      throw new IllegalArgumentException("cluster " + admin.cluster() + " has slots 0.." + (admin.slotCount() - 1));
    }
    String to = args.length == 3 ? args[2] : "";
    String before = admin.owner(slot);
    String now = admin.handover(slot, to);
    out.println("Handed slot " + slot + " over from " + before + " to " + now);
    return 0;
  }
}
