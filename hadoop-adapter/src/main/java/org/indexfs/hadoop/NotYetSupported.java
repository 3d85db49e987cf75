package org.indexfs.hadoop;

import java.io.IOException;
import org.apache.hadoop.fs.Path;

/**
 * The parts of HDFS's namespace IndexFS does not have yet (README, "Not yet"): satisfyStoragePolicy. Each refuses with one message naming the call and saying so, instead of
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

  /** As HDFS's msync with no observer NameNodes: nothing to wait for, reads already see the latest state. */
  @Override
  public void msync() {
  }
}
