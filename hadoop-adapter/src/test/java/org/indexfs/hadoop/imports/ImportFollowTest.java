package org.indexfs.hadoop.imports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.indexfs.hadoop.IndexFileSystem;
import org.junit.jupiter.api.Test;

/**
 * Issue 34, following the NameNode: an fsimage import of a directory changed after the image
 * (creates, appends, renames within, out of and into it, deletes, chmod/chown/setrep/setxattr/ACL)
 * takes each changed entry's current state from the live NameNode instead of refusing; the result
 * equals what the NameNode held just before the import, and {@code --status} counts the changes.
 */
class ImportFollowTest {
  private static String run(String... args) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = ImportMain.run(args, ImportFixture.conf(), new PrintStream(out, true), new PrintStream(out, true));
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(code).as(text).isZero();
    return text;
  }

  @Test
  void changesSinceTheImageAreTakenFromTheLiveNameNode() throws Exception {
    DistributedFileSystem hdfs = ImportFixture.dfs();
    Path src = new Path("/follow-src");
    ImportFixture.writeNamespace(src);
    hdfs.mkdirs(new Path("/follow-outside/in/sub"));
    write(hdfs, new Path("/follow-outside/in/sub/f"), ImportFixture.bytes(20, 3_000));
    hdfs.mkdirs(new Path("/follow-out"));
    File image = ImportFixture.saveNamespace();

    hdfs.mkdirs(new Path(src, "new/d"));
    write(hdfs, new Path(src, "new/d/created"), ImportFixture.bytes(21, 7_000));
    try (FSDataOutputStream a = hdfs.append(new Path(src, "a/small"))) {
      a.write(ImportFixture.bytes(22, 4_000));
    }
    hdfs.rename(new Path(src, "a/b/c"), new Path(src, "moved-c")); // within
    hdfs.rename(new Path(src, "alices/notes"), new Path("/follow-out/notes")); // out of
    hdfs.rename(new Path("/follow-outside/in"), new Path(src, "in")); // into
    hdfs.delete(new Path(src, "empty"), false);
    hdfs.setPermission(new Path(src, "acl/shared"), new FsPermission((short) 0600));
    hdfs.setOwner(new Path(src, "snap/kept"), "bob", "bobgroup");
    hdfs.setReplication(new Path(src, "a/b/multi-block"), (short) 3);
    hdfs.setXAttr(new Path(src, "quota/in-quota"), "user.added", "after-image".getBytes(), EnumSet.of(XAttrSetFlag.CREATE));
    hdfs.modifyAclEntries(new Path(src, "cold"), List.of(new AclEntry.Builder().setScope(AclEntryScope.ACCESS)
        .setType(AclEntryType.USER).setName("dave").setPermission(FsAction.READ_EXECUTE).build()));
    hdfs.setPermission(src, new FsPermission((short) 0750)); // the imported directory itself, in place

    String status = run("--status", "--fsimage", image.getPath(), "--from", ImportFixture.hdfsUri("/follow-src").toString());
    long imageTxid = Long.parseLong(image.getName().substring("fsimage_".length()));
    long behind = hdfs.getClient().getNamenode().getCurrentEditLogTxid() - imageTxid;
    assertThat(status).contains("transactions  image " + imageTxid).contains(behind + " behind")
        // subtrees: new, moved-c, a/b/c, alices/notes, in, empty; in place: a/small, acl/shared, snap/kept,
        // a/b/multi-block, quota/in-quota, cold, the directory itself, and the directories whose mtime a
        // create, rename or delete moved: a/b, alices (and the directory itself, counted already)
        .contains("an import now reads 15 paths live");

    Map<String, String> before = state(hdfs, src);
    assertThat(before).containsKeys("new/d/created", "moved-c/deep", "in/sub/f").doesNotContainKeys("empty",
        "alices/notes", "a/b/c");
    String out = run("--from", ImportFixture.hdfsUri("/follow-src").toString(), "--to", "/followed", "--fsimage",
        image.getPath());
    assertThat(out).contains("15 paths read live");
    String objects = out.substring(out.indexOf("The files now live at ") + 22).split(" ")[0];
    assertThat(run("--verify", "--from", objects, "--to", "/followed")).contains("RESULT    CLEAN");
    try (IndexFileSystem fs = ImportFixture.indexFs()) {
      assertThat(state(fs, new Path("/followed"))).isEqualTo(before);
    }
  }

  private static void write(FileSystem fs, Path p, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.create(p)) {
      out.write(data);
    }
  }

  /** Every entry below {@code root}: type, owner, group, mode, mtime, length, replication, ACL, xattrs. */
  private static Map<String, String> state(FileSystem fs, Path root) throws IOException {
    Map<String, String> out = new TreeMap<>();
    ArrayDeque<Path> dirs = new ArrayDeque<>(List.of(root));
    out.put("", describe(fs, fs.getFileStatus(root)));
    String prefix = fs.getFileStatus(root).getPath().toUri().getPath() + "/";
    while (!dirs.isEmpty()) {
      for (FileStatus st : fs.listStatus(dirs.poll())) {
        out.put(st.getPath().toUri().getPath().substring(prefix.length()), describe(fs, st));
        if (st.isDirectory()) {
          dirs.add(st.getPath());
        }
      }
    }
    return out;
  }

  private static String describe(FileSystem fs, FileStatus st) throws IOException {
    StringBuilder b = new StringBuilder(st.isDirectory() ? "dir" : "file").append(' ').append(st.getOwner()).append(':')
        .append(st.getGroup()).append(' ').append(st.getPermission()).append(" mtime=").append(st.getModificationTime());
    if (st.isFile()) {
      b.append(" len=").append(st.getLen()).append(" rep=").append(st.getReplication());
    }
    b.append(" acl=").append(fs.getAclStatus(st.getPath()).getEntries());
    for (Map.Entry<String, byte[]> x : new TreeMap<>(fs.getXAttrs(st.getPath())).entrySet()) {
      b.append(' ').append(x.getKey()).append('=').append(new String(x.getValue(), StandardCharsets.ISO_8859_1));
    }
    return b.toString();
  }
}
