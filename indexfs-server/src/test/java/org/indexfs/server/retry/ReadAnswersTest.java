package org.indexfs.server.retry;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.indexfs.proto.Code;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.call.Call;
import org.indexfs.server.call.Commit;
import org.indexfs.server.call.ReadBatch;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.ns.Namespace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The retry cache's answer records (DESIGN §11) on a real server's store: the calls an I/O thread
 * answers in one read have their records written together when the read ends — before its replies
 * are flushed — and a call answered anywhere else has its record written at once.
 */
class ReadAnswersTest {
  @TempDir
  Path work;

  private static byte[] key(String name) {
    return ("test-call/" + name).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] answer(long callId) {
    return CallRecord.answered(System.currentTimeMillis(),
        Response.newBuilder().setCallId(callId).setCode(Code.OK).build());
  }

  @Test
  void theAnswersOfOneReadAreWrittenTogetherWhenItEnds() throws Exception {
    for (String sync : new String[] {"true", "false"}) {
      try (LocalCluster cluster = LocalCluster.builder(work.resolve("wal-sync-" + sync))
          .set("indexfs.wal.sync", sync).start()) {
        Namespace ns = cluster.server().namespace();
        byte[] a = answer(1);
        byte[] b = answer(2);
        ReadBatch read = new ReadBatch();
        ns.groupCommit().readStarted(read); // as the I/O thread does before the calls of one read
        Call first = new Call(Request.getDefaultInstance(), null, r -> { }, read);
        first.enter();
        try {
          Commit.recordAnswer(ns, key("a"), a);
          Commit.recordAnswer(ns, key("b"), b);
        } finally {
          first.exit();
        }
        assertNull(ns.store().get(ns.store().calls(), key("a")), "written at the read's end, not per call");
        assertNull(ns.store().get(ns.store().calls(), key("b")));
        Commit.readComplete(read, ns);
        assertArrayEquals(a, ns.store().get(ns.store().calls(), key("a")));
        assertArrayEquals(b, ns.store().get(ns.store().calls(), key("b")));

        byte[] c = answer(3);
        Call handled = new Call(Request.getDefaultInstance(), null, r -> { }, null);
        handled.enter();
        try {
          Commit.recordAnswer(ns, key("c"), c); // a handler thread's call: no read to wait for
        } finally {
          handled.exit();
        }
        assertArrayEquals(c, ns.store().get(ns.store().calls(), key("c")));
      }
    }
  }
}
