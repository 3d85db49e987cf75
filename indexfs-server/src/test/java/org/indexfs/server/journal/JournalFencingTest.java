package org.indexfs.server.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.indexfs.server.local.LocalHdfs;
import org.indexfs.server.store.LogPosition;
import org.indexfs.server.store.MetadataStore;
import org.junit.jupiter.api.Test;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * Fencing and history (DESIGN §11): a successor's takeover fences the previous writer — on HDFS by
 * recovering its open segment's lease, on a local data tier by renaming its epoch's directory — so
 * nothing it writes afterwards becomes durable or part of the history; and a store holding changes
 * the history does not (a writer's never-acknowledged tail) is rebuilt from the history.
 */
class JournalFencingTest {
  private static Path newDir(String prefix) throws IOException {
    Path base = Path.of(System.getProperty("test.build.data", "target/test-data"));
    Files.createDirectories(base);
    return Files.createTempDirectory(base, prefix + "-");
  }

  private static void put(MetadataStore store, String key, String value) throws IOException {
    try (WriteBatch b = new WriteBatch()) {
      b.put(store.entries(), key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
      store.write(b);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  private static String get(MetadataStore store, String key) throws IOException {
    byte[] v = store.get(store.entries(), key.getBytes(StandardCharsets.UTF_8));
    return v == null ? null : new String(v, StandardCharsets.UTF_8);
  }

  @Test
  void aSuccessorFencesTheWriterOnALocalDataTier() throws Exception {
    Path work = newDir("fence-local");
    fencing(work.resolve("data").toUri().toString().replaceAll("/$", ""), work);
  }

  @Test
  void aSuccessorFencesTheWriterOnHdfs() throws Exception {
    Path work = newDir("fence-hdfs");
    try (LocalHdfs hdfs = LocalHdfs.start(work.resolve("hdfs"), 1, Map.of(), false)) {
      fencing(hdfs.uri() + "/indexfs-data", work);
    }
  }

  private void fencing(String dataUri, Path work) throws Exception {
    AtomicBoolean firstFenced = new AtomicBoolean();
    try (Journal j1 = Journal.open(dataUri, 3, 1 << 20, 2);
         Journal j2 = Journal.open(dataUri, 3, 1 << 20, 2)) {
      MetadataStore a = MetadataStore.open(work.resolve("a"));
      Journal.Takeover first = j1.takeOver(a, work.resolve("a"), 1, () -> firstFenced.set(true));
      a = first.store();
      a.replicateTo(first.writer());
      put(a, "k1", "v1");
      put(a, "k2", "v2");
      a.syncWal();
      assertEquals(new LogPosition(1, 2), a.position());

      MetadataStore b = MetadataStore.open(work.resolve("b"));
      Journal.Takeover second = j2.takeOver(b, work.resolve("b"), 2, () -> {});
      b = second.store();
      assertEquals("v2", get(b, "k2"), "the successor caught up with everything durable");
      b.replicateTo(second.writer());

      // The fenced writer can apply a change locally but never make it durable.
      put(a, "k3", "late");
      IOException refused = assertThrows(IOException.class, a::syncWal);
      assertTrue(refused.getMessage().contains("cannot be written any more"), refused.getMessage());
      assertTrue(firstFenced.get(), "the fenced writer was told");
      assertThrows(IOException.class, a::syncWal, "and stays fenced");

      put(b, "k3", "successor");
      b.syncWal();
      MetadataStore c = MetadataStore.open(work.resolve("c"));
      c = j2.catchUp(c, work.resolve("c"));
      assertEquals("successor", get(c, "k3"), "the history is the successor's");
      assertEquals(b.position(), c.position());

      // The fenced writer's store holds a change the history does not: taking over with it rebuilds it.
      first.writer().close();
      a.replicateTo(null);
      second.writer().close();
      b.replicateTo(null);
      Journal.Takeover third = j1.takeOver(a, work.resolve("a"), 3, () -> {});
      MetadataStore rebuilt = third.store();
      assertEquals("successor", get(rebuilt, "k3"));
      assertEquals(b.position(), rebuilt.position());
      third.writer().close();
      rebuilt.close();
      b.close();
      c.close();
    }
  }

  @Test
  void aTornLastRecordEndsTheSegmentAndIsNotHistory() throws Exception {
    Path work = newDir("torn");
    String dataUri = work.resolve("data").toUri().toString().replaceAll("/$", "");
    try (Journal j = Journal.open(dataUri, 0, 1 << 20, 2)) {
      MetadataStore a = MetadataStore.open(work.resolve("a"));
      Journal.Takeover t = j.takeOver(a, work.resolve("a"), 1, () -> {});
      a = t.store();
      a.replicateTo(t.writer());
      put(a, "x", "1");
      a.syncWal();
      // A writer that died in the middle of an append leaves a cut record behind.
      Path segment = Path.of(java.net.URI.create(dataUri + "/.journal/0/e0000000001/seg-00000000000000000001"));
      byte[] whole = new JournalRecord(1, 2, JournalRecord.BATCH, new byte[100]).encode();
      Files.write(segment, java.util.Arrays.copyOf(whole, 40), java.nio.file.StandardOpenOption.APPEND);
      MetadataStore b = j.catchUp(MetadataStore.open(work.resolve("b")), work.resolve("b"));
      assertEquals(new LogPosition(1, 1), b.position());
      assertEquals("1", get(b, "x"));
      b.close();
      a.replicateTo(null);
      a.close();
    }
  }

  @Test
  void recordsSurviveTheirRoundTripAndCheckTheirBytes() throws Exception {
    byte[] payload = "batch".getBytes(StandardCharsets.UTF_8);
    byte[] encoded = new JournalRecord(7, 42, JournalRecord.BATCH, payload).encode();
    var read = JournalRecord.read(new java.io.DataInputStream(new java.io.ByteArrayInputStream(encoded)));
    JournalRecord r = ((JournalRecord.Whole) read).record();
    assertEquals(7, r.epoch());
    assertEquals(42, r.seq());
    assertArrayEquals(payload, r.payload());
    encoded[encoded.length - 1] ^= 1;
    assertTrue(JournalRecord.read(new java.io.DataInputStream(new java.io.ByteArrayInputStream(encoded)))
        instanceof JournalRecord.Torn);
    assertTrue(JournalRecord.read(new java.io.DataInputStream(new java.io.ByteArrayInputStream(encoded, 0, 10)))
        instanceof JournalRecord.Incomplete);
    assertNull(null);
  }
}
