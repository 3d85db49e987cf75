package org.indexfs.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.Test;

/**
 * A MapReduce job with the job's credentials only (issue 15): on a Kerberos IndexFS cluster, alice
 * (with a ticket) collects the job's tokens with {@code TokenCache.obtainTokensForNamenodes}; the
 * wordcount then runs as a process with no ticket at all, holding only those credentials — as a
 * YARN container does — and its counts are exact.
 */
class SecureWordCountIT {
  @Test
  void wordcountRunsOnTheJobsDelegationTokenAlone() throws Exception {
    Path base = Path.of(System.getProperty("test.build.data", "target/test-data")).toAbsolutePath();
    Files.createDirectories(base);
    Path work = Files.createTempDirectory(base, "secure-wc-");
    MiniKdc kdc = new MiniKdc(MiniKdc.createConf(), work.toFile());
    kdc.start();
    String realm = kdc.getRealm();
    File keytab = work.resolve("test.keytab").toFile();
    kdc.createPrincipal(keytab, "indexfs/localhost", "alice");
    Configuration security = new Configuration();
    security.set("hadoop.security.authentication", "kerberos");
    UserGroupInformation.setConfiguration(security);
    try (LocalCluster cluster = LocalCluster.builder(work.resolve("indexfs")).clusterName("securejobs")
        .set("hadoop.security.authentication", "kerberos")
        .set(IndexFsConfig.SERVER_BIND_HOST.name(), "localhost")
        .set(IndexFsConfig.SERVER_KERBEROS_PRINCIPAL.name(), "indexfs/_HOST@" + realm)
        .set(IndexFsConfig.SERVER_KEYTAB.name(), keytab.getAbsolutePath())
        .start()) {
      Map<String, String> fsConf = new TreeMap<>(cluster.clientConf());
      fsConf.put("hadoop.security.authentication", "kerberos");
      fsConf.put(IndexFsConfig.SERVER_KERBEROS_PRINCIPAL.name(), "indexfs/_HOST@" + realm);
      // TokenCache names the ResourceManager as the tokens' renewer.
      fsConf.put("yarn.resourcemanager.principal", "alice@" + realm);
      Configuration conf = MapReduceJobs.localRunner(fsConf, work, 2);
      URI uri = URI.create(cluster.defaultFs());

      UserGroupInformation server = UserGroupInformation.loginUserFromKeytabAndReturnUGI(
          "indexfs/localhost@" + realm, keytab.getAbsolutePath());
      server.doAs((PrivilegedExceptionAction<Void>) () -> {
        try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
          for (String dir : new String[] {"/tmp", "/user"}) {
            fs.mkdirs(new org.apache.hadoop.fs.Path(dir));
            fs.setPermission(new org.apache.hadoop.fs.Path(dir), new FsPermission((short) 01777));
          }
        }
        return null;
      });

      UserGroupInformation alice = UserGroupInformation.loginUserFromKeytabAndReturnUGI("alice@" + realm,
          keytab.getAbsolutePath());
      Credentials jobCredentials = new Credentials();
      alice.doAs((PrivilegedExceptionAction<Void>) () -> {
        try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
          write(fs, "/user/wc/in/a.txt", "to be or not to be\n");
          write(fs, "/user/wc/in/b.txt", "that is the question to be\n");
        }
        TokenCache.obtainTokensForNamenodes(jobCredentials, new org.apache.hadoop.fs.Path[] {
            new org.apache.hadoop.fs.Path(uri.toString() + "user/wc")}, conf);
        return null;
      });
      assertEquals(1, jobCredentials.numberOfTokens());

      // The job runs in this JVM (the local job runner). MapReduce's own secure mode needs Hadoop's native
      // code for its shuffle files (SecureIOUtils), which this machine lacks, so the job's JVM is switched
      // back to simple authentication for MapReduce: what reaches IndexFS is still only the token.
      UserGroupInformation.setConfiguration(new Configuration());
      UserGroupInformation task = UserGroupInformation.createRemoteUser("alice");
      task.addCredentials(jobCredentials);
      assertFalse(task.hasKerberosCredentials());
      Configuration jobConf = new Configuration(conf);
      jobConf.set("hadoop.security.authentication", "simple");
      task.doAs((PrivilegedExceptionAction<Void>) () -> {
        MapReduceJobs.wordCount(jobConf, "/user/wc/in", "/user/wc/out");
        return null;
      });

      Map<String, Integer> counts = new TreeMap<>();
      UserGroupInformation.setConfiguration(security);
      alice = UserGroupInformation.loginUserFromKeytabAndReturnUGI("alice@" + realm, keytab.getAbsolutePath());
      alice.doAs((PrivilegedExceptionAction<Void>) () -> {
        try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
          for (FileStatus part : fs.listStatus(new org.apache.hadoop.fs.Path("/user/wc/out"))) {
            if (part.getPath().getName().startsWith("part-")) {
              String text = new String(fs.open(part.getPath()).readAllBytes(), StandardCharsets.UTF_8);
              for (String line : text.split("\n")) {
                if (!line.isEmpty()) {
                  String[] kv = line.split("\t");
                  counts.put(kv[0], Integer.parseInt(kv[1]));
                }
              }
            }
          }
          assertEquals("alice", fs.getFileStatus(new org.apache.hadoop.fs.Path("/user/wc/out/_SUCCESS")).getOwner());
        }
        return null;
      });
      assertEquals(Map.of("be", 3, "is", 1, "not", 1, "or", 1, "question", 1, "that", 1, "the", 1, "to", 3), counts);
    } finally {
      kdc.stop();
      UserGroupInformation.reset();
      UserGroupInformation.setConfiguration(new Configuration());
    }
  }

  private static void write(FileSystem fs, String path, String text) throws IOException {
    try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path(path))) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }
}
