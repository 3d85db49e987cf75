package org.indexfs.server.filelease;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.indexfs.server.quota.QuotaRoot;

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
 * @param quotaRoots the quota'd directories above the file when it was opened for writing (its
 *     writer's flushes and close count against them; they find the file by this lease, not a path)
 */
public record FileLease(long inodeId, String holder, long parentId, String name, String spillObject,
    List<QuotaRoot> quotaRoots) {
  private static final byte VERSION = 2;

  public FileLease(long inodeId, String holder, long parentId, String name, String spillObject) {
    this(inodeId, holder, parentId, name, spillObject, List.of());
  }

  public boolean recovering() {
    return LeaseTable.RECOVERY_HOLDER.equals(holder);
  }

  public FileLease withHolder(String newHolder) {
    return new FileLease(inodeId, newHolder, parentId, name, spillObject, quotaRoots);
  }

  public FileLease movedTo(long newParentId, String newName, List<QuotaRoot> newRoots) {
    return new FileLease(inodeId, holder, newParentId, newName, spillObject, newRoots);
  }

  public byte[] encode() {
    byte[] h = holder.getBytes(StandardCharsets.UTF_8);
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    byte[] o = spillObject.getBytes(StandardCharsets.UTF_8);
    int rootBytes = 4;
    for (QuotaRoot r : quotaRoots) {
      rootBytes += 8 + 4 + 4 + r.path().getBytes(StandardCharsets.UTF_8).length;
    }
    ByteBuffer b = ByteBuffer.allocate(1 + 8 + 8 + 3 * 4 + h.length + n.length + o.length + rootBytes)
        .put(VERSION).putLong(inodeId).putLong(parentId)
        .putInt(h.length).put(h).putInt(n.length).put(n).putInt(o.length).put(o)
        .putInt(quotaRoots.size());
    for (QuotaRoot r : quotaRoots) {
      byte[] path = r.path().getBytes(StandardCharsets.UTF_8);
      b.putLong(r.dirId()).putInt(r.home()).putInt(path.length).put(path);
    }
    return b.array();
  }

  public static FileLease decode(byte[] value) {
    ByteBuffer b = ByteBuffer.wrap(value);
    byte version = b.get();
    if (version != VERSION && version != 1) {
      throw new IllegalStateException("Unknown lease record version " + value[0]);
    }
    long inode = b.getLong();
    long parent = b.getLong();
    String holder = string(b);
    String name = string(b);
    String object = string(b);
    List<QuotaRoot> roots = new ArrayList<>();
    for (int i = version == 1 ? 0 : b.getInt(); i > 0; i--) {
      long dirId = b.getLong();
      int home = b.getInt();
      roots.add(new QuotaRoot(dirId, home, string(b)));
    }
    return new FileLease(inode, holder, parent, name, object, roots.isEmpty() ? List.of() : roots);
  }

  private static String string(ByteBuffer b) {
    byte[] s = new byte[b.getInt()];
    b.get(s);
    return new String(s, StandardCharsets.UTF_8);
  }
}
