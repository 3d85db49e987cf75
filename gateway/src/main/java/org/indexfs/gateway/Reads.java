package org.indexfs.gateway;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;
import org.indexfs.client.IndexFsClient;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.OpenResult;

/**
 * Where a file's bytes are, for HDFS clients that read them from the DataNodes. IndexFS checks the
 * read (and records the access time) as the NameNode's getBlockLocations does; an object file's
 * blocks are then the data tier's, asked as the reader; an inline file is served from its read copy
 * on the data tier ({@link InlineCopies}).
 */
final class Reads {
  /** The pool named by the placeholder blocks of inline files in located listings (no DataNode holds them). */
  static final String INLINE_POOL = "indexfs-inline";

  private final MetadataTier metadata;
  private final WriteCalls writes;
  private final InlineCopies copies;

  Reads(MetadataTier metadata, WriteCalls writes, InlineCopies copies) {
    this.metadata = metadata;
    this.writes = writes;
    this.copies = copies;
  }

  LocatedBlocks getBlockLocations(String src, long offset, long length) throws IOException {
    if (offset < 0) {
      throw new HadoopIllegalArgumentException("Negative offset is not supported. File: " + src);
    }
    if (length < 0) {
      throw new HadoopIllegalArgumentException("Negative length is not supported. File: " + src);
    }
    RpcCall call = RpcCall.current();
    OpenResult opened = NamespaceCalls.call(() -> metadata.as(call, null).open(src));
    FileStatus s = opened.getStatus();
    if (s.getDataObject().isEmpty()) {
      return copies.locations(opened.getInlineData().toByteArray(), offset, length);
    }
    DataTierNameNode tier = writes.data();
    String objectPath = tier.pathOf(s.getDataObject());
    LocatedBlocks blocks = WriteCalls.forward(objectPath, src,
        () -> tier.as(call).getBlockLocations(objectPath, offset, length));
    if (blocks == null) {
      throw new FileNotFoundException("File does not exist: " + src);
    }
    return blocks;
  }

  /**
   * Block locations of a listed file (getListing with locations, as listLocatedStatus asks): an
   * object file's from the data tier as the caller (none when the data tier refuses the caller:
   * listing needs no read access); an inline file's are one placeholder block on no host, so split
   * planners see its length without the gateway copying every small file of a listing.
   */
  LocatedBlocks locationsForListing(RpcCall call, IndexFsClient client, String path, FileStatus s) throws IOException {
    if (HdfsStatuses.isDirectory(s)) {
      return null;
    }
    if (s.getDataObject().isEmpty() || !writes.hasDataTier()) {
      return inlinePlaceholder(s);
    }
    String objectPath = writes.data().pathOf(s.getDataObject());
    try {
      LocatedBlocks blocks = writes.data().as(call).getBlockLocations(objectPath, 0, s.getLength());
      return blocks != null ? blocks : empty(s.getLength());
    } catch (RemoteException e) {
      IOException refused = e.unwrapRemoteException();
      if (refused instanceof AccessControlException || refused instanceof FileNotFoundException) {
        return empty(s.getLength());
      }
      throw DataTierErrors.of(e, objectPath, path);
    }
  }

  private static LocatedBlocks empty(long length) {
    return new LocatedBlocks(length, false, List.of(), null, false, null, null);
  }

  private static LocatedBlocks inlinePlaceholder(FileStatus s) {
    if (s.getLength() == 0) {
      return empty(0);
    }
    LocatedBlock one = new LocatedBlock(new ExtendedBlock(INLINE_POOL, 0, s.getLength(), 0), new DatanodeInfo[0]);
    return new LocatedBlocks(s.getLength(), s.getUnderConstruction(), List.of(one), one, true, null, null);
  }
}
