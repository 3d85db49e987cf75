package org.indexfs.hadoop;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.indexfs.client.DirectoryListing;

/**
 * {@code listStatusIterator}: a directory's entries in HDFS order, fetched page by page as they
 * are consumed ({@link DirectoryListing} merges a split directory's partitions). The first page is
 * fetched at once, so a missing directory fails where HDFS's does, with HDFS's words.
 */
final class StatusIterator implements RemoteIterator<FileStatus> {
  private final Path dir;
  private final ChildPaths children;
  private final DirectoryListing listing;
  private final boolean isFile;

  /** {@code asGiven}: the path as the caller wrote it (HDFS names it so in its error). */
  StatusIterator(Path asGiven, Path dir, DirectoryListing listing) throws IOException {
    this.dir = dir;
    this.children = new ChildPaths(dir);
    this.listing = listing;
    try {
      isFile = mapped(listing::isFile);
    } catch (FileNotFoundException e) {
      FileNotFoundException missing = new FileNotFoundException("File " + asGiven + " does not exist.");
      missing.initCause(e);
      throw missing;
    }
  }

  @FunctionalInterface
  private interface Call<T> {
    T call() throws IOException;
  }

  private static <T> T mapped(Call<T> call) throws IOException {
    try {
      return call.call();
    } catch (IOException e) {
      throw HadoopErrors.toHadoop(e);
    }
  }

  @Override
  public boolean hasNext() throws IOException {
    return mapped(listing::hasNext);
  }

  @Override
  public FileStatus next() throws IOException {
    if (!hasNext()) {
      throw new NoSuchElementException("No more entries in " + dir);
    }
    org.indexfs.proto.FileStatus s = mapped(listing::next);
    return new IndexFileStatus(isFile ? dir : children.of(s.getName()), s);
  }
}
