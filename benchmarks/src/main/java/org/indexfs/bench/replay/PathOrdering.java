package org.indexfs.bench.replay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Keeps the trace's order wherever it matters while independent calls run in parallel: a call
 * waits for every earlier call on one of its paths, on an ancestor of them (whose rename or mode
 * it may depend on), anywhere below them (a delete, rename or listing of a directory sees its
 * whole subtree), and for the call that first created each of its ancestors — create and mkdirs
 * make missing parents, and with modes that depend on who got there first. Calls on unrelated
 * paths never wait for each other.
 *
 * <p>{@link #register} is called by one thread in trace order; {@link #completed} by any thread.
 */
final class PathOrdering {
  /** One call in flight. */
  static final class Call {
    final AuditEvent event;
    /** Its place among the calls of one replay (0, 1, 2 ... in trace order). */
    final int ordinal;
    final AtomicInteger waitingFor = new AtomicInteger(1); // 1 until registration finishes
    private List<Call> dependents;
    private boolean done;

    Call(AuditEvent event) {
      this(event, 0);
    }

    Call(AuditEvent event, int ordinal) {
      this.event = event;
      this.ordinal = ordinal;
    }
  }

  private static final class Node {
    Map<String, Node> children;
    Call lastHere;
    Call lastBelow; // the latest call at this node or anywhere below it
    boolean exists; // as far as the calls registered so far tell
    Call creator; // the call that made it exist, when the trace did

    Node child(String name) {
      if (children == null) {
        children = new HashMap<>(4);
      }
      return children.computeIfAbsent(name, n -> new Node());
    }
  }

  private final Node root = new Node();

  {
    root.exists = true;
  }
  private final Consumer<Call> ready;

  /** {@code ready} receives each call once everything it must follow has completed. */
  PathOrdering(Consumer<Call> ready) {
    this.ready = ready;
  }

  void register(Call call) {
    List<String> paths = call.event.paths();
    List<List<Node>> chains = new ArrayList<>(paths.size());
    Command command = call.event.command();
    boolean creates = call.event.allowed() && (command == Command.CREATE || command == Command.MKDIRS);
    for (String path : paths) {
      List<Node> chain = chain(path);
      chains.add(chain);
      for (int i = 0; i < chain.size(); i++) {
        Node n = chain.get(i);
        boolean last = i == chain.size() - 1;
        follow(call, last ? n.lastBelow : n.lastHere);
        follow(call, n.creator);
        if (!n.exists && call.event.allowed()) { // the call succeeded, so the path existed or it made it
          n.exists = true;
          n.creator = creates ? call : null;
        }
      }
      if (call.event.allowed() && (command == Command.DELETE || (command == Command.RENAME && path.equals(paths.get(0))))) {
        Node gone = chain.get(chain.size() - 1);
        gone.exists = false; // a later create makes it (and its parents) again
        gone.creator = null;
      }
    }
    for (List<Node> chain : chains) {
      chain.get(chain.size() - 1).lastHere = call;
      for (Node n : chain) {
        n.lastBelow = call;
      }
    }
    release(call);
  }

  private List<Node> chain(String path) {
    List<Node> chain = new ArrayList<>(8);
    Node n = root;
    chain.add(n);
    for (String name : PrecreatePlan.names(path)) {
      n = n.child(name);
      chain.add(n);
    }
    return chain;
  }

  private static void follow(Call call, Call earlier) {
    if (earlier == null || earlier == call) {
      return;
    }
    synchronized (earlier) {
      if (earlier.done) {
        return;
      }
      if (earlier.dependents == null) {
        earlier.dependents = new ArrayList<>(2);
      }
      if (!earlier.dependents.contains(call)) {
        earlier.dependents.add(call);
        call.waitingFor.incrementAndGet();
      }
    }
  }

  private void release(Call call) {
    if (call.waitingFor.decrementAndGet() == 0) {
      ready.accept(call);
    }
  }

  /** Marks {@code call} finished and releases the calls that were waiting only for it. */
  void completed(Call call) {
    List<Call> waiting;
    synchronized (call) {
      call.done = true;
      waiting = call.dependents;
      call.dependents = null;
    }
    if (waiting != null) {
      waiting.forEach(this::release);
    }
  }
}
