package org.indexfs.client;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.indexfs.client.rpc.RpcConnection;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.AppendRequest;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.CompleteRequest;
import org.indexfs.proto.ConcatRequest;
import org.indexfs.proto.ContentSummary;
import org.indexfs.proto.ContentSummaryRequest;
import org.indexfs.proto.CreateRequest;
import org.indexfs.proto.DeleteRequest;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.FlushRequest;
import org.indexfs.proto.GetFileStatusRequest;
import org.indexfs.proto.ListStatusRequest;
import org.indexfs.proto.Listing;
import org.indexfs.proto.MkdirsRequest;
import org.indexfs.proto.OpenRequest;
import org.indexfs.proto.OpenResult;
import org.indexfs.proto.RecoverLeaseRequest;
import org.indexfs.proto.RenameRequest;
import org.indexfs.proto.RenewLeaseRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.ServerInfo;
import org.indexfs.proto.ServerInfoRequest;
import org.indexfs.proto.SetOwnerRequest;
import org.indexfs.proto.SetPermissionRequest;
import org.indexfs.proto.SetReplicationRequest;
import org.indexfs.proto.SetTimesRequest;
import org.indexfs.proto.TruncateRequest;
import org.indexfs.proto.WriteHandle;

/**
 * The IndexFS namespace API for one caller, usable without Hadoop. Every call carries the
 * caller's identity; errors come back as {@link IndexFsException} with the server's code.
 */
public final class IndexFsClient implements AutoCloseable {
  private final ClusterConnection cluster;
  private final Caller caller;
  private final long timeoutMs;

  public IndexFsClient(ClusterConnection cluster, Caller caller, long timeoutMs) {
    this.cluster = cluster;
    this.caller = caller;
    this.timeoutMs = timeoutMs;
  }

  public static Caller caller(String user, List<String> groups, String clientId) {
    return Caller.newBuilder().setUser(user).addAllGroups(groups).setClientId(clientId).build();
  }

  public Caller caller() {
    return caller;
  }

  public boolean mkdirs(String path, int permission) throws IOException {
    return call(Request.newBuilder().setMkdirs(MkdirsRequest.newBuilder().setPath(path).setPermission(permission)))
        .getBool().getValue();
  }

  public FileStatus create(String path, int permission, boolean overwrite, int replication, long blockSize,
      boolean createParent) throws IOException {
    return call(Request.newBuilder().setCreate(CreateRequest.newBuilder().setPath(path).setPermission(permission)
        .setOverwrite(overwrite).setReplication(replication).setBlockSize(blockSize)
        .setCreateParent(createParent))).getStatus();
  }

  public FileStatus getFileStatus(String path) throws IOException {
    return call(Request.newBuilder().setGetFileStatus(GetFileStatusRequest.newBuilder().setPath(path))).getStatus();
  }

  /** One page of a listing; pass the returned cursor back for the next page. */
  public Listing listStatus(String path, ByteString cursor, int limit) throws IOException {
    return call(Request.newBuilder().setListStatus(ListStatusRequest.newBuilder().setPath(path)
        .setCursor(cursor).setLimit(limit))).getListing();
  }

  /** Every entry of a directory (or the file itself), fetched page by page. */
  public List<FileStatus> listAll(String path) throws IOException {
    List<FileStatus> all = new ArrayList<>();
    ByteString cursor = ByteString.EMPTY;
    do {
      Listing page = listStatus(path, cursor, 0);
      all.addAll(page.getEntriesList());
      cursor = page.getCursor();
    } while (!cursor.isEmpty());
    return all;
  }

  public boolean delete(String path, boolean recursive) throws IOException {
    return call(Request.newBuilder().setDelete(DeleteRequest.newBuilder().setPath(path).setRecursive(recursive)))
        .getBool().getValue();
  }

  /** {@code FileSystem.rename} rules: false instead of most refusals. */
  public boolean rename(String src, String dst) throws IOException {
    return call(Request.newBuilder().setRename(RenameRequest.newBuilder().setSrc(src).setDst(dst)
        .setMode(RenameRequest.Mode.LEGACY))).getBool().getValue();
  }

  /** {@code FileContext.rename} rules: exact destination, refusals as exceptions. */
  public void renameExact(String src, String dst, boolean overwrite) throws IOException {
    call(Request.newBuilder().setRename(RenameRequest.newBuilder().setSrc(src).setDst(dst)
        .setMode(RenameRequest.Mode.EXACT).setOverwrite(overwrite)));
  }

  public void setPermission(String path, int permission) throws IOException {
    call(Request.newBuilder().setSetPermission(SetPermissionRequest.newBuilder().setPath(path)
        .setPermission(permission)));
  }

