package org.indexfs.gateway;

import java.io.IOException;
import java.util.EnumSet;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.RemoteException;
import org.indexfs.client.IndexFsClient;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.WriteHandle;

/**
 * HDFS append through the gateway: the caller becomes the file's writer in IndexFS, then the
 * data tier opens the file's object for it. A file whose bytes are inline in IndexFS first becomes
 * an object file (its bytes written to the object IndexFS reserved for this writer, and the object
 * recorded), exactly as an indexfs:// writer spills it when it outgrows the inline limit, since an
 * HDFS client appends to the last block of a file on the DataNodes.
 */
final class Appends {
  private static final FsPermission OBJECT_PERMISSION = new FsPermission((short) 0600);

  private final MetadataTier metadata;
  private final WriteCalls writes;
  private final OpenFiles open;

  Appends(MetadataTier metadata, WriteCalls writes, OpenFiles open) {
    this.metadata = metadata;
    this.writes = writes;
    this.open = open;
  }

  LastBlockWithStatus append(String src, String clientName, EnumSetWritable<CreateFlag> flag) throws IOException {
    DataTierNameNode tier = writes.data();
    RpcCall call = RpcCall.current();
    IndexFsClient client = metadata.as(call, clientName);
    WriteHandle handle = NamespaceCalls.call(() -> client.append(src));
    FileStatus status = handle.getStatus();
    String object = status.getDataObject();
    try {
      if (object.isEmpty()) {
        object = spill(tier, client, src, handle);
      }
      String objectPath = tier.pathOf(object);
      ClientProtocol nn = tier.as(call);
      LastBlockWithStatus appended = WriteCalls.forward(objectPath, src, () -> nn.append(objectPath, clientName,
          flag == null ? new EnumSetWritable<>(EnumSet.of(CreateFlag.APPEND)) : flag));
      open.remember(new OpenFiles.Open(src, status.getInodeId(), object));
      FileStatus now = status.toBuilder().setDataObject(object).build();
      return new LastBlockWithStatus(appended.getLastBlock(), HdfsStatuses.of(now, HdfsStatuses.NO_NAME));
    } catch (IOException | RuntimeException e) {
      // The caller could not start writing: the file is closed again as it was.
      giveBack(client, src, status, handle, object, e);
      throw e;
    }
  }

  /** The inline file's bytes into the object IndexFS reserved for this writer, then recorded there. */
  private String spill(DataTierNameNode tier, IndexFsClient client, String src, WriteHandle handle)
      throws IOException {
    String object = handle.getSpillObject();
    if (object.isEmpty()) {
      throw new java.io.IOException("IndexFS reserved no data object for appending to " + src);
    }
    FileStatus status = handle.getStatus();
    Path path = new Path(tier.uri().toString() + tier.pathOf(object));
    try (FSDataOutputStream out = tier.fileSystem().create(path, OBJECT_PERMISSION, false, 4096,
        (short) status.getReplication(), status.getBlockSize(), null)) {
      out.write(handle.getInlineData().toByteArray());
    } catch (RemoteException e) {
      throw DataTierErrors.of(e, tier.pathOf(object), src);
    }
    NamespaceCalls.run(() -> client.flush(src, status.getInodeId(), status.getLength(), null, object, false));
    return object;
  }

  private static void giveBack(IndexFsClient client, String src, FileStatus status, WriteHandle handle,
      String object, Exception failure) {
    try {
      if (object.isEmpty()) {
        client.complete(src, status.getInodeId(), status.getLength(), handle.getInlineData().toByteArray(), null);
      } else {
        client.complete(src, status.getInodeId(), status.getLength(), null, object);
      }
    } catch (IOException closeFailure) {
      failure.addSuppressed(closeFailure);
    }
  }
}
