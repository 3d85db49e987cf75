package org.indexfs.server.filelease;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The write lease on one open file: who may write it and where its entry is. Like HDFS's
 * {@code FileUnderConstructionFeature} + {@code LeaseManager} entry, persisted so that a restarted
 * server still refuses a second writer and can recover the file.
 *
 * @param inodeId the file
 * @param holder the writing client's id (the {@code client_id} of its requests), or
 *     {@link LeaseTable#RECOVERY_HOLDER} while the server recovers the file
 * @param parentId key of the file's entry: its directory ...
 * @param name ... and its name there (rename keeps this current)
 * @param spillObject the data object this writer may create when the file outgrows the inline
 *     limit; empty when the file already has its object
 */
public record FileLease(long inodeId, String holder, long parentId, String name, String spillObject) {
  private static final byte VERSION = 1;

  public boolean recovering() {
    return LeaseTable.RECOVERY_HOLDER.equals(holder);
  }

  public FileLease withHolder(String newHolder) {
    return new FileLease(inodeId, newHolder, parentId, name, spillObject);
  }

  public FileLease movedTo(long newParentId, String newName) {
    return new FileLease(inodeId, holder, newParentId, newName, spillObject);
  }

  public byte[] encode() {
    byte[] h = holder.getBytes(StandardCharsets.UTF_8);
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    byte[] o = spillObject.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(1 + 8 + 8 + 3 * 4 + h.length + n.length + o.length)
        .put(VERSION).putLong(inodeId).putLong(parentId)
        .putInt(h.length).put(h).putInt(n.length).put(n).putInt(o.length).put(o)
        .array();
  }

  public static FileLease decode(byte[] value) {
    ByteBuffer b = ByteBuffer.wrap(value);
    if (b.get() != VERSION) {
      throw new IllegalStateException("Unknown lease record version " + value[0]);
    }
    long inode = b.getLong();
    long parent = b.getLong();
    String holder = string(b);
    String name = string(b);
    String object = string(b);
    return new FileLease(inode, holder, parent, name, object);
  }

  private static String string(ByteBuffer b) {
    byte[] s = new byte[b.getInt()];
    b.get(s);
    return new String(s, StandardCharsets.UTF_8);
  }
}
