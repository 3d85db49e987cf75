package org.indexfs.hadoop;

import java.io.IOException;
import org.apache.hadoop.fs.Path;

/**
 * The parts of HDFS's namespace IndexFS does not have yet (docs/compatibility.md, "Not yet"):
 * satisfyStoragePolicy, path handles, listCorruptFileBlocks and the multipart uploader. Each
 * refuses with one message naming the call and saying so, instead of
 * FileSystem's generic "... doesn't support ..." that reads like a bug; {@code hasPathCapability}
 * answers false for them ({@link ExtendedNamespace}). {@code msync} is here too, and is a no-op:
 * every read is served by the slot's active server, so there is no standby state to catch up with.
 */
abstract class NotYetSupported extends MeteredFileSystem {
  static UnsupportedOperationException notYet(String call, String feature) {
    return new UnsupportedOperationException(call + " is not supported by IndexFS yet (" + feature + ")");
  }

  @Override
  public void satisfyStoragePolicy(Path path) throws IOException {
    // HDFS's SPS moves existing blocks to match a policy; IndexFS applies a file's policy to its
    // object when it is set, and has nothing that moves objects' blocks afterwards.
    throw notYet("satisfyStoragePolicy", "IndexFS has no storage policy satisfier");
  }

  /** Opening by inode id needs an inode-id index the servers do not keep. */
  @Override
  protected org.apache.hadoop.fs.PathHandle createPathHandle(org.apache.hadoop.fs.FileStatus stat,
      org.apache.hadoop.fs.Options.HandleOpt... opt) {
    throw notYet("getPathHandle", "no path handles: open files by path");
  }

  /** HDFS asks its NameNode's block manager; objects' blocks are the data tier's to report. */
  @Override
  public org.apache.hadoop.fs.RemoteIterator<Path> listCorruptFileBlocks(Path path) throws IOException {
    throw notYet("listCorruptFileBlocks", "ask the data tier: hdfs fsck <data.uri> -list-corruptfileblocks");
  }

  @Override
  public org.apache.hadoop.fs.MultipartUploaderBuilder createMultipartUploader(Path basePath) throws IOException {
    throw notYet("createMultipartUploader", "no multipart uploader");
  }

  /** As HDFS's msync with no observer NameNodes: nothing to wait for, reads already see the latest state. */
  @Override
  public void msync() {
  }
}
