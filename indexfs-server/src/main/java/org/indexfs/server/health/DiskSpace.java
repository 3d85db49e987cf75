package org.indexfs.server.health;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The free space of the file system under a slot's RocksDB, against {@code indexfs.store.reserved-bytes}
 * (as HDFS's NameNodeResourceChecker watches {@code dfs.namenode.resource.du.reserved}). Read at
 * most every {@value #REFRESH_NANOS} ns: a statvfs is cheap, but not free on the request path.
 */
public final class DiskSpace {
  private static final long REFRESH_NANOS = 100_000_000L;

  private final Path dir;
  private final FileStore store;
  private final long reserved;
  private volatile long usable = Long.MAX_VALUE;
  private volatile long readAt;

  public DiskSpace(Path dir, long reservedBytes) throws IOException {
    this.dir = dir;
    this.store = Files.getFileStore(dir);
    this.reserved = reservedBytes;
    this.readAt = System.nanoTime() - 2 * REFRESH_NANOS;
  }

  /** True when less than the reserve is free: calls that grow the store are refused. */
  public boolean low() {
    return reserved > 0 && usable() < reserved;
  }

  /** Bytes a non-root writer may still use there (refreshed at most every 100 ms). */
  public long usable() {
    long now = System.nanoTime();
    if (now - readAt > REFRESH_NANOS) {
      try {
        usable = store.getUsableSpace();
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read the free space of " + dir, e);
      }
      readAt = now;
    }
    return usable;
  }

  public long reserved() {
    return reserved;
  }

  public Path directory() {
    return dir;
  }
}
