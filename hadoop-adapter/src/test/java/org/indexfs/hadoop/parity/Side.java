package org.indexfs.hadoop.parity;

import java.io.IOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * One of the file systems a scenario runs on: HDFS (a MiniDFSCluster) or an IndexFS cluster, as the
 * process user (the superuser of both) and as any test user. FileSystems it opens are closed with it.
 */
public final class Side implements AutoCloseable {
  private final String name;
  private final URI uri;
  private final Configuration conf;
  private final List<FileSystem> opened = new ArrayList<>();
  private final FileSystem admin;

  Side(String name, URI uri, Configuration conf) throws IOException {
    this.name = name;
    this.uri = uri;
    this.conf = conf;
    this.admin = track(FileSystem.newInstance(uri, conf));
  }

  public String name() {
    return name;
  }

  public Configuration conf() {
    return conf;
  }

  public URI uri() {
    return uri;
  }

  /** The superuser's file system. */
  public FileSystem fs() {
    return admin;
  }

  /** A new file system for {@code ugi}; {@code umask} overrides fs.permissions.umask-mode when not null. */
  public FileSystem as(UserGroupInformation ugi) throws IOException {
    return as(ugi, conf);
  }

  public FileSystem as(UserGroupInformation ugi, Configuration c) throws IOException {
    try {
      return track(ugi.doAs((PrivilegedExceptionAction<FileSystem>) () -> FileSystem.newInstance(uri, c)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  /** A fresh, empty directory for a scenario, the same path on every side. */
  public Path base(String test) throws IOException {
    Path p = new Path("/parity/" + test);
    admin.delete(p, true);
    admin.mkdirs(p);
    return p;
  }

  private FileSystem track(FileSystem fs) {
    opened.add(fs);
    return fs;
  }

  @Override
  public void close() throws IOException {
    for (FileSystem fs : opened) {
      fs.close();
    }
    opened.clear();
  }

  @Override
  public String toString() {
    return name;
  }
}
