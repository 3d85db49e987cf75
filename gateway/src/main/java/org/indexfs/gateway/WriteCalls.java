package org.indexfs.gateway;

import java.io.IOException;
import java.util.EnumSet;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.RemoteException;
import org.indexfs.client.IndexFsClient;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.FileStatus;

/**
 * Writing a file through the gateway: its entry is IndexFS's (create, the single-writer lease, the
 * final length), its bytes are a data object on the data tier from the first block, written by the
 * client to the DataNodes with the blocks and block tokens the data tier's NameNode hands out.
 * The object is made at the first addBlock, not at create, so a file closed before its first block
 * (an mdtest file, a job's {@code _SUCCESS}, a marker) costs IndexFS's create and complete and
 * nothing on the data tier's NameNode: it is an empty inline file. The HDFS client name is the
 * lease holder on both tiers, so IndexFS and the data tier agree on who writes; every block call
 * is forwarded, as the end user, for the file's object.
 */
final class WriteCalls {
  /** The object belongs to its writer until IndexFS records it and gives it its file's owner and mode. */
  private static final FsPermission OBJECT_PERMISSION = new FsPermission((short) 0600);

  private final MetadataTier metadata;
  private final DataTierNameNode data;
  private final OpenFiles open;

  WriteCalls(MetadataTier metadata, DataTierNameNode data, OpenFiles open) {
    this.metadata = metadata;
    this.data = data;
    this.open = open;
  }

  boolean hasDataTier() {
    return data != null;
  }

  DataTierNameNode data() {
    if (data == null) {
      throw new UnsupportedOperationException("This IndexFS cluster keeps its data objects outside HDFS ("
          + metadata.info().getDataUri() + "): the IndexFS gateway serves block calls only for an HDFS data tier");
    }
    return data;
  }

  /**
   * The entry in IndexFS only. What its object is made with at the first block (the name IndexFS
   * reserved for this writer, replication, block size, storage policy, crypto versions) is kept in
   * {@link OpenFiles}; a gateway that did not take the create learns the name from IndexFS. A retry
   * of the call (through this gateway or another) gets the entry from IndexFS's retry cache.
   */
  HdfsFileStatus create(String src, FsPermission masked, String clientName, EnumSetWritable<CreateFlag> flag,
      boolean createParent, short replication, long blockSize, CryptoProtocolVersion[] supportedVersions,
      String ecPolicyName, String storagePolicy) throws IOException {
    if (ecPolicyName != null && !ecPolicyName.isEmpty() && !"replication".equalsIgnoreCase(ecPolicyName)) {
      throw new UnsupportedOperationException("IndexFS keeps files replicated: erasure coding policy "
          + ecPolicyName + " cannot be used for " + src);
    }
    PathChecks.validFileName(src);
    data(); // refused before the entry is made when no HDFS data tier can hold the file's blocks
    RpcCall call = RpcCall.current();
    IndexFsClient client = metadata.as(call, clientName);
    EnumSet<CreateFlag> flags = flag.get();
    Integer unmasked = masked.getUnmasked() == null ? null : (int) masked.getUnmasked().toShort();
    FileStatus created = NamespaceCalls.call(() -> client.create(src, masked.toShort(), unmasked,
        flags.contains(CreateFlag.OVERWRITE), replication, blockSize, createParent));
    String policy = storagePolicy != null && !storagePolicy.isEmpty() ? storagePolicy
        : created.getSpillPolicy().isEmpty() ? null : created.getSpillPolicy();
    open.remember(new OpenFiles.Open(src, created.getInodeId(), created.getSpillObject(), false, clientName,
        replication, blockSize, policy, supportedVersions));
    return HdfsStatuses.of(created, HdfsStatuses.NO_NAME);
  }

