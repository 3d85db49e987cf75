package org.indexfs.bench.cluster;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.HdrHistogram.Histogram;

/**
 * The client hosts, from the bench's side: one {@link ClientAgent} each, sent commands together
 * and answered one by one. A command's reply carries its outcome; an agent that answers with an
 * error (or dies) fails the run with its log named.
 */
final class Agents implements AutoCloseable {
  static final String HOST_PREFIX = "client";
  private static final long TIMEOUT_MS = 30 * 60_000L;

  private final List<HostProgram> agents = new ArrayList<>();
  private final AtomicLong ids = new AtomicLong();

  static String hostName(int k) {
    return HOST_PREFIX + k;
  }

  /** Starts an agent on each of the client hosts 0 … count-1. */
  static Agents start(EmulatedHosts net, int count, Path log4j, String heap) throws IOException, InterruptedException {
    List<HostProgram> started = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      started.add(net.start(hostName(k), hostName(k), command(log4j, heap)));
    }
    return new Agents(started);
  }

  /** Agents already started (each running {@link #command}); waits until each is ready. */
  Agents(List<HostProgram> started) throws IOException, InterruptedException {
    agents.addAll(started);
    for (HostProgram a : agents) {
      a.await(l -> l.startsWith(HostProgram.REPLY + "- ready"), 0, 300_000);
    }
  }

  /** The command line of an agent. */
  static List<String> command(Path log4j, String heap) {
    return JavaCommand.unsliced(heap).property("java.awt.headless", "true")
        .main(log4j, null, ClientAgent.class.getName());
  }

  int count() {
    return agents.size();
  }

  List<HostProgram> programs() {
    return agents;
  }

  /** One agent's answer: its key=value pairs. */
  record Reply(Map<String, String> values) {
    long ops() {
      return Long.parseLong(values.get("ops"));
    }

    double seconds() {
      return Double.parseDouble(values.get("seconds"));
    }

    long errors() {
      return Long.parseLong(values.get("errors"));
    }

    /** Hadoop RPCs the agent sent during the command (-1: not counted). */
    long hadoopRpcs() {
      return Long.parseLong(values.getOrDefault("hrpc", "-1"));
    }

    Histogram micros() {
      byte[] bytes = Base64.getDecoder().decode(values.get("hist"));
      try {
        return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
      } catch (java.util.zip.DataFormatException e) {
        throw new IllegalStateException("An agent's histogram did not decode", e);
      }
    }
  }

  /** Sends {@code command(k)} to every agent k at once, then waits for every reply. */
  List<Reply> all(IntFunction<String> command) throws IOException, InterruptedException {
    List<Long> sent = new ArrayList<>();
    for (int k = 0; k < agents.size(); k++) {
      sent.add(send(agents.get(k), command.apply(k)));
    }
    List<Reply> replies = new ArrayList<>();
    for (int k = 0; k < agents.size(); k++) {
      replies.add(await(agents.get(k), sent.get(k)));
    }
    return replies;
  }

  /** The same command to every agent. */
  List<Reply> all(String command) throws IOException, InterruptedException {
    return all(k -> command);
  }

  private long send(HostProgram agent, String command) throws IOException {
    long id = ids.incrementAndGet();
    int space = command.indexOf(' ');
    String verb = space < 0 ? command : command.substring(0, space);
    String rest = space < 0 ? "" : command.substring(space);
    agent.send(verb + " " + id + rest);
    return id;
  }

  private static Reply await(HostProgram agent, long id) throws IOException, InterruptedException {
    String prefix = HostProgram.REPLY + id + " ";
    int at = agent.await(l -> l.startsWith(prefix), 0, TIMEOUT_MS);
    String text = agent.kept(at).substring(prefix.length());
    if (text.startsWith("error")) {
      throw new IOException(agent.name + " failed: " + text.substring(5).trim() + " (see " + agent.log() + ")");
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (String w : text.substring(2).trim().split("\\s+")) {
      int eq = w.indexOf('=');
      if (eq > 0) {
        values.put(w.substring(0, eq), w.substring(eq + 1));
      }
    }
    return new Reply(values);
  }

  @Override
  public void close() throws IOException {
    for (HostProgram a : agents) {
      if (a.isAlive()) {
        a.send("quit");
      }
    }
  }
}