  /** Null or empty leaves that field unchanged. */
  public void setOwner(String path, String owner, String group) throws IOException {
    call(Request.newBuilder().setSetOwner(SetOwnerRequest.newBuilder().setPath(path)
        .setOwner(owner == null ? "" : owner).setGroup(group == null ? "" : group)));
  }

  public void setTimes(String path, long mtime, long atime) throws IOException {
    call(Request.newBuilder().setSetTimes(SetTimesRequest.newBuilder().setPath(path).setMtime(mtime).setAtime(atime)));
  }

  public boolean setReplication(String path, int replication) throws IOException {
    return call(Request.newBuilder().setSetReplication(SetReplicationRequest.newBuilder().setPath(path)
        .setReplication(replication))).getBool().getValue();
  }

  public ContentSummary contentSummary(String path) throws IOException {
    return call(Request.newBuilder().setContentSummary(ContentSummaryRequest.newBuilder().setPath(path))).getSummary();
  }

  public OpenResult open(String path) throws IOException {
    return call(Request.newBuilder().setOpen(OpenRequest.newBuilder().setPath(path))).getOpen();
  }

  /** Records a written file's length and where its bytes are (exactly one of the two forms). */
  public void complete(String path, long inodeId, long length, byte[] inlineData, String dataObject)
      throws IOException {
    CompleteRequest.Builder b = CompleteRequest.newBuilder().setPath(path).setInodeId(inodeId).setLength(length);
    if (inlineData != null) {
      b.setInlineData(ByteString.copyFrom(inlineData));
    }
    if (dataObject != null) {
      b.setDataObject(dataObject);
    }
    call(Request.newBuilder().setComplete(b));
  }

  /** Opens a closed file for appending; the caller becomes its writer. */
  public WriteHandle append(String path) throws IOException {
    return call(Request.newBuilder().setAppend(AppendRequest.newBuilder().setPath(path))).getWriteHandle();
  }

  /**
   * Records an open file's current state (hflush/hsync, or a spill): exactly one of
   * {@code inlineData} (every byte so far) and {@code dataObject}.
   */
  public void flush(String path, long inodeId, long length, byte[] inlineData, String dataObject, boolean sync)
      throws IOException {
    FlushRequest.Builder b = FlushRequest.newBuilder().setPath(path).setInodeId(inodeId).setLength(length)
        .setSync(sync);
    if (inlineData != null) {
      b.setInlineData(ByteString.copyFrom(inlineData));
    }
    if (dataObject != null) {
      b.setDataObject(dataObject);
    }
    call(Request.newBuilder().setFlush(b));
  }

  /** Keeps every write lease of this client alive. */
  public void renewLease() throws IOException {
    call(Request.newBuilder().setRenewLease(RenewLeaseRequest.getDefaultInstance()));
  }

  /** Closes a file whose writer is gone; true once it is closed. */
  public boolean recoverLease(String path) throws IOException {
    return call(Request.newBuilder().setRecoverLease(RecoverLeaseRequest.newBuilder().setPath(path)))
        .getBool().getValue();
  }

  /** True if done at once; false while the data tier settles the last block. */
  public boolean truncate(String path, long newLength) throws IOException {
    return call(Request.newBuilder().setTruncate(TruncateRequest.newBuilder().setPath(path)
        .setNewLength(newLength))).getBool().getValue();
  }

  public void concat(String target, List<String> sources) throws IOException {
    call(Request.newBuilder().setConcat(ConcatRequest.newBuilder().setTarget(target).addAllSources(sources)));
  }

  public ServerInfo serverInfo() throws IOException {
    return call(Request.newBuilder().setServerInfo(ServerInfoRequest.getDefaultInstance())).getServerInfo();
  }

  private Response call(Request.Builder request) throws IOException {
    request.setCaller(caller);
    RpcConnection conn = cluster.connection(0);
    CompletableFuture<Response> future = conn.call(request);
    Response response;
    try {
      response = future.get(timeoutMs, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      conn.abandon(request.getCallId());
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted waiting for " + request.getOpCase());
    } catch (TimeoutException e) {
      conn.abandon(request.getCallId());
      throw new IOException(request.getOpCase() + " timed out after " + timeoutMs + " ms at " + conn.address());
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw cause instanceof IOException io ? io : new IOException(cause);
    }
    if (response.getCode() != Code.OK) {
      throw new IndexFsException(response.getCode(), response.getMessage());
    }
    return response;
  }

  @Override
  public void close() {
    cluster.close();
  }
}