  /**
   * The first block's object: made on the data tier (open for the client, 0600, empty), then
   * recorded in the entry, which gives it the file's owner and mode. A retry whose first try (here
   * or at a gateway that died) made the object reuses it; one whose first try also recorded it finds
   * the entry with its object ({@link OpenFiles#find}) and does not come here.
   */
  private OpenFiles.Open makeObject(RpcCall call, IndexFsClient client, OpenFiles.Open file, String src)
      throws IOException {
    String objectPath = data().pathOf(file.object());
    ClientProtocol nn = data().as(call);
    try {
      nn.create(objectPath, OBJECT_PERMISSION, file.holder(), new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)),
          true, file.replication(), file.blockSize(), file.cryptoVersions(), null, file.storagePolicy());
    } catch (RemoteException e) {
      IOException refused = e.unwrapRemoteException();
      if (!(refused instanceof AlreadyBeingCreatedException || refused instanceof FileAlreadyExistsException)) {
        throw DataTierErrors.of(e, objectPath, src);
      }
      OpenFiles.Open now = open.fresh(client, src, file.inodeId(), file.holder());
      if (now.hasObject()) {
        return now; // made and recorded through another gateway meanwhile
      }
      if (!madeBefore(nn, objectPath)) {
        throw DataTierErrors.of(e, objectPath, src);
      }
    }
    NamespaceCalls.run(() -> client.flush(file.path(), file.inodeId(), 0, null, file.object(), false));
    OpenFiles.Open made = file.withObject();
    open.remember(made);
    return made;
  }

  /** A retried create finds the object its first try made: empty, still being written. */
  private static boolean madeBefore(ClientProtocol nn, String objectPath) throws IOException {
    HdfsFileStatus s = nn.getFileInfo(objectPath);
    return s != null && s.getLen() == 0;
  }

  /**
   * A new block for the file's object. IndexFS then records the length so far (the new block's
   * offset), which charges the new block against the quotas above the file as the NameNode's
   * addBlock does; a refusal gives the block back to the data tier.
   */
  LocatedBlock addBlock(String src, String clientName, ExtendedBlock previous, DatanodeInfo[] excludeNodes,
      long fileId, String[] favoredNodes, EnumSet<AddBlockFlag> addBlockFlags) throws IOException {
    RpcCall call = RpcCall.current();
    IndexFsClient client = metadata.as(call, clientName);
    OpenFiles.Open file = open.find(client, src, fileId, clientName);
    if (!file.hasObject()) {
      file = makeObject(call, client, file, src);
    }
    String objectPath = data().pathOf(file.object());
    ClientProtocol nn = data().as(call);
    LocatedBlock block;
    try {
      block = nn.addBlock(objectPath, clientName, previous, excludeNodes, 0, favoredNodes, addBlockFlags);
    } catch (RemoteException e) {
      throw DataTierErrors.of(e, objectPath, src);
    }
    if (block.getStartOffset() == 0) {
      return block; // the first block: nothing to charge (the entry's length stays 0, as recorded)
    }
    try {
      client.flush(file.path(), file.inodeId(), block.getStartOffset(), null, file.object(), false);
    } catch (IOException refused) {
      try {
        nn.abandonBlock(block.getBlock(), 0, objectPath, clientName);
      } catch (IOException e) {
        refused.addSuppressed(e);
      }
      throw NameNodeErrors.of(refused);
    }
    return block;
  }

  /**
   * Closes the object on the data tier (false while its last block is not yet minimally
   * replicated: the client asks again), then the entry with the object's final length.
   */
  boolean complete(String src, String clientName, ExtendedBlock last, long fileId) throws IOException {
    RpcCall call = RpcCall.current();
    IndexFsClient client = metadata.as(call, clientName);
    OpenFiles.Open file;
    try {
      file = open.find(client, src, fileId, clientName);
    } catch (org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException closed) {
      // A retry of a complete that closed the file (through a gateway that then died): done.
      // A file closed before its first block has no object: HDFS answers such a retry with no last block "true".
      FileStatus s = NamespaceCalls.statusOrNull(client, src);
      if (s != null && !s.getUnderConstruction() && (fileId == 0 || s.getInodeId() == fileId)
          && (!s.getDataObject().isEmpty() || last == null && s.getLength() == 0)) {
        return true;
      }
      throw closed;
    }
    if (!file.hasObject()) {
      Boolean closed = completeEmpty(client, file, last);
      if (closed != null) {
        return closed;
      }
      file = open.find(client, src, fileId, clientName);
    }
    String objectPath = data().pathOf(file.object());
    ClientProtocol nn = data().as(call);
    long length;
    try {
      if (!nn.complete(objectPath, clientName, last, 0)) {
        return false;
      }
      HdfsFileStatus object = nn.getFileInfo(objectPath);
      length = object == null ? 0 : object.getLen();
    } catch (RemoteException e) {
      throw DataTierErrors.of(e, objectPath, src);
    }
    try {
      client.complete(file.path(), file.inodeId(), length, null, file.object());
    } catch (IndexFsException e) {
      // A retry whose first try closed the entry (and whose answer was lost with its gateway).
      if (!closedAsAsked(client, file, length)) {
        throw NameNodeErrors.of(e);
      }
    } catch (IOException e) {
      throw NameNodeErrors.of(e);
    }
    open.forget(file.inodeId());
    return true;
  }

  /**
   * A file that never got a block: an empty inline file, closed in IndexFS alone. Null when the
   * file got its object through another gateway meanwhile (then it is closed as an object file).
   */
  private Boolean completeEmpty(IndexFsClient client, OpenFiles.Open file, ExtendedBlock last) throws IOException {
    try {
      if (last != null) {
        // A block this gateway did not see made: only another gateway's addBlock can have.
        throw new IndexFsException(org.indexfs.proto.Code.INVALID_ARGUMENT, "no block recorded");
      }
      client.complete(file.path(), file.inodeId(), 0, null, null);
    } catch (IndexFsException e) {
      open.forget(file.inodeId());
      FileStatus s = NamespaceCalls.statusOrNull(client, file.path());
      if (s != null && s.getInodeId() == file.inodeId() && !s.getDataObject().isEmpty()) {
        return null;
      }
      boolean closedBefore = s != null && s.getInodeId() == file.inodeId() && !s.getUnderConstruction()
          && last == null && s.getLength() == 0;
      if (closedBefore) {
        return true;
      }
      if (last != null) {
        // HDFS refuses to commit a block its file does not have.
        throw new IOException("Cannot complete " + file.path() + " (inode " + file.inodeId() + ") with block "
            + last + ": the file has no blocks");
      }
      throw NameNodeErrors.of(e);
    } catch (IOException e) {
      throw NameNodeErrors.of(e);
    }
    open.forget(file.inodeId());
    return true;
  }

  private static boolean closedAsAsked(IndexFsClient client, OpenFiles.Open file, long length) throws IOException {
    FileStatus s = NamespaceCalls.statusOrNull(client, file.path());
    return s != null && s.getInodeId() == file.inodeId() && !s.getUnderConstruction()
        && file.object().equals(s.getDataObject()) && s.getLength() == length;
  }

  void abandonBlock(ExtendedBlock b, long fileId, String src, String holder) throws IOException {
    RpcCall call = RpcCall.current();
    OpenFiles.Open file = open.find(metadata.as(call, holder), src, fileId, holder);
    if (!file.hasObject()) {
      return; // no block to give back: HDFS answers an abandon of a block its file lacks with success
    }
    String objectPath = data().pathOf(file.object());
    forward(objectPath, src, () -> {
      data().as(call).abandonBlock(b, 0, objectPath, holder);
      return null;
    });
  }

  LocatedBlock getAdditionalDatanode(String src, long fileId, ExtendedBlock blk, DatanodeInfo[] existings,
      String[] existingStorageIDs, DatanodeInfo[] excludes, int numAdditionalNodes, String clientName)
      throws IOException {
    RpcCall call = RpcCall.current();
    IndexFsClient client = metadata.as(call, clientName);
    OpenFiles.Open file = open.find(client, src, fileId, clientName);
    if (!file.hasObject()) {
      file = makeObject(call, client, file, src); // the data tier chooses DataNodes for its object's writer
    }
    String objectPath = data().pathOf(file.object());
    return forward(objectPath, src, () -> data().as(call).getAdditionalDatanode(objectPath, 0, blk, existings,
        existingStorageIDs, excludes, numAdditionalNodes, clientName));
  }

  /**
   * hflush/hsync: the data tier records the last block's length, and IndexFS the file's length as the
   * data tier now reports it, so readers of the entry see what a NameNode's readers would.
   */
  void fsync(String src, long fileId, String clientName, long lastBlockLength) throws IOException {
    RpcCall call = RpcCall.current();
    IndexFsClient client = metadata.as(call, clientName);
    OpenFiles.Open file = open.find(client, src, fileId, clientName);
    if (!file.hasObject()) {
      // Nothing written yet: IndexFS records the length (0) and checks the writer's lease.
      try {
        client.flush(file.path(), file.inodeId(), 0, new byte[0], null, false);
        return;
      } catch (IndexFsException e) {
        file = open.fresh(client, src, fileId, clientName);
        if (!file.hasObject()) {
          throw NameNodeErrors.of(e);
        }
      } catch (IOException e) {
        throw NameNodeErrors.of(e);
      }
    }
    OpenFiles.Open written = file;
    String objectPath = data().pathOf(file.object());
    ClientProtocol nn = data().as(call);
    HdfsFileStatus object = forward(objectPath, src, () -> {
      nn.fsync(objectPath, 0, clientName, lastBlockLength);
      return nn.getFileInfo(objectPath);
    });
    if (object != null) {
      NamespaceCalls.run(() -> client.flush(written.path(), written.inodeId(), object.getLen(), null, written.object(),
          false));
    }
  }

  interface Forwarded<T> {
    T run() throws IOException;
  }

  /** A call to the data tier about {@code objectPath}; its refusals name {@code src}. */
  static <T> T forward(String objectPath, String src, Forwarded<T> f) throws IOException {
    try {
      return f.run();
    } catch (RemoteException e) {
      throw DataTierErrors.of(e, objectPath, src);
    }
  }
}
