package org.indexfs.hadoop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.rpc.RpcConnection;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.PartitionRequest;
import org.indexfs.proto.PublishRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 31, items 2 and 6, with the journal on. A publish named a data-tier file the server then
 * read with its own rights and, if it parsed as an SST, deleted: bob deleted a journal checkpoint
 * file that way, and for a file not an SST the error gave away its last bytes and its existence.
 * Split INGESTs and split-publish PREPAREs named files the same way. {@code <data>/.publish} was
 * 0777 and belonged to whoever published first (bob's chmod then failed alice's publishes), and
 * with the journal on a non-superuser could not make it at all.
 */
class DataTierPublishTest {
  private static DataTierAttack t;

  @BeforeAll
  static void start() throws Exception {
    t = DataTierAttack.start("sec-publish", Map.of(IndexFsConfig.JOURNAL_ENABLED.name(), "true",
        IndexFsConfig.JOURNAL_CHECKPOINT_INTERVAL_MS.name(), "500"));
    t.home("/bob", "bob");
    t.home("/alice", "alice");
  }

  @AfterAll
  static void stop() throws Exception {
    if (t != null) {
      t.close();
    }
  }

  /** A file of the journal that parses as an SST: a checkpoint's. */
  private static FileStatus checkpointSst() throws Exception {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (true) {
      for (FileStatus f : t.filesBelow(".journal/0/checkpoints")) {
        if (f.getPath().getName().endsWith(".sst")) {
          return f;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no checkpoint SST on the data tier");
      }
      Thread.sleep(200);
    }
  }

  private static String relative(FileStatus f) {
    String p = f.getPath().toUri().getPath();
    return p.substring(t.root.length() + 1);
  }

  /** alice's large 0600 file's object name, as the superuser sees it. */
  private static String aliceObject() throws Exception {
    Path file = new Path("/alice/private-large");
    if (!t.admin.exists(file)) {
      try (FSDataOutputStream out = t.alice.create(file, new FsPermission((short) 0600), false, 4096, (short) 1,
          1 << 20, null)) {
        out.write(TestData.bytes(31, 200_000));
      }
      t.alice.setPermission(file, new FsPermission((short) 0600));
    }
    return ((IndexFileStatus) t.admin.getFileStatus(file)).dataObject();
  }

  @Test
  void aPublishNamingAnyOtherFileReadsNothingDeletesNothingAndTellsNothing() throws Exception {
    FileStatus checkpoint = checkpointSst();
    String object = aliceObject();
    Path root = new Path("/bob/pub");
    t.bob.localize(root, false);
    List<String> foreign = List.of(relative(checkpoint), object, ".journal/0/no-such-file",
        ".publish/0/../../" + relative(checkpoint), "/" + relative(checkpoint));
    String firstMessage = null;
    for (String file : foreign) {
      IndexFsException e = assertThrows(IndexFsException.class, () -> t.bob.client().publish("/bob/pub", file, false),
          "bob publishes " + file);
      assertThat(e.code()).as("publish of %s", file).isEqualTo(Code.ACCESS_DENIED);
      // The same answer for a checkpoint, alice's object and a name that does not exist.
      firstMessage = firstMessage == null ? e.getMessage() : firstMessage;
      assertThat(e.getMessage()).as("answer for %s", file).isEqualTo(firstMessage);
    }
    assertThat(t.hdfs.getFileStatus(checkpoint.getPath()).getLen()).as("the checkpoint file is still there")
        .isEqualTo(checkpoint.getLen());
    try (FSDataInputStream in = t.alice.open(new Path("/alice/private-large"))) {
      assertThat(in.readAllBytes()).isEqualTo(TestData.bytes(31, 200_000));
    }
    // bob's own publishes still work.
    try (FSDataOutputStream out = t.bob.create(new Path(root, "mine"))) {
      out.write(1);
    }
    assertThat(t.bob.publish(root)).isEmpty();
    assertThat(t.admin.getFileStatus(new Path(root, "mine")).getLen()).isEqualTo(1);
  }

  /** Server-to-server calls carry data-tier names too: they name only the servers' own shipped files. */
  @Test
  void splitIngestsAndSharesNamingOtherFilesAreRefused() throws Exception {
    FileStatus checkpoint = checkpointSst();
    Path root = new Path("/bob/share");
    t.bob.localize(root, false);
    long dirId = t.bob.client().getFileStatus(root.toString()).getInodeId();
    // A request merely naming the servers' user: since item 5 it is refused as no authenticated peer
    // (NOT_AUTHORIZED) before its names are looked at; before that, the names check refused it
    // (ACCESS_DENIED). Either way the named file must lead nowhere and survive.
    Caller server = Caller.newBuilder().setUser(DataTierAttack.serverUser()).setClientId("mallory").build();
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    try (RpcConnection raw = RpcConnection.open(group, t.cluster.server(0).address(), 1 << 20, 10_000)) {
      Response ingest = raw.call(Request.newBuilder().setCaller(server).setPartition(PartitionRequest.newBuilder()
          .setAction(PartitionRequest.Action.INGEST).setDirId(0x0000_7fff_ffff_0031L).setIndex(1).setPath("/x")
          .setSplitFile(relative(checkpoint)))).get(30, TimeUnit.SECONDS);
      assertThat(ingest.getCode()).as("INGEST of a checkpoint: %s", ingest.getMessage())
          .isIn(Code.NOT_AUTHORIZED, Code.ACCESS_DENIED);
      Response prepare = raw.call(Request.newBuilder().setCaller(server).setPublish(PublishRequest.newBuilder()
          .setPhase(PublishRequest.Phase.PREPARE).setTxid("31-2").setDirId(dirId).setPath(root.toString())
          .setClientId(t.bob.client().caller().getClientId()).setFile(relative(checkpoint))))
          .get(30, TimeUnit.SECONDS);
      assertThat(prepare.getCode()).as("PREPARE of a checkpoint: %s", prepare.getMessage())
          .isIn(Code.NOT_AUTHORIZED, Code.ACCESS_DENIED);
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
    }
    assertThat(t.hdfs.getFileStatus(checkpoint.getPath()).getLen()).isEqualTo(checkpoint.getLen());
    assertThat(t.bob.publish(root)).isEmpty();
  }

  /** Item 6: the servers own .publish; each holder's directory is its own; nobody spoils another's publish. */
  @Test
  void publishDirectoriesAreTheServersAndEachHoldersOwn() throws Exception {
    Path bobs = new Path("/bob/six");
    t.bob.localize(bobs, false);
    try (FSDataOutputStream out = t.bob.create(new Path(bobs, "first"))) {
      out.write(2);
    }
    assertThat(t.bob.publish(bobs)).isEmpty();
    // bob published first; .publish is not his to chmod, list or empty.
    assertThrows(AccessControlException.class, () -> t.hdfsBob.setPermission(t.data(".publish"),
        new FsPermission((short) 0755)));
    assertThrows(AccessControlException.class, () -> t.hdfsBob.setPermission(t.data(".publish/0"),
        new FsPermission((short) 0755)));
    assertThrows(AccessControlException.class, () -> t.hdfsBob.listStatus(t.data(".publish/0")));
    assertThrows(AccessControlException.class, () -> t.hdfsBob.delete(t.data(".publish/0"), true));
    String servers = DataTierAttack.serverUser();
    assertThat(t.hdfs.getFileStatus(t.data(".publish")).getOwner()).isEqualTo(servers);
    assertThat(t.hdfs.getFileStatus(t.data(".publish/0")).getPermission()).isEqualTo(new FsPermission((short) 01733));

    // alice, no superuser, publishes with the journal on: small and large files.
    Path alices = new Path("/alice/six");
    t.alice.localize(alices, false);
    try (FSDataOutputStream out = t.alice.create(new Path(alices, "small"))) {
      out.write(3);
    }
    try (FSDataOutputStream out = t.alice.create(new Path(alices, "large"))) {
      out.write(TestData.bytes(6, 150_000));
    }
    org.indexfs.proto.PublishResult mid = t.alice.localizedPaths().bulk().publish(alices.toString(), false);
    assertThat(mid.getRejectedCount()).as("%s", mid).isZero();
    // Her publish directory (kept until she releases) is hers, 0700: bob can neither look in nor empty it.
    FileStatus aliceDir = null;
    for (FileStatus d : t.hdfs.listStatus(t.data(".publish/0"))) {
      if (d.getOwner().equals("alice")) {
        aliceDir = d;
      }
    }
    assertThat(aliceDir).as("alice's publish directory").isNotNull();
    assertThat(aliceDir.getPermission()).isEqualTo(new FsPermission((short) 0700));
    Path pending = new Path(aliceDir.getPath(), "pending.sst");
    t.hdfsAlice.create(pending, false).close();
    FileStatus dir = aliceDir;
    assertThrows(AccessControlException.class, () -> t.hdfsBob.listStatus(dir.getPath()));
    assertThrows(AccessControlException.class, () -> t.hdfsBob.delete(pending, false));
    assertThrows(AccessControlException.class, () -> t.hdfsBob.delete(dir.getPath(), true));
    assertThat(t.alice.publish(alices)).isEmpty();
    assertThat(t.admin.getFileStatus(new Path(alices, "small")).getLen()).isEqualTo(1);
    try (FSDataInputStream in = t.admin.open(new Path(alices, "large"))) {
      assertThat(in.readAllBytes()).isEqualTo(TestData.bytes(6, 150_000));
    }
  }

  /** A holder that died leaves its publish directory: the scrubber removes it, never a live holder's. */
  @Test
  void deadHoldersPublishDirectoriesAreScrubbedLiveOnesKept() throws Exception {
    Path bobs = new Path("/bob/seven");
    t.bob.localize(bobs, false);
    try (FSDataOutputStream out = t.bob.create(new Path(bobs, "f"))) {
      out.write(7);
    }
    assertThat(t.bob.localizedPaths().bulk().publish(bobs.toString(), false).getRejectedCount()).isZero();
    Path dead = t.data(".publish/0/0123456789abcdef0123456789abcdef");
    t.hdfsAlice.mkdirs(dead, new FsPermission((short) 0700));
    t.hdfsAlice.create(new Path(dead, "left.sst"), false).close();
    java.util.function.Supplier<java.util.Set<String>> owners = () -> {
      java.util.Set<String> out = new java.util.HashSet<>();
      try {
        for (FileStatus d : t.hdfs.listStatus(t.data(".publish/0"))) {
          out.add(d.getOwner() + ":" + d.getPath().getName());
        }
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return out;
    };
    assertThat(owners.get()).anyMatch(o -> o.startsWith("bob:"));
    t.cluster.server(0).scrubber().runOnce(0);
    assertThat(t.hdfs.exists(dead)).as("a dead holder's directory").isFalse();
    assertThat(owners.get()).as("bob still holds his lease").anyMatch(o -> o.startsWith("bob:"));
    assertThat(t.bob.publish(bobs)).isEmpty();
    assertThat(owners.get()).as("bob's client removed his at the end").noneMatch(o -> o.startsWith("bob:"));
  }
}
