package org.indexfs.bench.replay;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One path of the namespace model {@link PrecreatePlan} plays a trace on. It keeps apart what an
 * entry is <em>now</em> (at the record being played) and what it was <em>before</em> the trace
 * began, which the model decides as late as the trace allows: an entry the trace has neither
 * made, removed nor proved existing is {@link Now#UNCHANGED} — whatever it was before, it still is.
 */
final class ModelNode {
  /** Existence at the record being played. */
  enum Now { UNCHANGED, PRESENT, ABSENT }

  /** Existence when the trace began; NONE for an entry the trace made (nothing to pre-create). */
  enum Before { UNDECIDED, PRESENT, ABSENT, NONE }

  static final byte UNKNOWN_TYPE = 0;
  static final byte FILE = 1;
  static final byte DIRECTORY = 2;

  String name;
  ModelNode parent;
  private Map<String, ModelNode> children;
  Now now;
  Before before;
  /** Where the entry was when the trace began, for entries that may have existed then (else null). */
  final String origin;
  byte type;
  /** Listed (listStatus, contentSummary): a weak sign of a directory, used only if nothing stronger says. */
  boolean listed;
  /** mkdirs (or a create's missing parents) made it exist while UNCHANGED: it may or may not have been there. */
  boolean madeByTrace;
  /** A getfileinfo/listStatus saw it while UNCHANGED (the audit log does not say whether it existed). */
  boolean probed;
  /** A refused delete hit it while UNCHANGED: nothing deleted, or a permission refusal. */
  boolean refusedDelete;
  /** For entries that existed before the trace: what the trace shows about their owner, group and mode. */
  EntryAccess access;

  ModelNode(String name, ModelNode parent, Now now, Before before, String origin) {
    this.name = name;
    this.parent = parent;
    this.now = now;
    this.before = before;
    this.origin = origin;
  }

  static ModelNode root() {
    ModelNode r = new ModelNode("", null, Now.PRESENT, Before.PRESENT, "/");
    r.type = DIRECTORY;
    return r;
  }

  /** Whether entries below may have existed before the trace (and so are UNCHANGED until the trace says). */
  private boolean mayHoldOlderEntries() {
    return type != FILE && (now == Now.UNCHANGED
        || now == Now.PRESENT && (before == Before.PRESENT || before == Before.UNDECIDED));
  }

  /** The child called {@code n}, materialised with what this node implies about it. */
  ModelNode child(String n, Consumer<ModelNode> onOlder) {
    ModelNode c = children == null ? null : children.get(n);
    if (c == null) {
      if (mayHoldOlderEntries()) {
        c = new ModelNode(n, this, Now.UNCHANGED, Before.UNDECIDED, origin.equals("/") ? "/" + n : origin + "/" + n);
        onOlder.accept(c);
      } else {
        c = absentMarker(n);
      }
      put(c);
    }
    return c;
  }

  /** An entry the trace shows not existing here now (and nothing to pre-create for it). */
  ModelNode absentMarker(String n) {
    return new ModelNode(n, this, Now.ABSENT, Before.NONE, null);
  }

  /** Puts {@code c} under this node as {@code c.name}, replacing whatever was there. */
  void put(ModelNode c) {
    if (children == null) {
      children = new HashMap<>(4);
    }
    c.parent = this;
    children.put(c.name, c);
  }

  /** Leaves an absent marker where this node was; the node keeps its subtree (for the final decisions). */
  void removeFromParent() {
    if (parent != null) {
      parent.put(parent.absentMarker(name));
    }
  }

  boolean isPreExisting() {
    return before == Before.PRESENT;
  }

  /** Decides this node, and every undecided ancestor (an entry's parents existed with it), existed before. */
  void decidePresentBefore() {
    for (ModelNode n = this; n != null && n.before == Before.UNDECIDED; n = n.parent) {
      n.before = Before.PRESENT;
      if (n.now == Now.UNCHANGED) {
        n.now = Now.PRESENT;
      }
      if (n != this && n.type == UNKNOWN_TYPE) {
        n.type = DIRECTORY;
      }
    }
  }

  /** Decides this node and everything undecided below it did not exist before the trace. */
  void decideAbsentBefore() {
    Deque<ModelNode> todo = new ArrayDeque<>();
    todo.push(this);
    while (!todo.isEmpty()) {
      ModelNode n = todo.pop();
      if (n.before != Before.UNDECIDED) {
        continue;
      }
      n.before = Before.ABSENT;
      if (n.now == Now.UNCHANGED) {
        n.now = Now.ABSENT;
      }
      if (n.children != null) {
        n.children.values().forEach(todo::push);
      }
    }
  }

  /** Marks the node a file: whatever was UNCHANGED below it never existed. */
  void becomeFile() {
    type = FILE;
    if (children != null) {
      for (ModelNode c : children.values()) {
        c.decideAbsentBefore();
      }
    }
  }

  int depth() {
    int d = 0;
    for (ModelNode n = parent; n != null; n = n.parent) {
      d++;
    }
    return d;
  }

  EntryAccess access() {
    if (access == null) {
      access = new EntryAccess();
    }
    return access;
  }
}
