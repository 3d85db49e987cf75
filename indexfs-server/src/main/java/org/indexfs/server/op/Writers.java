package org.indexfs.server.op;

import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.schema.Inode;
import org.indexfs.common.schema.NameHash;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.Resolution;
import org.indexfs.server.filelease.FileLease;
import java.util.List;
import org.indexfs.server.ns.Mutation;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.quota.QuotaRoot;
import org.indexfs.server.quota.Usage;
import org.rocksdb.WriteBatch;

/** The single-writer rules that the write-path operations share (HDFS {@code checkLease}). */
final class Writers {
  private Writers() {}

  /** The lease holder's id: the client id every request carries. */
  static String holder(Caller caller) throws IndexFsException {
    if (caller.getClientId().isEmpty()) {
      throw new IndexFsException(Code.BAD_REQUEST, "Writing a file needs a client id in the request's caller");
    }
    return caller.getClientId();
  }

  /** A file its writer is working on: the writer's lease (which knows where the entry is) and the entry. */
  record Writing(FileLease lease, Inode file) {}

  /**
   * The caller's lease on the file its stream opened ({@code inodeId}). As in HDFS the lease
   * follows the file, not the path: a file renamed while being written is still found (the
   * lease record knows its entry); a deleted or replaced one is not.
   */
  static Writing requireLease(OpContext ctx, Mutation m, long inodeId, Caller caller, String path,
      Resolution known) throws IOException {
    FileLease lease = ctx.leases().get(inodeId);
    while (lease != null && !m.isExclusive()) {
      // Leases change under their file's directory lock (a rename holds both directories'): read it
      // again once that is held, until it stays in a directory held.
      m.lock(lease.parentId());
      FileLease again = ctx.leases().get(inodeId);
      if (again == null || again.parentId() == lease.parentId()) {
        lease = again;
        break;
      }
      lease = again;
    }
    if (lease == null) {
      // A GIGA+ split may have moved the file (and its lease) to another slot: if the path does not
      // resolve here, the resolver says where to go on; if it does, the lease is really gone.
      ctx.resolver().resolve(known, path);
    } else if (ctx.splits().isFrozen(lease.parentId(), NameHash.of(lease.name()))) {
      throw new IndexFsException(Code.STALE_RESOLUTION, path + " is moving to another slot (directory split); retry");
    }
    Inode file = lease == null ? null : ctx.ns().lookup(lease.parentId(), lease.name());
    if (lease != null && (file == null || file.inodeId != inodeId)) {
      throw new IndexFsException(Code.FILE_NOT_FOUND, "File " + path
          + " was deleted or replaced while it was being written (inode " + inodeId + ")");
    }
    if (lease == null || !file.isUnderConstruction() || !lease.holder().equals(caller.getClientId())) {
      throw new IndexFsException(Code.LEASE_EXPIRED, "No lease on " + path + " (inode " + inodeId
          + "): File is not open for writing. "
          + (lease == null ? "Holder " + caller.getClientId() + " does not have any open files."
              : "Lease holder is " + lease.holder() + ", not " + caller.getClientId() + "."));
    }
    ctx.leases().renew(lease.holder());
    noteDurability(ctx, m, known, path);
    return new Writing(lease, file);
  }

  /**
   * A writer's call finds its file by lease, not by a walk: walk the path (cached directories) to
   * learn the subtree policy its reply follows (issue 18). A path that no longer walks here (the
   * file was renamed while open) is treated as sync.
   */
  private static void noteDurability(OpContext ctx, Mutation m, Resolution known, String path) {
    org.indexfs.server.ns.ResolvedPath p;
    try {
      p = ctx.resolver().resolve(known, path);
    } catch (IOException | RuntimeException e) {
      p = null;
    }
    m.noteDurability(p);
  }

  /**
   * Counts a writer's new length against the quotas above its file: the bytes it now holds, admitted
   * as HDFS admits a block being written (its full preferred size, FSDirWriteFileOp.addBlock).
   */
  static void chargeLength(OpContext ctx, Mutation m, List<QuotaRoot> roots, Inode before, long length)
      throws IOException {
    long delta = (length - before.length) * before.replication;
    long checked = Usage.spaceWhileWriting(length, before.blockSize, before.replication) - Usage.space(before);
    ctx.quotas().charge(m, roots, 0, delta, checked);
  }

  /** Rewrites the entry of the file {@code w} is writing. */
  static void put(OpContext ctx, WriteBatch batch, Writing w, Inode updated) throws IOException {
    ctx.ns().putEntry(batch, w.lease().parentId(), w.lease().name(), updated);
  }

  /**
   * The result of a mutation whose changes must commit even though the caller gets an error
   * (HDFS commits a lease recovery, then tells the new writer to retry).
   */
  record Outcome<T>(T value, IndexFsException error) {
    static <T> Outcome<T> of(T value) {
      return new Outcome<>(value, null);
    }

    static <T> Outcome<T> failed(IndexFsException error) {
      return new Outcome<>(null, error);
    }

    T get() throws IndexFsException {
      if (error != null) {
        throw error;
      }
      return value;
    }
  }

  /** Bytes a writer sends to live inline must be the whole file and fit the inline limit. */
  /** A length from the wire (uint64): past Long.MAX_VALUE it would be negative here. */
  static void checkLength(long length) throws IndexFsException {
    if (length < 0) {
      throw IndexFsException.invalidArgument("Invalid file length " + Long.toUnsignedString(length));
    }
  }

  static void checkInlineBytes(OpContext ctx, int bytes, long length) throws IndexFsException {
    if (bytes != length) {
      throw IndexFsException.invalidArgument("Inline data of " + bytes + " bytes does not match length " + length);
    }
    if (length > ctx.inlineMaxBytes()) {
      throw IndexFsException.invalidArgument("Inline data of " + length
          + " bytes exceeds indexfs.inline.max-bytes=" + ctx.inlineMaxBytes());
    }
  }
}
