package org.indexfs.gateway;

import java.io.IOException;
import java.lang.reflect.Constructor;
import org.apache.hadoop.ipc.RemoteException;

/**
 * What the data tier's NameNode refused, passed on as that NameNode's own exception (the class its
 * client unwraps) with its first line, and with the data object's path replaced by the file's
 * path: a caller learns what HDFS said about its file, never where IndexFS keeps the bytes.
 */
final class DataTierErrors {
  private DataTierErrors() {}

  static IOException of(IOException e, String objectPath, String path) {
    if (!(e instanceof RemoteException remote)) {
      return e;
    }
    String text = firstLine(remote.getMessage());
    if (objectPath != null) {
      text = text.replace(objectPath, path);
    }
    IOException original = remote.unwrapRemoteException();
    if (original == remote) {
      return new IOException(text, e);
    }
    try {
      Constructor<? extends IOException> make = original.getClass().getConstructor(String.class);
      IOException out = make.newInstance(text);
      out.initCause(e);
      return out;
    } catch (ReflectiveOperationException | RuntimeException noStringConstructor) {
      return original;
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "";
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
