package org.indexfs.hadoop.imports;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.hadoop.IndexFileSystem;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.local.LocalHdfs;

/**
 * An HDFS of the import tests' own (they enter safe mode and save the namespace) and an IndexFS
 * cluster whose data tier is it, started once per test JVM; and the namespace the tests import,
 * written by real HDFS clients with every attribute kind.
 */
final class ImportFixture {
  static final String DATA_ROOT = "/import-data";
  private static LocalHdfs hdfs;
  private static LocalCluster cluster;

  private ImportFixture() {}

  static synchronized LocalHdfs hdfs() throws IOException {
    if (hdfs == null) {
      hdfs = LocalHdfs.start(IndexFsTestCluster.newWorkDir("import-hdfs"), LocalHdfs.DEFAULT_DATANODES,
          Map.of("dfs.namenode.fs-limits.min-block-size", "0", "dfs.namenode.acls.enabled", "true"), false);
      // Not IndexFsTestCluster.startCluster: that would start the shared HDFS too, which nothing here uses.
      cluster = LocalCluster.builder(IndexFsTestCluster.newWorkDir("import")).clusterName("import").servers(1)
          .set(IndexFsConfig.DATA_URI.name(), hdfs.uri() + DATA_ROOT)
          .set(IndexFsTestCluster.GROUP_MAPPING_KEY, IndexFsTestCluster.TEST_GROUPS)
          .set(IndexFsConfig.MIN_BLOCK_SIZE.name(), "0")
          .set(IndexFsConfig.SCRUB_INTERVAL_MS.name(), "0")
          .start();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        cluster.close();
        hdfs.close();
      }, "import-fixture-shutdown"));
    }
    return hdfs;
  }

  static synchronized LocalCluster cluster() throws IOException {
    hdfs();
    return cluster;
  }

  static DistributedFileSystem dfs() throws IOException {
    return hdfs().fileSystem();
  }

  static Configuration conf() throws IOException {
    Configuration conf = IndexFsTestCluster.conf(cluster());
    conf.setInt(IndexFsConfig.CLIENT_LOCALIZE_BUFFER_ENTRIES.name(), Integer.MAX_VALUE);
    conf.setInt("ipc.client.connect.max.retries", 0);
    conf.setInt("ipc.client.connect.max.retries.on.timeouts", 0);
    return conf;
  }

  static IndexFileSystem indexFs() throws IOException {
    return (IndexFileSystem) FileSystem.newInstance(URI.create(cluster().defaultFs()), conf());
  }

  static URI hdfsUri(String path) throws IOException {
    return URI.create(hdfs().uri() + path);
  }

  static byte[] bytes(long seed, int n) {
    byte[] b = new byte[n];
    new java.util.Random(seed).nextBytes(b);
    return b;
  }

  /**
   * Writes the namespace under {@code root}: files of 0 bytes, a few KB and several blocks, other
   * owners and modes, set times, replication 2, ACLs (access and default), user and trusted
   * xattrs, quotas, storage policies, a snapshottable directory. Returns each
   * file's bytes by its path below {@code root}.
   */
  static Map<String, byte[]> writeNamespace(Path root) throws IOException {
    DistributedFileSystem fs = dfs();
    Map<String, byte[]> files = new LinkedHashMap<>();
    fs.mkdirs(new Path(root, "a/b/c"));
    write(fs, root, "empty", new byte[0], (short) 3, 1 << 20, files);
    write(fs, root, "a/small", bytes(1, 3_000), (short) 3, 1 << 20, files);
    write(fs, root, "a/b/multi-block", bytes(2, (5 << 20) / 2), (short) 2, 1 << 20, files);
    write(fs, root, "a/b/c/deep", bytes(3, 70_000), (short) 1, 1 << 20, files);
    Path alices = new Path(root, "alices");
    fs.mkdirs(alices);
    write(fs, root, "alices/notes", bytes(4, 5_000), (short) 3, 1 << 20, files);
    fs.setOwner(alices, "alice", "alicegroup");
    fs.setOwner(new Path(alices, "notes"), "alice", "alicegroup");
    fs.setPermission(new Path(alices, "notes"), new FsPermission((short) 0640));
    fs.setPermission(alices, new FsPermission((short) 01750));
    fs.setTimes(new Path(alices, "notes"), 1_600_000_000_000L, 1_600_000_100_000L);

    Path acl = new Path(root, "acl");
    fs.mkdirs(acl);
    write(fs, root, "acl/shared", bytes(5, 4_000), (short) 3, 1 << 20, files);
    fs.setAcl(acl, List.of(entry(AclEntryScope.ACCESS, AclEntryType.USER, null, FsAction.ALL),
        entry(AclEntryScope.ACCESS, AclEntryType.USER, "bob", FsAction.READ_EXECUTE),
        entry(AclEntryScope.ACCESS, AclEntryType.GROUP, null, FsAction.READ_EXECUTE),
        entry(AclEntryScope.ACCESS, AclEntryType.OTHER, null, FsAction.NONE),
        entry(AclEntryScope.DEFAULT, AclEntryType.USER, "bob", FsAction.READ)));
    fs.modifyAclEntries(new Path(acl, "shared"), List.of(entry(AclEntryScope.ACCESS, AclEntryType.USER, "carol",
        FsAction.READ_WRITE)));
    fs.setXAttr(new Path(acl, "shared"), "user.origin", "hdfs".getBytes(), EnumSet.of(XAttrSetFlag.CREATE));
    fs.setXAttr(acl, "trusted.tier", new byte[] {1, 2, 3}, EnumSet.of(XAttrSetFlag.CREATE));

    Path quota = new Path(root, "quota");
    fs.mkdirs(quota);
    write(fs, root, "quota/in-quota", bytes(6, 2_000), (short) 3, 1 << 20, files);
    fs.setQuota(quota, 100, 64L << 20);
    Path only = new Path(root, "quota/ns-only");
    fs.mkdirs(only);
    fs.setQuota(only, 10, HdfsConstants.QUOTA_DONT_SET);

    Path cold = new Path(root, "cold");
    fs.mkdirs(cold);
    fs.setStoragePolicy(cold, "COLD");
    fs.setStoragePolicy(new Path(root, "a/small"), "WARM");

    Path snap = new Path(root, "snap");
    fs.mkdirs(snap);
    write(fs, root, "snap/kept", bytes(7, 1_000), (short) 3, 1 << 20, files);
    fs.allowSnapshot(snap); // snapshottable, no snapshot: HDFS renames no directory holding snapshots
    return files;
  }

  private static void write(DistributedFileSystem fs, Path root, String rel, byte[] data, short replication, long blockSize,
      Map<String, byte[]> files) throws IOException {
    try (FSDataOutputStream out = fs.create(new Path(root, rel), true, 4096, replication, blockSize)) {
      out.write(data);
    }
    files.put(rel, data);
  }

  private static AclEntry entry(AclEntryScope scope, AclEntryType type, String name, FsAction perm) {
    AclEntry.Builder b = new AclEntry.Builder().setScope(scope).setType(type).setPermission(perm);
    if (name != null) {
      b.setName(name);
    }
    return b.build();
  }

  /** Saves the namespace (safe mode in and out, as an operator does) and returns the newest fsimage. */
  static File saveNamespace() throws IOException {
    DistributedFileSystem fs = dfs();
    fs.setSafeMode(org.apache.hadoop.fs.SafeModeAction.ENTER);
    try {
      fs.saveNamespace();
    } finally {
      fs.setSafeMode(org.apache.hadoop.fs.SafeModeAction.LEAVE);
    }
    File newest = null;
    long best = -1;
    for (URI dir : hdfs().cluster().getNameDirs(0)) {
      File[] images = new File(new File(dir), "current").listFiles((d, n) -> n.matches("fsimage_\\d+"));
      for (File f : images == null ? new File[0] : images) {
        long txid = Long.parseLong(f.getName().substring("fsimage_".length()));
        if (txid > best) {
          best = txid;
          newest = f;
        }
      }
    }
    if (newest == null) {
      throw new IOException("No fsimage in " + Arrays.toString(hdfs().cluster().getNameDirs(0).toArray()));
    }
    return newest;
  }
}
