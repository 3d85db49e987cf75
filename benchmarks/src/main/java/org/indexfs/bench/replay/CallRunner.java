package org.indexfs.bench.replay;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Re-issues one audit record through the Hadoop FileSystem API as its caller, the way an HDFS
 * client produces that record: one call per record, with what the record carries (paths, modes,
 * owners, rename options) and the {@link ReplayPolicy} for what it does not.
 */
final class CallRunner {
  /** What a call did: {@link #OK}, {@link #FALSE} (it answered false) or the exception's simple name. */
  static final String OK = "ok";
  static final String FALSE = "false";

  private final ReplayPolicy policy;
  private final byte[] createData;
  private final byte[] appendData;

  CallRunner(ReplayPolicy policy) {
    this.policy = policy;
    this.createData = filler(policy.createBytes());
    this.appendData = filler(policy.appendBytes());
  }

  private static byte[] filler(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) ('a' + i % 26);
    }
    return b;
  }

  /** What a call did: {@code name} is {@link #OK}, {@link #FALSE} or the exception's simple name. */
  record Outcome(String name, String message) {}

  /** Runs the call and classifies its outcome; never throws for a failed call. */
  Outcome run(Identities.Caller caller, AuditEvent e) throws InterruptedException {
    try {
      String result = caller.ugi.doAs((java.security.PrivilegedExceptionAction<String>) () -> call(caller.fs, caller.ugi, e));
      return new Outcome(result, null);
    } catch (IOException ex) {
      return outcome(ex);
    } catch (RuntimeException ex) {
      // Hadoop signals some refusals unchecked (InvalidPathException, UnsupportedOperationException).
      return outcome(ex);
    }
  }

  static Outcome outcome(Throwable t) {
    Throwable c = t;
    // UserGroupInformation.doAs wraps checked exceptions it cannot rethrow.
    while (c instanceof java.lang.reflect.UndeclaredThrowableException && c.getCause() != null) {
      c = c.getCause();
    }
    if (c instanceof org.apache.hadoop.ipc.RemoteException re) {
      String cls = re.getClassName();
      return new Outcome(cls.substring(cls.lastIndexOf('.') + 1), firstLine(re.getMessage()));
    }
    return new Outcome(c.getClass().getSimpleName(), firstLine(c.getMessage()));
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }

  private String call(FileSystem fs, UserGroupInformation ugi, AuditEvent e) throws IOException {
    Path src = new Path(e.src() == null ? "/" : e.src());
    switch (e.command()) {
      case GETFILEINFO -> fs.getFileStatus(src);
      case OPEN -> fs.open(src).close();
      case LIST_STATUS -> fs.listStatus(src);
      case CONTENT_SUMMARY -> fs.getContentSummary(src);
      case MKDIRS -> {
        return bool(fs.mkdirs(src, mode(e, 0755)));
      }
      case CREATE -> {
        try (FSDataOutputStream out = fs.create(src, mode(e, 0644), true, 4096, fs.getDefaultReplication(src),
            fs.getDefaultBlockSize(src), null)) {
          out.write(createData);
        }
      }
      case DELETE -> {
        return bool(fs.delete(src, true));
      }
      case RENAME -> {
        Path dst = new Path(e.dst());
        if (!e.renameWithOptions()) {
          return bool(fs.rename(src, dst));
        }
        FileUtil.rename(fs, src, dst, renameOptions(e.options()));
      }
      case SET_PERMISSION -> fs.setPermission(src, mode(e, 0755));
      case SET_OWNER -> {
        String owner = e.permOwner();
        String group = e.permGroup();
        fs.setOwner(src, owner == null ? ugi.getShortUserName() : owner, group);
      }
      case SET_TIMES -> {
        long t = e.timeMillis() > 0 ? e.timeMillis() : System.currentTimeMillis();
        fs.setTimes(src, t, -1);
      }
      case SET_REPLICATION -> {
        return bool(fs.setReplication(src, policy.replication()));
      }
      case APPEND -> {
        try (FSDataOutputStream out = fs.append(src)) {
          out.write(appendData);
        }
      }
      case TRUNCATE -> fs.truncate(src, policy.truncateTo()); // false only means block recovery is under way
      case CONCAT -> {
        List<Path> sources = new ArrayList<>();
        for (String s : e.concatSources()) {
          sources.add(new Path(s));
        }
        fs.concat(new Path(e.dst()), sources.toArray(new Path[0]));
      }
      default -> throw new IllegalStateException("No replay for " + e.command());
    }
    return OK;
  }

  private static String bool(boolean b) {
    return b ? OK : FALSE;
  }

  /** The mode the record shows the entry had afterwards (the replay runs with umask 000), else a default. */
  private static FsPermission mode(AuditEvent e, int fallback) {
    int m = e.permMode();
    return new FsPermission((short) (m >= 0 ? m : fallback));
  }

  static Options.Rename[] renameOptions(String options) {
    String inner = options.replace("[", "").replace("]", "").trim();
    if (inner.isEmpty()) {
      return new Options.Rename[0];
    }
    String[] names = inner.split(",\\s*");
    Options.Rename[] out = new Options.Rename[names.length];
    for (int i = 0; i < names.length; i++) {
      out[i] = Options.Rename.valueOf(names[i].trim());
    }
    return out;
  }
}
