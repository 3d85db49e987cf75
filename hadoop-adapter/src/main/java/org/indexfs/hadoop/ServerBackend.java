package org.indexfs.hadoop;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.indexfs.client.IndexFsClient;
import org.indexfs.client.LeaseRenewer;
import org.indexfs.common.policy.SubtreePolicy;
import org.indexfs.proto.WriteHandle;

/**
 * The servers answer: one RPC per call (routed and failed over by the client), bytes through
 * {@link FileBytes} and the write streams. What this client holds pending in a localized subtree
 * the call touches is published first ({@link LocalizedPaths#flushFor}), so the server sees it; a
 * new directory matching {@code indexfs.client.localize.patterns}, or made in a subtree of
 * consistency {@code localized}, is localized by its mkdirs.
 */
final class ServerBackend implements NamespaceBackend {
  private final MeteredFileSystem fs;
  private final IndexFsClient client;
  private final DataObjects objects;
  private final FileBytes bytes;
  private final LeaseRenewer renewer;
  private final LocalizedPaths localized;
  private final int inlineMax;

  ServerBackend(MeteredFileSystem fs, IndexFsClient client, DataObjects objects, FileBytes bytes, LeaseRenewer renewer,
      LocalizedPaths localized, int inlineMax) {
    this.fs = fs;
    this.client = client;
    this.objects = objects;
    this.bytes = bytes;
    this.renewer = renewer;
    this.localized = localized;
    this.inlineMax = inlineMax;
  }

  /** The unmasked mode a client sends with a create or mkdir, or null. */
  private static Integer unmasked(FsPermission permission) {
    return permission.getUnmasked() == null ? null : (int) permission.getUnmasked().toShort();
  }

  @Override
  public FSDataInputStream open(String path) throws IOException {
    return bytes.open(path, fs.read(() -> client.open(path)), fs.stats());
  }

  @Override
  public FSDataOutputStream create(String path, FsPermission permission, boolean overwrite, short replication,
      long blockSize, boolean createParent) throws IOException {
    org.indexfs.proto.FileStatus created = fs.write(() -> client.create(path, permission.toShort(),
        unmasked(permission), overwrite, replication, blockSize, createParent));
    IndexOutputStream out = new IndexOutputStream(client, objects, renewer, path, created.getInodeId(), inlineMax,
        replication, blockSize, created.getSpillObject(), created.getSpillPolicy(),
        IndexOutputStream.Start.empty());
    return new FSDataOutputStream(out, fs.stats());
  }

  /**
   * HDFS append, once the caller may: it becomes the file's single writer. An inline file continues
   * in memory (spilling if it outgrows the limit); an object file is appended through the data tier.
   */
  FSDataOutputStream append(String path) throws IOException {
    WriteHandle handle = fs.write(() -> client.append(path));
    org.indexfs.proto.FileStatus status = handle.getStatus();
    IndexOutputStream.Start start;
    if (status.getDataObject().isEmpty()) {
      start = new IndexOutputStream.Start(handle.getInlineData().toByteArray(), null, null, status.getLength());
    } else {
      start = new IndexOutputStream.Start(null, appendToObject(path, status), status.getDataObject(),
          status.getLength());
    }
    IndexOutputStream out = new IndexOutputStream(client, objects, renewer, path, status.getInodeId(), inlineMax,
        (short) status.getReplication(), status.getBlockSize(), handle.getSpillObject(), handle.getSpillPolicy(), start);
    return new FSDataOutputStream(out, fs.stats(), status.getLength());
  }

  /** Opens an object file's object for append; on failure gives the file back, unchanged. */
  private FSDataOutputStream appendToObject(String path, org.indexfs.proto.FileStatus status) throws IOException {
    try {
      FSDataOutputStream out = objects.append(status.getDataObject(), status.getOwner(), path);
      if (out.getPos() != status.getLength()) {
        out.close();
        throw new IOException("Data object " + status.getDataObject() + " of " + path + " holds " + out.getPos()
            + " bytes but the file records " + status.getLength());
      }
      return out;
    } catch (IOException | RuntimeException e) {
      // Includes UnsupportedOperationException: a local-directory data tier cannot append.
      try {
        client.complete(path, status.getInodeId(), status.getLength(), null, status.getDataObject());
      } catch (IOException closeFailure) {
        e.addSuppressed(closeFailure);
      }
      throw e;
    }
  }

  @Override
  public boolean mkdirs(String path, FsPermission permission) throws IOException {
    int pattern = localized.patternFor(path);
    if (pattern != 0 && localized.bulk().at(path) == null) {
      // indexfs.client.localize.patterns: unmodified jobs get bulk insertion for these directories.
      fs.write(() -> localized.bulk().localize(path, permission.toShort(), pattern == 2));
      return true;
    }
    IndexFsClient.Made made = fs.write(() -> client.mkdirsInPolicy(path, permission.toShort(), unmasked(permission)));
    if (made.created() && made.policy().consistency() == SubtreePolicy.Consistency.LOCALIZED
        && localized.bulk().at(path) == null) {
      // A localized subtree (issue 18): what this client makes in a new directory there stays in the
      // client until it publishes, as under indexfs.client.localize.patterns (bulk insertion).
      fs.write(() -> localized.bulk().localize(path, permission.toShort(), false));
      if (made.policy().durability() == SubtreePolicy.Durability.CLIENT_JOURNAL) {
        localized.journal(path, ClientJournal.open(objects, path, client.caller().getClientId()));
      }
    }
    return made.created();
  }

  @Override
  public boolean delete(String path, boolean recursive) throws IOException {
    localized.flushFor(path);
    return fs.write(() -> client.delete(path, recursive));
  }

  @Override
  public boolean rename(String src, String dst) throws IOException {
    localized.flushFor(dst);
    return fs.write(() -> client.rename(src, dst));
  }

  @Override
  public FileStatus getFileStatus(Path qualified, String path) throws IOException {
    return fs.read(() -> new IndexFileStatus(qualified, client.getFileStatus(path)));
  }

  @Override
  public RemoteIterator<FileStatus> list(Path asGiven, Path dir, String path) throws IOException {
    return new StatusIterator(asGiven, dir, client.list(path, () -> fs.stats().incrementReadOps(1)));
  }

  @Override
  public void beforeServerCall(String path, String call) throws IOException {
    localized.flushFor(path);
  }
}
