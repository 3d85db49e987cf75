package org.indexfs.client;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.Listing;

/**
 * A directory's entries in HDFS order (names sorted by their bytes, compared signed as HDFS's
 * {@code DFSUtilClient.compareBytes} does), streamed page by page (DESIGN §13).
 *
 * <p>An unsplit directory is one sorted stream. A directory split by GIGA+ is one sorted stream
 * per partition, each served by its partition's slot; they are merged here, holding at most one
 * page per partition, so no directory is ever held whole. The partitions come from the bitmaps
 * the pages carry: every slot knows the partitions it split off, so starting from partition 0
 * the listing reaches them all. A split that moves names while the listing runs can show a name
 * in two streams at once; names are emitted in strictly increasing order, so the second is
 * dropped, and each entry present throughout is listed exactly once.
 */
public final class DirectoryListing {
  private final IndexFsClient client;
  private final String path;
  private final int pageSize;
  private final Runnable onPage;
  /** One stream per partition, by partition index. */
  private final Map<Integer, Stream> streams = new TreeMap<>();
  private final PartitionBitmap known = PartitionBitmap.initial();
  private ByteString lastEmitted = ByteString.EMPTY;
  private FileStatus file;
  private boolean fileReturned;

  private static final class Stream {
    final ArrayDeque<FileStatus> buffer = new ArrayDeque<>();
    boolean fetched;
    boolean hasMore;
    ByteString lastFetched = ByteString.EMPTY;

    boolean exhausted() {
      return fetched && !hasMore && buffer.isEmpty();
    }
  }

  DirectoryListing(IndexFsClient client, String path, int pageSize, Runnable onPage) {
    this.client = client;
    this.path = path;
    this.pageSize = pageSize;
    this.onPage = onPage;
    streams.put(0, new Stream());
  }

  /** True when the path named a file: the listing is that one file, as in HDFS. */
  public boolean isFile() throws IOException {
    fill();
    return file != null;
  }

  public boolean hasNext() throws IOException {
    if (file != null || fill()) {
      return file != null ? !fileReturned : head() != null;
    }
    return false;
  }

  public FileStatus next() throws IOException {
    if (!hasNext()) {
      throw new NoSuchElementException("No more entries in " + path);
    }
    if (file != null) {
      fileReturned = true;
      return file;
    }
    Stream s = head();
    FileStatus out = s.buffer.poll();
    lastEmitted = out.getNameBytes();
    return out;
  }

  /**
   * Makes every stream either hold its next name or be finished, dropping names already emitted;
   * false once the listing is complete (or named a file: see {@link #file}).
   */
  private boolean fill() throws IOException {
    while (file == null) {
      boolean fetchedAny = false;
      for (Map.Entry<Integer, Stream> e : new TreeMap<>(streams).entrySet()) {
        Stream s = e.getValue();
        dropEmitted(s);
        if (s.buffer.isEmpty() && (!s.fetched || s.hasMore)) {
          fetch(e.getKey(), s);
          fetchedAny = true;
          if (file != null) {
            return true;
          }
          dropEmitted(s);
        }
      }
      if (!fetchedAny) {
        return streams.values().stream().anyMatch(s -> !s.buffer.isEmpty());
      }
    }
    return true;
  }

  private void dropEmitted(Stream s) {
    while (!s.buffer.isEmpty() && compare(s.buffer.peek().getNameBytes(), lastEmitted) <= 0
        && !lastEmitted.isEmpty()) {
      s.buffer.poll();
    }
  }

  private void fetch(int partition, Stream s) throws IOException {
    // A stream that has given out every name it fetched resumes after the later of its own last
    // name and the last one listed (a partition found late must not repeat what was listed).
    ByteString after = compare(s.lastFetched, lastEmitted) >= 0 ? s.lastFetched : lastEmitted;
    Listing page = client.listPage(path, partition, after, pageSize);
    onPage.run();
    if (page.getIsFile()) {
      file = page.getEntries(0);
      return;
    }
    s.fetched = true;
    s.hasMore = page.getHasMore();
    s.buffer.addAll(page.getEntriesList());
    if (!s.buffer.isEmpty()) {
      s.lastFetched = s.buffer.peekLast().getNameBytes();
    }
    if (!page.getBitmap().isEmpty()) {
      known.merge(PartitionBitmap.fromBytes(page.getBitmap().toByteArray()));
      for (int p : known.partitions()) {
        streams.computeIfAbsent(p, k -> new Stream());
      }
    }
  }

  /** The stream whose next name is the smallest, or null when every stream is empty. */
  private Stream head() {
    Stream best = null;
    for (Stream s : streams.values()) {
      if (!s.buffer.isEmpty()
          && (best == null || compare(s.buffer.peek().getNameBytes(), best.buffer.peek().getNameBytes()) < 0)) {
        best = s;
      }
    }
    return best;
  }

  /** HDFS's order of names: their UTF-8 bytes compared as signed values. */
  static int compare(ByteString a, ByteString b) {
    int n = Math.min(a.size(), b.size());
    for (int i = 0; i < n; i++) {
      int d = Byte.compare(a.byteAt(i), b.byteAt(i));
      if (d != 0) {
        return d;
      }
    }
    return Integer.compare(a.size(), b.size());
  }
}
