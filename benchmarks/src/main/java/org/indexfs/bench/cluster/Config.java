package org.indexfs.bench.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One system as measured: IndexFS on {@code slices} slots of one slice each, or a NameNode (with
 * {@code lock}) on one process of {@code slices} slices' quota. {@code slice} is the group's slice
 * (the smaller slice of the 16-slot runs forms a group of its own, with its own one-slice baseline).
 */
record Config(boolean indexfs, NameNodeHost.Lock lock, int slices, double slice) {

  static Config indexfs(int slots, double slice) {
    return new Config(true, null, slots, slice);
  }

  static Config nameNode(NameNodeHost.Lock lock, int slices, double slice) {
    return new Config(false, lock, slices, slice);
  }

  /** The CPU the whole system may use, in cores. */
  double cpus() {
    return slices * slice;
  }

  /** The series a chart draws this on: IndexFS, NameNode (global lock), NameNode (fine-grained lock). */
  String system() {
    return indexfs ? "IndexFS" : "NameNode (" + lock.label + ")";
  }

  String label() {
    String what = indexfs ? "IndexFS " + slices + (slices == 1 ? " slot" : " slots")
        : "NameNode " + slices + (slices == 1 ? " slice" : " slices") + " (" + lock.label + ")";
    return what + String.format(Locale.ROOT, " @%s", ClusterReport.cpus(slice));
  }

  /** The name the client hosts know the system by. */
  String target() {
    return indexfs ? SlotCluster.clusterName(slices) : NameNodeHost.hostName(lock);
  }

  /** The hosts whose slices this configuration limits. */
  List<String> serverHosts() {
    if (!indexfs) {
      return List.of(NameNodeHost.hostName(lock));
    }
    List<String> h = new ArrayList<>();
    for (int k = 0; k < slices; k++) {
      h.add(SlotCluster.hostName(slices, k));
    }
    return h;
  }

  /** The quota of each of {@link #serverHosts}, in CPUs. */
  double quotaPerHost() {
    return indexfs ? slice : slices * slice;
  }

  /** The configurations of one run, in the order each round runs them: per slot count, IndexFS then the NameNodes. */
  static List<Config> all(ClusterOptions o) {
    List<Config> out = new ArrayList<>();
    addGroup(o, o.slots(), o.slice(), out);
    addGroup(o, o.smallSlots(), o.smallSlice(), out);
    return out;
  }

  private static void addGroup(ClusterOptions o, List<Integer> slots, double slice, List<Config> out) {
    for (int n : slots) {
      out.add(indexfs(n, slice));
      if (o.nameNodeSlices().contains(n)) {
        for (NameNodeHost.Lock l : NameNodeHost.locks(o.fineGrained())) {
          out.add(nameNode(l, n, slice));
        }
      }
    }
  }
}
