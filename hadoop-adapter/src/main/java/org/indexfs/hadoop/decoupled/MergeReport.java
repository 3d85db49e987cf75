package org.indexfs.hadoop.decoupled;

import java.util.ArrayList;
import java.util.List;

/**
 * What a merge of a checked-out copy did: how many of the copy's changes reached the namespace,
 * and every one that did not, by path and reason (the server's side won; see
 * {@link Merge} for the rule). Nothing of the copy is dropped without being listed here.
 */
public final class MergeReport {
  /** A change of the copy that the merge did not apply, and why. */
  public record Conflict(String path, String reason) {
    @Override
    public String toString() {
      return path + ": " + reason;
    }
  }

  private final String root;
  private final List<Conflict> conflicts = new ArrayList<>();
  private long applied;
  private long millis;

  MergeReport(String root) {
    this.root = root;
  }

  void conflict(String path, String reason) {
    conflicts.add(new Conflict(path, reason));
  }

  void applied(long n) {
    applied += n;
  }

  void took(long ms) {
    millis = ms;
  }

  /** The checked-out directory. */
  public String root() {
    return root;
  }

  /** The copy's changes that were not applied, in the order the merge met them. */
  public List<Conflict> conflicts() {
    return List.copyOf(conflicts);
  }

  /** Changes applied: renames and deletes replayed on the server, plus entries published. */
  public long applied() {
    return applied;
  }

  /** How long the merge took, from its grant to its publish. */
  public long millis() {
    return millis;
  }

  @Override
  public String toString() {
    return "Merged " + root + ": " + applied + " changes applied, " + conflicts.size() + " conflicts"
        + (conflicts.isEmpty() ? "" : " " + conflicts) + " in " + millis + " ms";
  }
}
