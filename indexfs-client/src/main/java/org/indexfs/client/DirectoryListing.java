package org.indexfs.client;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.Listing;

/**
 * A directory's entries in HDFS order (names sorted by their bytes, compared signed as HDFS's
 * {@code DFSUtilClient.compareBytes} does), streamed page by page (DESIGN §13).
 *
 * <p>An unsplit directory is one sorted stream. A directory split by GIGA+ is one sorted stream
 * per partition, each served by its partition's slot; they are merged here, holding at most one
 * page per partition, so no directory is ever held whole. The partitions are those the client's
 * cached bitmap names, and those the pages' bitmaps reveal: every slot knows the partitions it
 * split off, so starting from partition 0 the listing reaches them all. A split that moves names while the listing runs can show a name
 * in two streams at once; names are emitted in strictly increasing order, so the second is
 * dropped, and each entry present throughout is listed exactly once.
 */
public final class DirectoryListing {
  private final IndexFsClient client;
  private final String path;
  private final int pageSize;
  private final Runnable onPage;
  private final Map<Integer, Stream> streams = new HashMap<>();
  private final PartitionBitmap known = PartitionBitmap.initial();
  /** Streams holding names, by their next name. */
  private final PriorityQueue<Stream> heads =
      new PriorityQueue<>((a, b) -> compare(a.buffer.peek().getNameBytes(), b.buffer.peek().getNameBytes()));
  /** Streams that must fetch before anything more is emitted (their next names are unknown). */
  private final ArrayDeque<Stream> toFetch = new ArrayDeque<>();
  private ByteString lastEmitted = ByteString.EMPTY;
  private FileStatus file;
  private boolean fileReturned;

  private static final class Stream {
    final int partition;
    final ArrayDeque<FileStatus> buffer = new ArrayDeque<>();
    boolean hasMore = true;
    ByteString lastFetched = ByteString.EMPTY;

    Stream(int partition) {
      this.partition = partition;
    }
  }

  /**
   * {@code cached}: the partitions the client's cache knows of, listed from the start, or after name
   * {@code startAfter} when it is not empty.
   */
  DirectoryListing(IndexFsClient client, String path, int pageSize, Runnable onPage, int[] cached,
      ByteString startAfter) {
    this.client = client;
    this.path = path;
    this.pageSize = pageSize;
    this.onPage = onPage;
    this.lastEmitted = startAfter;
    add(0);
    for (int p : cached) {
      if (!streams.containsKey(p)) {
        add(p);
      }
    }
  }

  private void add(int partition) {
    Stream s = new Stream(partition);
    streams.put(partition, s);
    toFetch.add(s);
  }

  /** True when the path named a file: the listing is that one file, as in HDFS. */
  public boolean isFile() throws IOException {
    fill();
    return file != null;
  }

  public boolean hasNext() throws IOException {
    fill();
    if (file != null) {
      return !fileReturned;
    }
    // A name a split showed in two partitions at once: the later copy goes.
    while (streams.size() > 1 && !heads.isEmpty()
        && compare(heads.peek().buffer.peek().getNameBytes(), lastEmitted) <= 0) {
      Stream s = heads.poll();
      s.buffer.poll();
      requeue(s);
      fill();
    }
    return !heads.isEmpty();
  }

  public FileStatus next() throws IOException {
    if (!hasNext()) {
      throw new NoSuchElementException("No more entries in " + path);
    }
    if (file != null) {
      fileReturned = true;
      return file;
    }
    Stream s = heads.poll();
    FileStatus out = s.buffer.poll();
    lastEmitted = out.getNameBytes();
    requeue(s);
    return out;
  }

  /** A stream whose head was taken: back among the heads, or to fetch its next page first. */
  private void requeue(Stream s) {
    if (!s.buffer.isEmpty()) {
      heads.add(s);
    } else if (s.hasMore) {
      toFetch.add(s);
    }
  }

  /** Fetches every stream whose next names are unknown, and every partition the pages reveal. */
  private void fill() throws IOException {
    while (file == null && !toFetch.isEmpty()) {
      fetch(toFetch.poll());
    }
  }

  private void fetch(Stream s) throws IOException {
    // A stream resumes after the later of its own last name and the last one listed (a partition
    // found late must not repeat what was listed).
    ByteString after = compare(s.lastFetched, lastEmitted) >= 0 ? s.lastFetched : lastEmitted;
    Listing page = client.listPage(path, s.partition, after, pageSize);
    onPage.run();
    if (page.getIsFile()) {
      file = page.getEntries(0);
      return;
    }
    s.hasMore = page.getHasMore();
    s.buffer.addAll(page.getEntriesList());
    if (!s.buffer.isEmpty()) {
      s.lastFetched = s.buffer.peekLast().getNameBytes();
    }
    requeue(s);
    if (!page.getBitmap().isEmpty()) {
      known.merge(PartitionBitmap.fromBytes(page.getBitmap().toByteArray()));
      for (int p : known.partitions()) {
        if (!streams.containsKey(p)) {
          add(p);
        }
      }
    }
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
