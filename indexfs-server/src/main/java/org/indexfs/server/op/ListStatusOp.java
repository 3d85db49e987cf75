package org.indexfs.server.op;

import java.io.IOException;
import java.util.Arrays;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.giga.GigaIndex;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.schema.Bytes;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Listing;
import org.indexfs.proto.ListStatusRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.ns.ResolvedPath;
import org.rocksdb.RocksIterator;

/**
 * {@code listStatus}, one page at a time. The cursor is the last returned key without its parent
 * prefix (hash | name), so a listing resumes exactly where it stopped even if entries were added
 * or removed in between, and a million-entry directory is never put in one message.
 */
public final class ListStatusOp implements Operation {
  private final OpContext ctx;

  public ListStatusOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public boolean mayRunOnIoThread(Request request) {
    return true;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    ListStatusRequest req = request.getListStatus();
    int limit = req.getLimit() == 0 ? ctx.listPageSize() : Math.min(req.getLimit(), ctx.listPageSize());
    Listing listing = ctx.ns().read(none -> {
      byte[] cursor = req.getCursor().toByteArray();
      long hash = cursor.length >= 8 ? java.nio.ByteBuffer.wrap(cursor).getLong() : 0;
      ResolvedPath p = ctx.resolver().resolveInto(request.getResolution(), req.getPath(), hash);
      ctx.access().checkTraverse(request.getCaller(), p);
      Inode dir = p.last();
      if (dir == null) {
        throw IndexFsException.notFound(req.getPath());
      }
      if (!dir.isDirectory()) {
        return Listing.newBuilder().setIsFile(true).addEntries(ctx.ns().toStatus(p.lastName(), dir)).build();
      }
      ctx.access().checkSelf(request.getCaller(), p, Permission.READ_EXECUTE);
      return page(dir.inodeId, cursor, limit, partitionEnd(dir));
    });
    return Response.newBuilder().setListing(listing);
  }

  /**
   * The hash just past the partition of {@code dir} held here, or null when it runs to the end of
   * the hash space. Listing walks the directory in global hash order: when this partition is
   * exhausted, the next page starts at that hash, on whichever slot holds it (DESIGN §7).
   */
  private Long partitionEnd(Inode dir) throws IOException {
    PartitionBitmap bitmap = ctx.ns().bitmap(dir.inodeId);
    if (bitmap.count() == 1) {
      return null;
    }
    int mine = ctx.partitions().myIndex(dir.zerothSlot);
    int radix = GigaIndex.splitRadix(mine, bitmap);
    long end = Long.reverse(mine) + (1L << (64 - radix));
    return end == 0 ? null : end;
  }

  private Listing page(long dirId, byte[] cursor, int limit, Long end) {
    byte[] prefix = EntryKey.prefix(dirId);
    byte[] start = Bytes.concat(prefix, cursor);
    Listing.Builder out = Listing.newBuilder();
    try (RocksIterator it = ctx.ns().store().iterator(ctx.ns().store().entries(), null)) {
      it.seek(start);
      if (cursor.length > 0 && it.isValid() && Arrays.equals(it.key(), start)) {
        it.next();
      }
      byte[] lastKey = null;
      while (it.isValid() && Bytes.startsWith(it.key(), prefix)) {
        if (out.getEntriesCount() == limit) {
          out.setCursor(com.google.protobuf.ByteString.copyFrom(lastKey, prefix.length, lastKey.length - prefix.length));
          break;
        }
        byte[] key = it.key();
        EntryKey k = EntryKey.decode(key);
        out.addEntries(ctx.ns().toStatus(k.name(), Inode.decode(it.value())));
        lastKey = key;
        it.next();
      }
      if (end != null && out.getCursor().isEmpty()) {
        // This partition is done; the listing goes on at the next one.
        out.setCursor(com.google.protobuf.ByteString.copyFrom(java.nio.ByteBuffer.allocate(8).putLong(end).array()));
      }
    }
    return out.build();
  }
}
