package org.indexfs.hadoop.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.SafeMode;
import org.apache.hadoop.fs.SafeModeAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Safe mode and the admin commands against HDFS itself: the same mutations refused with the same
 * exception and the same words on a MiniDFSCluster in safe mode and on IndexFS in safe mode, and
 * {@code indexfs admin} printing what {@code hdfs dfsadmin} prints — for the superuser and for an
 * ordinary user, who may ask about safe mode but not switch it or read the report.
 */
class AdminParityTest {
  private static LocalCluster cluster;
  private static Configuration indexConf;
  private static Configuration hdfsConf;
  private static final UserGroupInformation ALICE =
      UserGroupInformation.createUserForTesting("alice", new String[] {"alicegroup"});

  @BeforeAll
  static void start() throws IOException {
    cluster = IndexFsTestCluster.startCluster("safemode", Map.of(IndexFsConfig.HTTP_PORT.name(), "-1"));
    indexConf = IndexFsTestCluster.conf(cluster);
    hdfsConf = new Configuration(IndexFsTestCluster.hdfs().fileSystem().getConf());
    hdfsConf.set("fs.defaultFS", IndexFsTestCluster.hdfs().uri().toString());
  }

  @AfterAll
  static void stop() throws IOException {
    FileSystem.closeAllForUGI(ALICE);
    if (cluster != null) {
      cluster.close();
    }
  }

  /** One mutation, as a Hadoop user would make it, below {@code base}. */
  @FunctionalInterface
  private interface Mutation {
    void apply(FileSystem fs, Path base) throws IOException;
  }

  private static Map<String, Mutation> mutations() {
    Map<String, Mutation> m = new LinkedHashMap<>();
    m.put("mkdirs", (fs, b) -> fs.mkdirs(new Path(b, "new-dir")));
    m.put("create", (fs, b) -> fs.create(new Path(b, "new-file")).close());
    m.put("delete", (fs, b) -> fs.delete(new Path(b, "file"), false));
    m.put("rename", (fs, b) -> fs.rename(new Path(b, "file"), new Path(b, "renamed")));
    m.put("setPermission", (fs, b) -> fs.setPermission(new Path(b, "file"), new FsPermission((short) 0600)));
    m.put("setOwner", (fs, b) -> fs.setOwner(new Path(b, "file"), null, "othergroup"));
    m.put("setTimes", (fs, b) -> fs.setTimes(new Path(b, "file"), 1000, 1000));
    m.put("setReplication", (fs, b) -> fs.setReplication(new Path(b, "file"), (short) 2));
    m.put("append", (fs, b) -> fs.append(new Path(b, "file")).close());
    m.put("truncate", (fs, b) -> fs.truncate(new Path(b, "file"), 1));
    return m;
  }

  @Test
  void mutationsInSafeModeAreRefusedAsHdfsRefusesThem() throws Exception {
    Path base = new Path("/safemode-parity");
    FileSystem hdfs = FileSystem.newInstance(IndexFsTestCluster.hdfs().uri(), hdfsConf);
    FileSystem ifs = FileSystem.newInstance(URI.create(cluster.defaultFs()), indexConf);
    try {
      for (FileSystem fs : List.of(hdfs, ifs)) {
        fs.mkdirs(base);
        try (FSDataOutputStream out = fs.create(new Path(base, "file"))) {
          out.write(new byte[10]);
        }
      }
      Map<String, String> hdfsRefusals = refusals(hdfs, base);
      Map<String, String> indexRefusals = refusals(ifs, base);
      assertEquals(hdfsRefusals, indexRefusals);
    } finally {
      hdfs.delete(base, true);
      ifs.delete(base, true);
      hdfs.close();
      ifs.close();
    }
  }

  /** Each mutation's refusal in safe mode: the exception HDFS's client surfaces and the first line of its words. */
  private static Map<String, String> refusals(FileSystem fs, Path base) throws IOException {
    SafeMode safe = (SafeMode) fs;
    assertTrue(safe.setSafeMode(SafeModeAction.ENTER));
    Map<String, String> out = new LinkedHashMap<>();
    try {
      for (Map.Entry<String, Mutation> m : mutations().entrySet()) {
        IOException e = assertThrows(IOException.class, () -> m.getValue().apply(fs, base), m.getKey());
        String type = e instanceof RemoteException re ? re.getClassName() : e.getClass().getName();
        String message = e instanceof RemoteException re ? re.getMessage() : e.getMessage();
        out.put(m.getKey(), type + ": " + message.split("\n", 2)[0]);
      }
    } finally {
      assertFalse(safe.setSafeMode(SafeModeAction.LEAVE));
    }
    return out;
  }

  @Test
  void safeModeCommandsPrintWhatDfsadminPrints() throws Exception {
    for (String[] args : List.of(new String[] {"-safemode", "get"}, new String[] {"-safemode", "enter"},
        new String[] {"-safemode", "get"}, new String[] {"-safemode", "leave"}, new String[] {"-safemode", "get"})) {
      Output hdfs = dfsadmin(null, args);
      Output ours = indexAdmin(null, args);
      assertEquals(hdfs, ours, String.join(" ", args));
    }
    assertEquals("Safe mode is OFF\n", indexAdmin(null, new String[] {"-safemode", "get"}).out());
  }

