package org.indexfs.hadoop.admin;

import static org.apache.hadoop.util.StringUtils.byteDesc;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.indexfs.client.admin.AdminClient;
import org.indexfs.hadoop.IndexFileSystem;
import org.indexfs.proto.SlotReport;

/**
 * {@code -report}: the cluster, then each slot, as {@code hdfs dfsadmin -report} prints the
 * cluster and then each DataNode. Slots nobody serves are listed as dead. Each slot shows
 * its epoch ("none" without a journal) and its standbys with how far each replayed the journal.
 */
final class ReportCommand {
  private static final String RULE = "-------------------------------------------------";

  private final AdminClient admin;
  private final IndexFileSystem fs;
  private final PrintStream out;

  ReportCommand(AdminClient admin, IndexFileSystem fs, PrintStream out) {
    this.admin = admin;
    this.fs = fs;
    this.out = out;
  }

  int run() throws IOException {
    int n = admin.slotCount();
    List<SlotReport> live = new ArrayList<>();
    List<Integer> dead = new ArrayList<>();
    for (int slot = 0; slot < n; slot++) {
      if (admin.owner(slot) == null) {
        dead.add(slot);
      } else {
        live.add(admin.report(slot));
      }
    }
    long entries = 0;
    long splits = 0;
    long open = 0;
    long objects = 0;
    long bytes = 0;
    boolean safe = false;
    for (SlotReport r : live) {
      entries += r.getEntries();
      splits += r.getSplitsInFlight();
      open += r.getOpenFiles();
      objects += r.getDataObjects();
      bytes += r.getDataBytes();
      safe |= r.getSafeMode();
    }
    out.println("Cluster: " + admin.cluster() + " (" + fs.getUri() + ")");
    out.println("Slots: " + n + " (" + live.size() + " served)");
    out.println("Safe mode: " + (safe ? "ON" : "OFF"));
    out.println("Entries: " + entries + " (estimated)");
    out.println("Splits in flight: " + splits);
    out.println("Files open for writing: " + open);
    if (!live.isEmpty()) {
      SlotReport any = live.get(0);
      out.println("Data tier: " + (any.getDataUri().isEmpty() ? "none (every file inline)" : any.getDataUri()));
      if (any.getDataCapacity() >= 0) {
        out.println("Data tier capacity: " + any.getDataCapacity() + " (" + byteDesc(any.getDataCapacity()) + ")");
        out.println("Data tier used: " + any.getDataUsed() + " (" + byteDesc(any.getDataUsed()) + ")");
        out.println("Data tier remaining: " + any.getDataRemaining() + " (" + byteDesc(any.getDataRemaining()) + ")");
      }
    }
    out.println("Data objects: " + objects + " (" + byteDesc(bytes) + ")");
    long standbys = live.stream().mapToLong(SlotReport::getStandbysCount).sum();
    out.println("Standbys: " + (standbys == 0 ? "none" : String.valueOf(standbys)));
    out.println();
    out.println(RULE);
    out.println("Live slots (" + live.size() + "):");
    out.println();
    for (SlotReport r : live) {
      slot(r);
    }
    out.println("Dead slots (" + dead.size() + "):");
    out.println();
    for (int slot : dead) {
      out.println("Slot: " + slot);
      out.println("Owner: none (no server holds its lease)");
      out.println();
    }
    return 0;
  }

  private void slot(SlotReport r) {
    out.println("Slot: " + r.getSlot());
    out.println("Owner: " + r.getAddress());
    out.println("Status page: " + (r.getHttpAddress().isEmpty() ? "off" : "http://" + r.getHttpAddress() + "/"));
    out.println("Epoch: " + (r.getEpoch() < 0 ? "none" : String.valueOf(r.getEpoch())));
    out.println("Standbys: " + (r.getStandbysCount() == 0 ? "none" : String.join(", ", r.getStandbysList())));
    out.println("Entries: " + r.getEntries() + " (estimated)");
    out.println("Splits in flight: " + r.getSplitsInFlight() + " (done: " + r.getSplitsDone() + ")");
    out.println("Files open for writing: " + r.getOpenFiles());
    out.println("Entry lease table: " + r.getEntryLeases());
    out.println("Operations served: " + r.getOperationsServed());
    out.println("Data objects: " + r.getDataObjects() + " (" + byteDesc(r.getDataBytes()) + ")");
    out.println("Safe mode: " + (r.getSafeMode() ? "ON" : "OFF"));
    out.println("Started: " + Instant.ofEpochMilli(r.getStartedMs()));
    out.println();
  }
}
