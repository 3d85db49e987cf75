package org.indexfs.server.call;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.health.Fence;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.store.GroupCommit;
import org.indexfs.server.store.MetadataStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * The stages a call goes through after its operation (DESIGN §10, "Where a call goes"), on a real
 * RocksDB with {@code wal.sync=true}: its retry mark lands in the batch of its change and only
 * that one; the batch's durability ticket becomes the call's, not a wait of the thread; and the
 * reply leaves only after the fsync that covers the ticket.
 */
class CallStagesTest {
  @TempDir
  Path dir;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Request request(long callId) {
    return Request.newBuilder().setCallId(callId).build();
  }

  /** A change of the namespace, as an operation makes it: one batch under {@link Namespace#mutateLocked}. */
  private static void write(Namespace ns, String key) throws Exception {
    ns.mutateLocked(m -> {
      put(m.batch(), ns.store().meta(), bytes("test/" + key), bytes(key));
      return null;
    });
  }

  private static void put(WriteBatch batch, ColumnFamilyHandle cf, byte[] key, byte[] value) throws IOException {
    try {
      batch.put(cf, key, value);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  @Test
  void theReplyLeavesOnlyAfterTheFsyncThatCoversTheCallsWrite() throws Exception {
    try (MetadataStore store = MetadataStore.open(dir.resolve("db"));
         Namespace ns = new Namespace(store, 0, true, "hdfs", "supergroup")) {
      GroupCommit groupCommit = ns.groupCommit();
      Fence fence = new Fence("test/0");
      fence.open();
      Reply reply = new Reply(groupCommit, fence);
      List<Response> sent = new CopyOnWriteArrayList<>();
      AtomicLong syncsAtReply = new AtomicLong(-1);
      CountDownLatch replied = new CountDownLatch(1);
      Call call = new Call(request(7), null, r -> {
        syncsAtReply.set(groupCommit.syncCount());
        sent.add(r);
        replied.countDown();
      }, null);
      long syncsBefore = groupCommit.syncCount();

      call.enter();
      try {
        write(ns, "a");
      } finally {
        call.exit();
      }
      assertTrue(call.ticket() > 0, "the write's durability ticket is the call's (Commit), the thread did not wait");
      assertEquals(syncsBefore, groupCommit.syncCount(), "nothing asked for an fsync yet");

      reply.send(call, Response.newBuilder().setCallId(7).setCode(Code.OK).build());
      assertTrue(replied.await(10, TimeUnit.SECONDS), "the reply is sent once the fsync is done");
      assertTrue(syncsAtReply.get() > syncsBefore, "the reply left after the fsync covering the call's write, not before");
      assertEquals(1, sent.size());
      assertEquals(Code.OK, sent.get(0).getCode());
    }
  }

  @Test
  void aCallThatWroteNothingIsAnsweredAtOnce() throws Exception {
    try (MetadataStore store = MetadataStore.open(dir.resolve("db"));
         Namespace ns = new Namespace(store, 0, true, "hdfs", "supergroup")) {
      Fence fence = new Fence("test/0");
      fence.open();
      List<Response> sent = new CopyOnWriteArrayList<>();
      Call call = new Call(request(8), null, sent::add, null);
      new Reply(ns.groupCommit(), fence).send(call, Response.newBuilder().setCallId(8).setCode(Code.OK).build());
      assertEquals(1, sent.size(), "no ticket, nothing to wait for");
    }
  }

  @Test
  void theRetryMarkGoesIntoTheCallsFirstBatchOnly() throws Exception {
    try (MetadataStore store = MetadataStore.open(dir.resolve("db"));
         Namespace ns = new Namespace(store, 0, false, "hdfs", "supergroup")) {
      Call call = new Call(request(9), null, r -> { }, null);
      byte[] key = bytes("test-call/9");
      call.enter();
      try {
        call.mark(new byte[][] {key, bytes("applied")});
        ns.prepare(batch -> {
          put(batch, store.meta(), bytes("test/intent"), bytes("intent"));
          return null;
        });
        assertNull(store.get(store.calls(), key), "a preparing step does not carry the call's mark");
        write(ns, "change");
        assertArrayEquals(bytes("applied"), store.get(store.calls(), key), "the mark is written with the change");
        assertNull(call.mark(), "and spent by it");
        try (WriteBatch other = new WriteBatch()) {
          other.put(store.calls(), key, bytes("answered"));
          store.write(other);
        }
        write(ns, "later");
        assertArrayEquals(bytes("answered"), store.get(store.calls(), key), "a later batch of the same call carries no mark");
      } finally {
        call.exit();
      }
    }
  }
}