  @Test
  void ordinaryUserGetsHdfsRefusalForAdminCommands() throws Exception {
    for (String[] args : List.of(new String[] {"-safemode", "enter"}, new String[] {"-safemode", "leave"},
        new String[] {"-safemode", "get"}, new String[] {"-report"})) {
      Output hdfs = dfsadmin(ALICE, args);
      Output ours = indexAdmin(ALICE, args);
      assertEquals(hdfs.code(), ours.code(), String.join(" ", args));
      assertEquals(hdfs.err(), ours.err(), String.join(" ", args));
      if (!args[0].equals("-report")) {
        assertEquals(hdfs.out(), ours.out(), String.join(" ", args));
      }
    }
    Output fsck = indexAdmin(ALICE, new String[] {"-fsck", "/"});
    assertEquals("fsck: Access denied for user alice. Superuser privilege is required for operation fsck\n", fsck.err());
    Output balance = indexAdmin(ALICE, new String[] {"-balance"});
    assertEquals("balance: Access denied for user alice. Superuser privilege is required for operation balance\n", balance.err());
  }

  @Test
  void reportListsEverySlotWithNoStandbysYet() throws Exception {
    Output report = indexAdmin(null, new String[] {"-report"});
    assertEquals(0, report.code(), report.err());
    assertTrue(report.out().contains("Cluster: safemode (indexfs://safemode)"), report.out());
    assertTrue(report.out().contains("Live slots (" + cluster.serverCount() + "):"), report.out());
    assertTrue(report.out().contains("Slot: 0\nOwner: " + cluster.server(0).address().getHostString() + ":"
        + cluster.server(0).address().getPort() + "\n"), report.out());
    assertTrue(report.out().contains("Epoch: none\nStandbys: none\n"), report.out());
    assertTrue(report.out().contains("Data tier: " + cluster.dataUri()), report.out());
  }

  /** Issue 37: the snapshot verbs print what dfsadmin prints, and the usage names them with dfsadmin's words. */
  @Test
  void snapshotVerbsPrintWhatDfsadminPrints() throws Exception {
    for (FileSystem fs : new FileSystem[] {IndexFsTestCluster.hdfs().fileSystem(),
        FileSystem.newInstance(URI.create(cluster.defaultFs()), indexConf)}) {
      fs.mkdirs(new Path("/snapverbs"));
    }
    for (String[] args : List.of(new String[] {"-allowSnapshot", "/snapverbs"},
        new String[] {"-disallowSnapshot", "/snapverbs"}, new String[] {"-allowSnapshot", "/snapverbs-missing"},
        new String[] {"-allowSnapshot"}, new String[] {"-disallowSnapshot", "/snapverbs"})) {
      Output hdfs = dfsadmin(null, args);
      Output ours = indexAdmin(null, args);
      assertEquals(hdfs.code(), ours.code(), String.join(" ", args));
      assertEquals(hdfs.out(), ours.out(), String.join(" ", args));
      assertEquals(firstLine(hdfs.err()), firstLine(ours.err()).replace("indexfs admin", "hdfs dfsadmin"),
          String.join(" ", args));
    }
    String hdfsUsage = dfsadmin(null, new String[0]).err();
    String ourUsage = indexAdmin(null, new String[0]).err();
    // The verbs both tools have take the same arguments (-report's datanode filters are HDFS's own).
    for (String verb : new String[] {"-safemode", "-setQuota", "-clrQuota", "-setSpaceQuota", "-clrSpaceQuota",
        "-allowSnapshot", "-disallowSnapshot"}) {
      assertEquals(usageLine(hdfsUsage, verb), usageLine(ourUsage, verb), verb);
    }
  }

  private static String firstLine(String s) {
    return s.split("\n", 2)[0];
  }

  /** The usage line of {@code verb}, e.g. "[-allowSnapshot <snapshotDir>]". */
  private static String usageLine(String usage, String verb) {
    for (String line : usage.split("\n")) {
      String t = line.trim();
      if (t.startsWith("[" + verb + " ") || t.equals("[" + verb + "]")) {
        return t;
      }
    }
    throw new AssertionError(verb + " is not in the usage:\n" + usage);
  }

  private record Output(int code, String out, String err) {}

  private static Output dfsadmin(UserGroupInformation ugi, String[] args) throws Exception {
    // DFSAdmin prints to System.out and System.err itself.
    PrintStream stdout = System.out;
    PrintStream stderr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      int code = run(ugi, () -> ToolRunner.run(new DFSAdmin(new Configuration(hdfsConf)), args));
      return new Output(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(stdout);
      System.setErr(stderr);
    }
  }

  private static Output indexAdmin(UserGroupInformation ugi, String[] args) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Tool tool = new IndexFsAdmin(new Configuration(indexConf), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    int code = run(ugi, () -> ToolRunner.run(tool, args));
    return new Output(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private static int run(UserGroupInformation ugi, PrivilegedExceptionAction<Integer> action) throws Exception {
    return ugi == null ? action.run() : ugi.doAs(action);
  }
}
