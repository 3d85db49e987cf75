package org.indexfs.common;

import java.io.IOException;
import org.indexfs.proto.Code;

/**
 * An error as a value with a code. The server answers with the code and message; the client
 * rethrows it; the Hadoop adapter maps the code once to the exception HDFS would throw.
 */
public class IndexFsException extends IOException {
  private final Code code;

  public IndexFsException(Code code, String message) {
    super(message);
    this.code = code;
  }

  public Code code() {
    return code;
  }

  public static IndexFsException notFound(String path) {
    return new IndexFsException(Code.FILE_NOT_FOUND, "File does not exist: " + path);
  }

  public static IndexFsException exists(String path) {
    return new IndexFsException(Code.FILE_ALREADY_EXISTS, path + " already exists");
  }

  public static IndexFsException parentNotDirectory(String path) {
    // HDFS's words when a component on the way is a file (FSDirectory/INodesInPath).
    return new IndexFsException(Code.PARENT_NOT_DIRECTORY, path + " (is not a directory)");
  }

  public static IndexFsException invalidPath(String path, String why) {
    return new IndexFsException(Code.INVALID_PATH, "Invalid path name " + path + ": " + why);
  }

  public static IndexFsException invalidArgument(String message) {
    return new IndexFsException(Code.INVALID_ARGUMENT, message);
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + code + "]: " + getMessage();
  }
}
