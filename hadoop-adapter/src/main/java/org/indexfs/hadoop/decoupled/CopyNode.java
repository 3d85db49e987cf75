package org.indexfs.hadoop.decoupled;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.FileType;

/**
 * One entry of a checked-out copy: as read at check-out ({@link #base} set), or made in the copy.
 * A file written in the copy keeps its bytes here (in memory, spilled to a local file past
 * {@link #SPILL_BYTES}) until the merge writes them to the namespace.
 */
final class CopyNode {
  /** Bytes a file written in the copy keeps in memory before it spills to a local file. */
  static final int SPILL_BYTES = 4 << 20;

  /** The entry as the server had it at check-out; null for what the copy made. */
  final FileStatus base;
  /** Where the server holds a checked-out entry (its path at check-out); null for what the copy made. */
  final String origin;
  final boolean dir;
  int permission;
  long mtime;
  long length;
  int replication;
  long blockSize;
  boolean open;
  private ByteArrayOutputStream memory;
  private Path spill;

  CopyNode(FileStatus base, String origin) {
    this.base = base;
    this.origin = origin;
    this.dir = base.getType() == FileType.DIRECTORY;
    this.permission = base.getPermission();
    this.mtime = base.getMtime();
    this.length = base.getLength();
    this.replication = base.getReplication();
    this.blockSize = base.getBlockSize();
  }

  CopyNode(boolean dir, int permission, int replication, long blockSize, long now) {
    this.base = null;
    this.origin = null;
    this.dir = dir;
    this.permission = permission;
    this.replication = replication;
    this.blockSize = blockSize;
    this.mtime = now;
  }

  /** The status the copy answers with: what check-out read, or what the copy made, named {@code name}. */
  FileStatus status(String name, String owner, String group) {
    if (base != null) {
      return base.toBuilder().setName(name).build();
    }
    FileStatus.Builder b = FileStatus.newBuilder().setName(name).setType(dir ? FileType.DIRECTORY : FileType.FILE)
        .setPermission(permission).setOwner(owner).setGroup(group).setMtime(mtime).setAtime(mtime)
        .setUnderConstruction(open);
    if (!dir) {
      b.setLength(length).setReplication(replication).setBlockSize(blockSize);
    }
    return b.build();
  }

  /** The stream a file made in the copy is written through; closing it closes the file. */
  OutputStream writer(Path scratch) {
    open = true;
    return new OutputStream() {
      private OutputStream target;

      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        if (!open) {
          throw new IOException("Stream closed");
        }
        if (target == null) {
          memory = new ByteArrayOutputStream();
          target = memory;
        }
        if (spill == null && length + len > SPILL_BYTES) {
          Files.createDirectories(scratch);
          spill = Files.createTempFile(scratch, "copy-", ".bytes");
          target = Files.newOutputStream(spill);
          memory.writeTo(target);
          memory = null;
        }
        target.write(b, off, len);
        length += len;
      }

      @Override
      public void close() throws IOException {
        if (open) {
          open = false;
          mtime = System.currentTimeMillis();
          if (spill != null) {
            target.close();
          }
        }
      }
    };
  }

  /** The bytes written in the copy (empty for an empty file). */
  InputStream bytes() throws IOException {
    if (spill != null) {
      return Files.newInputStream(spill);
    }
    return new java.io.ByteArrayInputStream(memory == null ? new byte[0] : memory.toByteArray());
  }

  /** Drops the local bytes (the copy is merged or discarded). */
  void discard() throws IOException {
    memory = null;
    if (spill != null) {
      Files.deleteIfExists(spill);
      spill = null;
    }
  }
}
