package org.indexfs.hadoop;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.indexfs.client.IndexFsClient;

/**
 * What every call of the {@code indexfs://} FileSystem goes through: its path as the servers see
 * it, the FileSystem statistics HDFS keeps (read and write operations), and the one mapping of
 * IndexFS error codes to the exceptions HDFS users expect ({@link HadoopErrors}).
 */
abstract class MeteredFileSystem extends FileSystem {
  /** The Java client under this FileSystem. */
  public abstract IndexFsClient client();

  /** A client call whose IndexFS error codes become the exceptions HDFS users expect. */
  @FunctionalInterface
  interface Rpc<T> {
    T call() throws IOException;
  }

  @FunctionalInterface
  interface VoidRpc {
    void call() throws IOException;
  }

  static <T> T mapped(Rpc<T> rpc) throws IOException {
    try {
      return rpc.call();
    } catch (IOException e) {
      throw HadoopErrors.toHadoop(e);
    }
  }

  /** One metadata read, counted in the FileSystem statistics as HDFS counts it. */
  <T> T read(Rpc<T> rpc) throws IOException {
    statistics.incrementReadOps(1);
    return mapped(rpc);
  }

  /** One metadata mutation, counted in the FileSystem statistics as HDFS counts it. */
  <T> T write(Rpc<T> rpc) throws IOException {
    statistics.incrementWriteOps(1);
    return mapped(rpc);
  }

  void readVoid(VoidRpc rpc) throws IOException {
    read(() -> {
      rpc.call();
      return null;
    });
  }

  void writeVoid(VoidRpc rpc) throws IOException {
    write(() -> {
      rpc.call();
      return null;
    });
  }

  /** This FileSystem's statistics, for the streams and listings its namespace backends make. */
  Statistics stats() {
    return statistics;
  }

  /** The absolute path the servers see. */
  String pathOf(Path p) {
    // As DistributedFileSystem.getPathName: an absolute path of this file system is used as it is.
    if (p.isUriPathAbsolute()) {
      checkPath(p);
      return p.toUri().getPath();
    }
    return makeQualified(p).toUri().getPath();
  }
}
