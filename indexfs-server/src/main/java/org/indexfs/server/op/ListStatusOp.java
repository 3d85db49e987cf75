package org.indexfs.server.op;

import com.google.protobuf.ByteString;
import java.io.IOException;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.Permission;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Listing;
import org.indexfs.proto.ListStatusRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.server.ns.ResolvedPath;
import org.indexfs.server.store.NameIndex;

/**
 * {@code listStatus}, one page of one partition at a time, in HDFS order (DESIGN §13): the names
 * after {@code start_after}, read from the name index, so a listing resumes exactly where it
 * stopped even if entries were added or removed in between, and a million-entry directory is
 * never put in one message. A split directory's partitions are listed by their own slots (the
 * request names the partition, and is redirected until it reaches it); the page carries the
 * partitions this slot knows of, and the client merges the sorted pages.
 */
public final class ListStatusOp implements Operation {
  private final OpContext ctx;

  public ListStatusOp(OpContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    ListStatusRequest req = request.getListStatus();
    // uint32 on the wire: a limit past the page (4294967295 included) is the page (issue 31).
    int limit = req.getLimit() == 0 ? ctx.listPageSize()
        : (int) Math.min(Integer.toUnsignedLong(req.getLimit()), ctx.listPageSize());
    Listing listing = ctx.ns().read(none -> {
      // The lowest hash of the partition: the walk goes on to (or redirects to) the slot holding it.
      long hash = Long.reverse(req.getPartition());
      ResolvedPath p = ctx.resolver().resolveInto(request.getResolution(), req.getPath(), hash);
      ctx.access().checkTraverse(request.getCaller(), p);
      Inode dir = p.last();
      if (dir == null) {
        // HDFS's client says this when the NameNode has no listing for the path.
        throw new IndexFsException(org.indexfs.proto.Code.FILE_NOT_FOUND, "File " + req.getPath() + " does not exist.");
      }
      if (!dir.isDirectory()) {
        return Listing.newBuilder().setIsFile(true).addEntries(ctx.ns().toStatus(p.lastName(), dir)).build();
      }
      ctx.access().checkSelf(request.getCaller(), p, Permission.READ_EXECUTE);
      NameIndex.Page page = ctx.ns().store().nameIndex().page(dir.inodeId, req.getStartAfter().toByteArray(), limit);
      Listing.Builder out = Listing.newBuilder().setHasMore(page.hasMore());
      for (NameIndex.Named e : page.entries()) {
        out.addEntries(ctx.ns().toStatus(e.name(), e.inode()));
      }
      PartitionBitmap bitmap = ctx.ns().bitmap(dir.inodeId);
      if (bitmap.count() > 1) {
        out.setPartition(ctx.partitions().myIndex(dir.zerothSlot)).setBitmap(ByteString.copyFrom(bitmap.toBytes()));
      }
      return out.build();
    });
    return Response.newBuilder().setListing(listing);
  }
}
