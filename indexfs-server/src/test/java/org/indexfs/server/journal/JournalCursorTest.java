package org.indexfs.server.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.EOFException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.indexfs.server.store.MetadataStore;
import org.junit.jupiter.api.Test;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * A standby's cursor over an open segment that, for a moment, looks shorter than what the cursor
 * already read: an open segment's visible length comes from one of its replicas, and a reader that
 * asks another may see less (the chaos round met this as a standby that exited with "Cannot seek
 * after EOF" while catching up). The cursor must neither fail nor skip a record: it reads on later.
 * HDFS cannot be made to lag on cue, so the reader's file system here is the local one with HDFS's
 * seek rule ({@code DFSInputStream.seek}: past the visible length is an {@link EOFException}) and a
 * visible length the test holds back.
 */
class JournalCursorTest {
  /** The raw local file system whose streams see {@code lag} bytes less than the file holds, and refuse to seek past that. */
  static final class LaggingLocal extends RawLocalFileSystem {
    volatile long lag;

    @Override
    public FSDataInputStream open(org.apache.hadoop.fs.Path f, int bufferSize) throws IOException {
      long visible = Math.max(0, getFileStatus(f).getLen() - lag);
      FSDataInputStream in = super.open(f, bufferSize);
      return new FSDataInputStream(new FSInputStream() {
        @Override
        public void seek(long pos) throws IOException {
          if (pos > visible) {
            throw new EOFException("Cannot seek after EOF");
          }
          in.seek(pos);
        }

        @Override
        public long getPos() throws IOException {
          return in.getPos();
        }

        @Override
        public boolean seekToNewSource(long targetPos) {
          return false;
        }

        @Override
        public int read() throws IOException {
          return in.getPos() >= visible ? -1 : in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          long left = visible - in.getPos();
          return left <= 0 ? -1 : in.read(b, off, (int) Math.min(len, left));
        }

        @Override
        public void close() throws IOException {
          in.close();
        }
      });
    }
  }

  private static void put(MetadataStore store, String key, String value) throws IOException {
    try (WriteBatch b = new WriteBatch()) {
      b.put(store.entries(), key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
      store.write(b);
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
    store.syncWal();
  }

  @Test
  void aSegmentSeenShorterThanAlreadyReadIsReadOnLater() throws Exception {
    Path base = Path.of(System.getProperty("test.build.data", "target/test-data"));
    Files.createDirectories(base);
    Path work = Files.createTempDirectory(base, "cursor-");
    String dataUri = work.resolve("data").toUri().toString().replaceAll("/$", "");
    try (Journal writing = Journal.open(dataUri, 4, 1 << 20, 2);
         LaggingLocal fs = new LaggingLocal()) {
      fs.initialize(URI.create("file:///"), new Configuration());
      Journal.Takeover t = writing.takeOver(MetadataStore.open(work.resolve("a")), work.resolve("a"), 1, () -> {});
      MetadataStore a = t.store();
      a.replicateTo(t.writer());
      put(a, "k1", "v1");
      put(a, "k2", "v2");

      JournalCursor cursor = new JournalCursor(new JournalLayout(fs, new org.apache.hadoop.fs.Path(dataUri + "/.journal/4")), 0);
      List<Long> seen = new ArrayList<>();
      assertEquals(2, cursor.poll(r -> seen.add(r.seq())));

      fs.lag = 3; // another replica, a little behind what was read
      assertEquals(0, cursor.poll(r -> seen.add(r.seq())), "nothing new while the segment looks shorter");
      put(a, "k3", "v3");
      assertEquals(0, cursor.poll(r -> seen.add(r.seq())), "a record only partly visible is not read");
      fs.lag = 0;
      assertEquals(1, cursor.poll(r -> seen.add(r.seq())), "the next record, once it is visible");
      assertEquals(List.of(1L, 2L, 3L), seen, "every record once, in order");
      a.close();
    }
  }
}
