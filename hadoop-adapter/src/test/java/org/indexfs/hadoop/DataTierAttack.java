package org.indexfs.hadoop;

import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.server.local.LocalCluster;

/**
 * An IndexFS cluster of its own on the shared HDFS and the users who go around it (issue 31):
 * alice and bob through {@code indexfs://} and through plain {@code hdfs://}, each as themselves,
 * and the HDFS superuser (the servers' user here) to look at what is there.
 */
final class DataTierAttack implements AutoCloseable {
  static final UserGroupInformation ALICE =
      UserGroupInformation.createUserForTesting("alice", new String[] {"alicegroup"});
  static final UserGroupInformation BOB = UserGroupInformation.createUserForTesting("bob", new String[] {"bobgroup"});

  final LocalCluster cluster;
  /** The data root, an HDFS path ("/name-data"). */
  final String root;
  final FileSystem admin;
  final IndexFileSystem alice;
  final IndexFileSystem bob;
  /** The HDFS superuser: the servers' user in these tests. */
  final FileSystem hdfs;
  final FileSystem hdfsAlice;
  final FileSystem hdfsBob;

  private DataTierAttack(LocalCluster cluster, String root) throws Exception {
    this.cluster = cluster;
    this.root = root;
    Configuration conf = IndexFsTestCluster.conf(cluster);
    admin = FileSystem.newInstance(java.net.URI.create(cluster.defaultFs()), conf);
    alice = as(ALICE, () -> (IndexFileSystem) FileSystem.newInstance(java.net.URI.create(cluster.defaultFs()), conf));
    bob = as(BOB, () -> (IndexFileSystem) FileSystem.newInstance(java.net.URI.create(cluster.defaultFs()), conf));
    hdfs = IndexFsTestCluster.hdfs().fileSystem();
    Configuration hconf = new Configuration(hdfs.getConf());
    hdfsAlice = as(ALICE, () -> FileSystem.newInstance(hdfs.getUri(), hconf));
    hdfsBob = as(BOB, () -> FileSystem.newInstance(hdfs.getUri(), hconf));
  }

  /** A cluster named {@code name} (its data root {@code /<name>-data}) with {@code settings}. */
  static DataTierAttack start(String name, Map<String, String> settings) throws Exception {
    return new DataTierAttack(IndexFsTestCluster.startCluster(name, 1, settings), "/" + name + "-data");
  }

  static <T> T as(UserGroupInformation ugi, PrivilegedExceptionAction<T> action) throws Exception {
    return ugi.doAs(action);
  }

  /** {@code rel} below the data root, on HDFS. */
  Path data(String rel) {
    return new Path(hdfs.getUri() + root + (rel.isEmpty() ? "" : "/" + rel));
  }

  /** The servers' user: who owns what they make on HDFS. */
  static String serverUser() throws IOException {
    return UserGroupInformation.getLoginUser().getShortUserName();
  }

  /** A directory of IndexFS owned by {@code owner} (made by the superuser). */
  void home(String path, String owner) throws IOException {
    admin.mkdirs(new Path(path));
    admin.setOwner(new Path(path), owner, owner + "group");
  }

  /**
   * Every file below {@code rel} on HDFS, as the superuser sees it (the servers keep writing: a
   * checkpoint being published may vanish meanwhile, so the walk is retried until it holds).
   */
  List<FileStatus> filesBelow(String rel) throws IOException {
    for (int attempt = 0; ; attempt++) {
      try {
        List<FileStatus> out = new ArrayList<>();
        RemoteIterator<LocatedFileStatus> it = hdfs.listFiles(data(rel), true);
        while (it.hasNext()) {
          out.add(it.next());
        }
        return out;
      } catch (java.io.FileNotFoundException vanished) {
        if (attempt == 20) {
          throw vanished;
        }
      }
    }
  }

  /** Every directory at or below {@code rel} on HDFS, as the superuser sees it (one that vanishes meanwhile is left out). */
  List<FileStatus> directoriesBelow(String rel) throws IOException {
    List<FileStatus> out = new ArrayList<>();
    out.add(hdfs.getFileStatus(data(rel)));
    for (int i = 0; i < out.size(); i++) {
      try {
        for (FileStatus s : hdfs.listStatus(out.get(i).getPath())) {
          if (s.isDirectory()) {
            out.add(s);
          }
        }
      } catch (java.io.FileNotFoundException vanished) {
        // a checkpoint published (renamed) or dropped meanwhile
      }
    }
    return out;
  }

  @Override
  public void close() throws IOException {
    for (FileSystem fs : new FileSystem[] {admin, alice, bob, hdfsAlice, hdfsBob}) {
      if (fs != null) {
        fs.close();
      }
    }
    cluster.close();
  }
}
