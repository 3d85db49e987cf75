package org.indexfs.hadoop.fc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Options.Rename;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.indexfs.hadoop.IndexFs;
import org.indexfs.hadoop.IndexFsTestCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * {@code FileContext} through {@link IndexFs}: the basic operations, and the exact-destination
 * rename rules HDFS applies to {@code FileContext.rename} (FSDirRenameOp with options).
 */
class TestIndexFsFileContext {
  private static FileContext fc;
  private Path dir;

  @BeforeAll
  static void bindFileContext() throws IOException {
    fc = FileContext.getFileContext(IndexFsTestCluster.uri(), IndexFsTestCluster.conf());
  }

  @BeforeEach
  void makeTestDirectory(TestInfo test) throws IOException {
    dir = new Path("/fc-rules/" + test.getTestMethod().orElseThrow().getName());
    fc.mkdir(dir, FsPermission.getDirDefault(), true);
  }

  @AfterEach
  void removeTestDirectory() throws IOException {
    fc.delete(dir, true);
  }

  private Path path(String name) {
    return new Path(dir, name);
  }

  private static void write(FileContext context, Path p, String text) throws IOException {
    try (FSDataOutputStream out = context.create(p, EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE),
        Options.CreateOpts.createParent())) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static String read(Path p) throws IOException {
    try (FSDataInputStream in = fc.open(p)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static boolean exists(Path p) throws IOException {
    return fc.util().exists(p);
  }

  @Test
  void fileContextResolvesIndexFsAndRunsBasicOperations() throws IOException {
    assertEquals(IndexFs.class, fc.getDefaultFileSystem().getClass());
    Path sub = path("sub");
    fc.mkdir(sub, FsPermission.getDirDefault(), false);
    write(fc, new Path(sub, "a"), "alpha");
    write(fc, new Path(sub, "b"), "beta");

    assertTrue(fc.getFileStatus(sub).isDirectory());
    assertEquals("alpha", read(new Path(sub, "a")));
    List<String> names = new ArrayList<>();
    RemoteIterator<FileStatus> it = fc.listStatus(sub);
    while (it.hasNext()) {
      names.add(it.next().getPath().getName());
    }
    names.sort(null);
    assertEquals(List.of("a", "b"), names);

    assertTrue(fc.delete(new Path(sub, "a"), false));
    assertFalse(exists(new Path(sub, "a")));
    assertTrue(fc.delete(sub, true));
    assertFalse(exists(sub));
  }

  @Test
  void uriWithoutAClusterNameIsRejected() {
    Exception e = assertThrows(Exception.class,
        () -> FileContext.getFileContext(URI.create("indexfs:///"), IndexFsTestCluster.conf()));
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    assertTrue(String.valueOf(root.getMessage()).contains("names its cluster"), root.toString());
  }

  @Test
  void mkdirWithoutCreateParentNeedsTheParent() {
    assertThrows(FileNotFoundException.class,
        () -> fc.mkdir(path("missing/child"), FsPermission.getDirDefault(), false));
  }

  @Test
  void renameWithoutOverwriteRefusesAnExistingDestination() throws IOException {
    write(fc, path("src"), "new");
    write(fc, path("dst"), "old");
    assertThrows(FileAlreadyExistsException.class, () -> fc.rename(path("src"), path("dst"), Rename.NONE));
    assertEquals("new", read(path("src")));
    assertEquals("old", read(path("dst")));
  }

  @Test
  void renameWithOverwriteReplacesAnExistingFile() throws IOException {
    write(fc, path("src"), "new");
    write(fc, path("dst"), "old");
    fc.rename(path("src"), path("dst"), Rename.OVERWRITE);
    assertFalse(exists(path("src")));
    assertEquals("new", read(path("dst")));
  }

  @Test
  void renameOntoAnExistingDirectoryDoesNotMoveIntoIt() throws IOException {
    fc.mkdir(path("srcdir"), FsPermission.getDirDefault(), false);
    fc.mkdir(path("dstdir"), FsPermission.getDirDefault(), false);
    // FileSystem.rename would move srcdir into dstdir; FileContext's destination is exact.
    assertThrows(FileAlreadyExistsException.class, () -> fc.rename(path("srcdir"), path("dstdir"), Rename.NONE));
    assertFalse(exists(path("dstdir/srcdir")));
    assertTrue(exists(path("srcdir")));
  }

  @Test
  void renameWithOverwriteReplacesAnEmptyDirectory() throws IOException {
    write(fc, path("srcdir/child"), "c");
    fc.mkdir(path("dstdir"), FsPermission.getDirDefault(), false);
    fc.rename(path("srcdir"), path("dstdir"), Rename.OVERWRITE);
    assertFalse(exists(path("srcdir")));
    assertEquals("c", read(path("dstdir/child")));
  }

  @Test
  void renameWithOverwriteRefusesANonEmptyDirectory() throws IOException {
    fc.mkdir(path("srcdir"), FsPermission.getDirDefault(), false);
    write(fc, path("dstdir/keep"), "k");
    IOException e = assertThrows(IOException.class,
        () -> fc.rename(path("srcdir"), path("dstdir"), Rename.OVERWRITE));
    assertFalse(e instanceof FileAlreadyExistsException, "a full directory is not 'already exists': " + e);
    assertTrue(exists(path("srcdir")));
    assertEquals("k", read(path("dstdir/keep")));
  }

  @Test
  void renameIntoOwnSubtreeIsRefused() throws IOException {
    fc.mkdir(path("a/b"), FsPermission.getDirDefault(), true);
    assertThrows(IOException.class, () -> fc.rename(path("a"), path("a/b/c"), Rename.NONE));
    assertThrows(IOException.class, () -> fc.rename(path("a"), path("a/b/c"), Rename.OVERWRITE));
    assertTrue(exists(path("a/b")));
    assertFalse(exists(path("a/b/c")));
  }

  @Test
  void renameOfTheRootIsRefused() throws IOException {
    write(fc, path("f"), "x");
    assertThrows(IOException.class, () -> fc.rename(new Path("/"), path("rootcopy"), Rename.OVERWRITE));
    assertThrows(IOException.class, () -> fc.rename(path("f"), new Path("/"), Rename.OVERWRITE));
    assertFalse(exists(path("rootcopy")));
    assertTrue(exists(path("f")));
  }

  @Test
  void renameToAMissingDestinationParentThrowsFileNotFound() throws IOException {
    write(fc, path("f"), "x");
    assertThrows(FileNotFoundException.class, () -> fc.rename(path("f"), path("nowhere/f"), Rename.NONE));
    assertTrue(exists(path("f")));
  }

  @Test
  void renameOfAMissingSourceThrowsFileNotFound() {
    assertThrows(FileNotFoundException.class, () -> fc.rename(path("ghost"), path("g2"), Rename.OVERWRITE));
  }

  @Test
  void renameBelowAFileThrowsParentNotDirectory() throws IOException {
    write(fc, path("plainfile"), "x");
    write(fc, path("mover"), "y");
    assertThrows(ParentNotDirectoryException.class,
        () -> fc.rename(path("mover"), path("plainfile/child"), Rename.NONE));
    assertTrue(fc.util().exists(path("mover")), "nothing moved");
  }

  @Test
  void configuredUmaskAppliesToCreateAndMkdir() throws IOException {
    Configuration conf = new Configuration(IndexFsTestCluster.conf());
    conf.set(FsPermission.UMASK_LABEL, "077");
    FileContext strict = FileContext.getFileContext(fc.getDefaultFileSystem(), conf);
    strict.mkdir(path("private"), FileContext.DEFAULT_PERM, false);
    write(strict, path("private/file"), "x");
    assertEquals(new FsPermission((short) 0700), fc.getFileStatus(path("private")).getPermission());
    assertEquals(new FsPermission((short) 0600), fc.getFileStatus(path("private/file")).getPermission());
  }

  @Test
  void umaskSetOnTheFileContextIsTheOnlyMaskApplied() throws IOException {
    FileContext open = FileContext.getFileContext(fc.getDefaultFileSystem(), IndexFsTestCluster.conf());
    open.setUMask(new FsPermission((short) 0));
    open.mkdir(path("shared"), new FsPermission((short) 0777), false);
    try (FSDataOutputStream out = open.create(path("shared/file"), EnumSet.of(CreateFlag.CREATE),
        Options.CreateOpts.perms(new FsPermission((short) 0666)))) {
      out.write(1);
    }
    // The configuration's umask (022) must not be applied a second time below FileContext.
    assertNotEquals(FsPermission.getUMask(IndexFsTestCluster.conf()).toShort(), (short) 0);
    assertEquals(new FsPermission((short) 0777), fc.getFileStatus(path("shared")).getPermission());
    assertEquals(new FsPermission((short) 0666), fc.getFileStatus(path("shared/file")).getPermission());
  }

  @Test
  void renameMovesASubtreeAtomically() throws IOException {
    write(fc, path("from/x/y/leaf"), "deep");
    fc.rename(path("from"), path("to"), Rename.NONE);
    assertFalse(exists(path("from")));
    assertEquals("deep", read(path("to/x/y/leaf")));
    assertArrayEquals(new String[] {"x"}, names(fc.util().listStatus(path("to"))));
  }

  private static String[] names(FileStatus[] statuses) {
    String[] out = new String[statuses.length];
    for (int i = 0; i < statuses.length; i++) {
      out[i] = statuses[i].getPath().getName();
    }
    return out;
  }
}
