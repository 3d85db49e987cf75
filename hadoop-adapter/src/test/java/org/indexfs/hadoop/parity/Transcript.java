package org.indexfs.hadoop.parity;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.ipc.RemoteException;

/**
 * What one file system answered to a scenario, step by step: each result rendered as text, each
 * refusal as the exception a caller of DistributedFileSystem would catch (a RemoteException by the
 * class it names) with the first line of its message. Two transcripts of the same scenario, one
 * from HDFS and one from IndexFS, must be equal.
 */
public final class Transcript {
  private final List<String> lines = new ArrayList<>();

  /** One step of a scenario. */
  @FunctionalInterface
  public interface Step {
    Object run() throws Exception;
  }

  /** One step that answers nothing but may fail. */
  @FunctionalInterface
  public interface VoidStep {
    void run() throws Exception;
  }

  public void step(String label, Step step) {
    lines.add(label + " -> " + outcome(step));
  }

  public void call(String label, VoidStep step) {
    step(label, () -> {
      step.run();
      return "done";
    });
  }

  /** A note of the scenario's own (the same on both sides). */
  public void note(String line) {
    lines.add(line);
  }

  public List<String> lines() {
    return lines;
  }

  public static String outcome(Step step) {
    try {
      return "ok " + render(step.run());
    } catch (RemoteException e) {
      return "refused remote " + e.getClassName() + ": " + firstLine(e.getMessage());
    } catch (Exception e) {
      return "refused " + e.getClass().getName() + ": " + firstLine(e.getMessage());
    }
  }

  private static String firstLine(String message) {
    return message == null ? "null" : message.split("\n", 2)[0];
  }

  @SuppressWarnings("unchecked")
  static String render(Object o) {
    if (o == null) {
      return "null";
    }
    if (o instanceof byte[] b) {
      return "bytes(" + new String(b, StandardCharsets.ISO_8859_1) + ")";
    }
    if (o instanceof Map<?, ?> m) {
      Map<String, String> sorted = new TreeMap<>();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        sorted.put(String.valueOf(e.getKey()), render(e.getValue()));
      }
      return sorted.toString();
    }
    if (o instanceof Collection<?> c) {
      List<String> out = new ArrayList<>();
      for (Object x : c) {
        out.add(render(x));
      }
      return out.toString();
    }
    if (o instanceof FileStatus s) {
      return (s.isDirectory() ? "d" : "-") + s.getPermission() + (s.hasAcl() ? "+" : "") + " " + s.getOwner() + ":"
          + s.getGroup() + (s.isDirectory() ? "" : " len=" + s.getLen());
    }
    if (o instanceof AclStatus a) {
      return a + " perm=" + a.getPermission();
    }
    return String.valueOf(o);
  }
}
