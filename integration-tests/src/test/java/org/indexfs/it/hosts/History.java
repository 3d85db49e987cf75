package org.indexfs.it.hosts;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A time-ordered history of a run, as Jepsen keeps one: every client operation's invocation and its
 * completion — {@code ok} (acknowledged, with its result), {@code fail} (known not to have happened)
 * or {@code info} (unknown: the call threw) — and every fault the nemesis injected, each with the
 * wall-clock time in milliseconds (to line up with the servers' logs) and the process that did it.
 */
final class History {
  enum Type { INVOKE, OK, FAIL, INFO }

  /** One event: {@code process} is a writer's number, or -1 for the nemesis. */
  record Event(long index, long timeMs, int process, Type type, String op, String args, String result) {
    @Override
    public String toString() {
      return index + "\t" + timeMs + "\t" + (process < 0 ? "nemesis" : process) + "\t" + type.name().toLowerCase()
          + "\t" + op + "\t" + args + (result == null ? "" : "\t" + result);
    }
  }

  private final List<Event> events = new ArrayList<>();
  private final AtomicLong next = new AtomicLong();
  private final AtomicLong oks = new AtomicLong();

  synchronized Event add(int process, Type type, String op, String args, String result) {
    Event e = new Event(next.getAndIncrement(), System.currentTimeMillis(), process, type, op, args, result);
    events.add(e);
    if (type == Type.OK && process >= 0) {
      oks.incrementAndGet();
    }
    return e;
  }

  void nemesis(String fault, String target) {
    add(-1, Type.INFO, fault, target, null);
  }

  synchronized List<Event> events() {
    return List.copyOf(events);
  }

  long acknowledged() {
    return oks.get();
  }

  synchronized long count(Type type) {
    return events.stream().filter(e -> e.type() == type && e.process() >= 0).count();
  }

  /** Writes the history, one event per line (tab-separated). */
  synchronized void write(Path file) throws IOException {
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (Event e : events) {
        w.write(e.toString());
        w.write('\n');
      }
    }
  }
}
