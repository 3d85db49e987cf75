package org.indexfs.hadoop.permission;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.hadoop.IndexFsTestCluster;

/**
 * The cast of the permission tests, each with its own {@code FileSystem} on the shared cluster:
 * {@code admin} is the process user (the server's superuser), {@code alice}, {@code bob} and
 * {@code dora} are ordinary users each in a group of their own, {@code carol} is an ordinary
 * user who belongs to {@code supergroup}.
 */
final class Users implements AutoCloseable {
  static final String SUPERGROUP = "supergroup";

  final URI uri = IndexFsTestCluster.uri();
  final Configuration conf = IndexFsTestCluster.conf();
  final UserGroupInformation aliceUgi = UserGroupInformation.createUserForTesting("alice", new String[] {"alicegroup"});
  final UserGroupInformation bobUgi = UserGroupInformation.createUserForTesting("bob", new String[] {"bobgroup"});
  final UserGroupInformation doraUgi = UserGroupInformation.createUserForTesting("dora", new String[] {"doragroup"});
  final UserGroupInformation carolUgi = UserGroupInformation.createUserForTesting("carol", new String[] {SUPERGROUP});
  final String adminName;
  final FileSystem admin;
  final FileSystem alice;
  final FileSystem bob;
  final FileSystem dora;
  final FileSystem carol;
  private final List<FileSystem> opened = new ArrayList<>();

  Users() throws IOException {
    adminName = UserGroupInformation.getCurrentUser().getShortUserName();
    admin = track(FileSystem.newInstance(uri, conf));
    alice = as(aliceUgi, conf);
    bob = as(bobUgi, conf);
    dora = as(doraUgi, conf);
    carol = as(carolUgi, conf);
  }

  private FileSystem track(FileSystem fs) {
    opened.add(fs);
    return fs;
  }

  /** A new FileSystem for {@code ugi}, closed with this cast. */
  FileSystem as(UserGroupInformation ugi, Configuration c) throws IOException {
    try {
      return track(ugi.doAs((PrivilegedExceptionAction<FileSystem>) () -> FileSystem.newInstance(uri, c)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  /** A directory made by the superuser, then given to {@code owner} with {@code mode}. */
  Path directory(Path p, String owner, int mode) throws IOException {
    admin.mkdirs(p);
    admin.setOwner(p, owner, null);
    admin.setPermission(p, new FsPermission((short) mode));
    return p;
  }

  static void write(FileSystem fs, Path p, String text) throws IOException {
    try (FSDataOutputStream out = fs.create(p, false)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  static String read(FileSystem fs, Path p) throws IOException {
    try (FSDataInputStream in = fs.open(p)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  FsPermission mode(Path p) throws IOException {
    return admin.getFileStatus(p).getPermission();
  }

  void assertMode(int expected, Path p) throws IOException {
    assertEquals(new FsPermission((short) expected), mode(p), p.toString());
  }

  boolean exists(Path p) throws IOException {
    return admin.exists(p);
  }

  @Override
  public void close() {
    IOException first = null;
    for (FileSystem fs : opened) {
      try {
        fs.close();
      } catch (IOException e) {
        if (first == null) {
          first = e;
        }
      }
    }
    opened.clear();
    if (first != null) {
      throw new UncheckedIOException(first);
    }
  }
}
