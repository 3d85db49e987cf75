package org.indexfs.hadoop.security;

import org.apache.hadoop.ipc.RemoteException;

/**
 * A call's outcome as one comparable string: its value, or the exception's class (and for a
 * {@link RemoteException} the server-side class it names) with its message. HDFS and IndexFS
 * answering the same call must give the same string.
 */
final class Outcomes {
  interface Call {
    Object run() throws Exception;
  }

  private Outcomes() {}

  static String of(Call call) {
    try {
      Object v = call.run();
      return "ok" + (v == null ? "" : ": " + v);
    } catch (RemoteException e) {
      return "RemoteException(" + e.getClassName() + "): " + firstLine(e.getMessage());
    } catch (Exception e) {
      return e.getClass().getName() + ": " + firstLine(e.getMessage());
    }
  }

  /** Some NameNode messages carry the server's stack trace after the first line. */
  private static String firstLine(String message) {
    int nl = message == null ? -1 : message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }
}
