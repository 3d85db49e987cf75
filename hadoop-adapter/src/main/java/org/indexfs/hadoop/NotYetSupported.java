package org.indexfs.hadoop;

import java.io.IOException;
import java.util.Collection;
import org.apache.hadoop.fs.BlockStoragePolicySpi;
import org.apache.hadoop.fs.Path;

/**
 * The parts of HDFS's namespace IndexFS does not have yet (README, "Not yet"): snapshots and
 * storage policies. Each refuses with one message naming the call and saying so, instead of
 * FileSystem's generic "... doesn't support ..." that reads like a bug; {@code hasPathCapability}
 * answers false for them ({@link ExtendedNamespace}). {@code msync} is here too, and is a no-op:
 * every read is served by the slot's active server, so there is no standby state to catch up with.
 */
abstract class NotYetSupported extends MeteredFileSystem {
  static UnsupportedOperationException notYet(String call, String feature) {
    return new UnsupportedOperationException(call + " is not supported by IndexFS yet (" + feature + ")");
  }

  private static UnsupportedOperationException snapshots(String call) {
    return notYet(call, "IndexFS has no snapshots");
  }

  private static UnsupportedOperationException storagePolicies(String call) {
    return notYet(call, "IndexFS has no storage policies; data objects get the data tier's defaults");
  }

  @Override
  public Path createSnapshot(Path path, String snapshotName) throws IOException {
    throw snapshots("createSnapshot");
  }

  @Override
  public void renameSnapshot(Path path, String snapshotOldName, String snapshotNewName) throws IOException {
    throw snapshots("renameSnapshot");
  }

  @Override
  public void deleteSnapshot(Path path, String snapshotName) throws IOException {
    throw snapshots("deleteSnapshot");
  }

  @Override
  public void setStoragePolicy(Path src, String policyName) throws IOException {
    throw storagePolicies("setStoragePolicy");
  }

  @Override
  public void unsetStoragePolicy(Path src) throws IOException {
    throw storagePolicies("unsetStoragePolicy");
  }

  @Override
  public BlockStoragePolicySpi getStoragePolicy(Path src) throws IOException {
    throw storagePolicies("getStoragePolicy");
  }

  @Override
  public Collection<? extends BlockStoragePolicySpi> getAllStoragePolicies() throws IOException {
    throw storagePolicies("getAllStoragePolicies");
  }

  @Override
  public void satisfyStoragePolicy(Path path) throws IOException {
    throw storagePolicies("satisfyStoragePolicy");
  }

  /** As HDFS's msync with no observer NameNodes: nothing to wait for, reads already see the latest state. */
  @Override
  public void msync() {
  }
}
