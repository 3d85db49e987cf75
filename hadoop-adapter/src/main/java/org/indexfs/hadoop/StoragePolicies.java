package org.indexfs.hadoop;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.fs.BlockStoragePolicySpi;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;

/**
 * Storage policies as DistributedFileSystem offers them. The policies are the data tier's: where a
 * file's bytes live is an HDFS NameNode's business, so the list, the names and what each id means
 * are asked of it, and a file's policy is applied to its data object there. The namespace keeps
 * which entry has which policy (the servers' {@code StoragePolicyOp}); an entry without one takes
 * its nearest ancestor's, and with none on the way, the data tier's own for its objects (HDFS's
 * default, HOT, unless the operator chose another for the data directory). Inline files have no
 * object: they just report their policy.
 */
abstract class StoragePolicies extends NotYetSupported {
  private List<BlockStoragePolicy> policies;

  /** The data objects of this file system's cluster. */
  abstract DataObjects dataObjects();

  /** The data tier's policies; refused clearly where the data tier has none (not HDFS, or no data tier). */
  private synchronized List<BlockStoragePolicy> policies(String call) throws IOException {
    if (policies == null) {
      DataObjects objects = dataObjects();
      if (objects == null || !objects.configured()) {
        throw notYet(call, "storage policies are the data tier's, and this cluster has no indexfs.data.uri");
      }
      FileSystem data = objects.fileSystem();
      Collection<? extends BlockStoragePolicySpi> all;
      try {
        all = data.getAllStoragePolicies();
      } catch (UnsupportedOperationException e) {
        throw notYet(call, "storage policies are the data tier's, and " + data.getUri() + " has none");
      }
      List<BlockStoragePolicy> list = new ArrayList<>();
      for (BlockStoragePolicySpi p : all) {
        list.add((BlockStoragePolicy) p);
      }
      policies = list;
    }
    return policies;
  }

  @Override
  public void setStoragePolicy(Path src, String policyName) throws IOException {
    BlockStoragePolicy policy = null;
    for (BlockStoragePolicy p : policies("setStoragePolicy")) {
      if (p.getName().equalsIgnoreCase(policyName)) {
        policy = p;
      }
    }
    if (policy == null) {
      // The NameNode checks the name before the path (FSDirAttrOp.setStoragePolicy).
      throw HadoopErrors.toHadoop(new IndexFsException(Code.REMOTE_ILLEGAL_ARGUMENT,
          "Cannot find a block policy with the name " + policyName));
    }
    BlockStoragePolicy chosen = policy;
    // A policy that reached us over RPC has lost its copy-on-create flag (PBHelperClient does not
    // carry it); HDFS's only such policy is LAZY_PERSIST, the memory policy.
    boolean copyOnCreate = chosen.isCopyOnCreateFile() || chosen.getId() == HdfsConstants.MEMORY_STORAGE_POLICY_ID;
    writeVoid(() -> client().setStoragePolicy(pathOf(src), chosen.getId(), chosen.getName(), copyOnCreate,
        chosen.toString()));
  }

  @Override
  public void unsetStoragePolicy(Path src) throws IOException {
    policies("unsetStoragePolicy");
    writeVoid(() -> client().setStoragePolicy(pathOf(src), 0, null, false, null));
  }

  /** The effective policy: the entry's own, else its nearest ancestor's, else the data tier's for objects. */
  @Override
  public BlockStoragePolicySpi getStoragePolicy(Path src) throws IOException {
    List<BlockStoragePolicy> all = policies("getStoragePolicy");
    String path = pathOf(src);
    int id = read(() -> client().storagePolicyId(path, false));
    for (String at = path; id == 0 && !at.equals("/"); ) {
      at = parentOf(at);
      String ancestor = at;
      id = mapped(() -> client().storagePolicyId(ancestor, true));
    }
    if (id == 0) {
      return dataObjects().fileSystem().getStoragePolicy(dataObjects().pathOf(""));
    }
    for (BlockStoragePolicy p : all) {
      if (p.getId() == id) {
        return p;
      }
    }
    throw new IOException("Storage policy " + id + " of " + path + " is unknown to the data tier "
        + dataObjects().fileSystem().getUri());
  }

  @Override
  public Collection<? extends BlockStoragePolicySpi> getAllStoragePolicies() throws IOException {
    statistics.incrementReadOps(1);
    return new ArrayList<>(policies("getAllStoragePolicies"));
  }

  private static String parentOf(String path) {
    int slash = path.lastIndexOf('/');
    return slash <= 0 ? "/" : path.substring(0, slash);
  }
}
