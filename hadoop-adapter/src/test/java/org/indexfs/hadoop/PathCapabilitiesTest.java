package org.indexfs.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code hasPathCapability} answers what IndexFS really does (issue 37), not what HDFS does: every
 * capability it claims is exercised here, and every one it denies fails with IndexFS's own
 * "not supported" message. Where HDFS answers otherwise (path handles, corrupt-block listing,
 * multipart uploads), docs/compatibility.md says so.
 */
class PathCapabilitiesTest {
  @Test
  void capabilitiesAreWhatWorks() throws Exception {
    try (FileSystem fs = FileSystem.newInstance(IndexFsTestCluster.uri(), IndexFsTestCluster.conf())) {
      Path dir = new Path("/capabilities");
      fs.mkdirs(dir);
      Map<String, Boolean> answers = new TreeMap<>();
      for (String c : new String[] {CommonPathCapabilities.FS_ACLS, CommonPathCapabilities.FS_APPEND,
          CommonPathCapabilities.FS_CHECKSUMS, CommonPathCapabilities.FS_CONCAT,
          CommonPathCapabilities.FS_LIST_CORRUPT_FILE_BLOCKS, CommonPathCapabilities.FS_PATHHANDLES,
          CommonPathCapabilities.FS_PERMISSIONS, CommonPathCapabilities.FS_SNAPSHOTS,
          CommonPathCapabilities.FS_STORAGEPOLICY, CommonPathCapabilities.FS_SYMLINKS,
          CommonPathCapabilities.FS_TRUNCATE, CommonPathCapabilities.FS_XATTRS,
          CommonPathCapabilities.FS_EXPERIMENTAL_BATCH_LISTING, CommonPathCapabilities.FS_MULTIPART_UPLOADER,
          CommonPathCapabilities.LEASE_RECOVERABLE, CommonPathCapabilities.BULK_DELETE,
          CommonPathCapabilities.VIRTUAL_BLOCK_LOCATIONS, CommonPathCapabilities.ETAGS_AVAILABLE}) {
        answers.put(c, fs.hasPathCapability(dir, c));
      }
      Map<String, Boolean> expected = new TreeMap<>();
      answers.keySet().forEach(c -> expected.put(c, isYes(c)));
      assertEquals(expected, answers);

      // The ones it denies refuse with IndexFS's words.
      Path file = new Path(dir, "f");
      try (FSDataOutputStream out = fs.create(file)) {
        out.write(1);
      }
      for (Runnable denied : new Runnable[] {
          () -> call(() -> fs.getPathHandle(fs.getFileStatus(file), Options.HandleOpt.path())),
          () -> call(() -> fs.listCorruptFileBlocks(dir)),
          () -> call(() -> fs.createMultipartUploader(dir))}) {
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, denied::run);
        assertTrue(e.getMessage().contains("is not supported by IndexFS"), e.getMessage());
      }
      // The ones it claims work (the rest are exercised by the contract and parity suites).
      assertTrue(fs.truncate(file, 0));
      assertEquals(0, fs.getFileStatus(file).getLen());
      fs.delete(dir, true);
    }
  }

  private static boolean isYes(String capability) {
    return switch (capability) {
      case CommonPathCapabilities.FS_ACLS, CommonPathCapabilities.FS_APPEND, CommonPathCapabilities.FS_CHECKSUMS,
          CommonPathCapabilities.FS_CONCAT, CommonPathCapabilities.FS_PERMISSIONS, CommonPathCapabilities.FS_SNAPSHOTS,
          CommonPathCapabilities.FS_STORAGEPOLICY, CommonPathCapabilities.FS_TRUNCATE, CommonPathCapabilities.FS_XATTRS,
          CommonPathCapabilities.LEASE_RECOVERABLE, CommonPathCapabilities.BULK_DELETE -> true;
      default -> false;
    };
  }

  @FunctionalInterface
  private interface Call {
    Object run() throws Exception;
  }

  private static void call(Call c) {
    try {
      c.run();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new AssertionError("expected a refusal as UnsupportedOperationException, got " + e, e);
    }
  }
}
