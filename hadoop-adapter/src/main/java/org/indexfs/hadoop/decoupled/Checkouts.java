package org.indexfs.hadoop.decoupled;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.indexfs.client.DirectoryListing;
import org.indexfs.client.IndexFsClient;
import org.indexfs.common.policy.PolicyAt;
import org.indexfs.common.policy.SubtreePolicy;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.FileType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One FileSystem's checked-out subtrees (consistency {@code decoupled}, issue 18; Cudele): a
 * check-out reads the subtree once, consistently, into a {@link PrivateCopy}; every call on a path
 * inside is answered by the copy with no RPC and no lease until {@link #merge}. A copy not merged
 * is dropped when the FileSystem closes (or the process dies): nothing of it reaches the server.
 */
public final class Checkouts implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Checkouts.class);

  private final Origin fs;
  private final Path scratch;
  private final Map<String, PrivateCopy> copies = new ConcurrentHashMap<>();
  /** Read without a lock on every call of the FileSystem: most have no copy at all. */
  private volatile boolean any;

  public Checkouts(Origin fs, Path scratch) {
    this.fs = fs;
    this.scratch = scratch;
  }

  /**
   * Checks directory {@code root} out: it must lie in a subtree whose policy is {@code decoupled}.
   * The read runs under a SHARED_LOCALIZE grant (other clients' changes inside wait for the few
   * listings it takes), so the copy is the subtree as of one moment.
   */
  public void checkout(String root) throws IOException {
    if (copies.containsKey(root)) {
      throw new IOException(root + " is checked out already by this client: merge it first");
    }
    for (String held : copies.keySet()) {
      if (root.startsWith(held + "/") || held.startsWith(root + "/")) {
        throw new IOException(root + " overlaps " + held + ", which this client has checked out");
      }
    }
    IndexFsClient client = fs.client();
    PolicyAt at = client.getPolicy(root);
    if (at.policy().consistency() != SubtreePolicy.Consistency.DECOUPLED) {
      throw new UnsupportedOperationException("Cannot check out " + root + ": its consistency is "
          + SubtreePolicy.nameOf(at.policy().consistency()) + ", not decoupled (bin/indexfs admin -setPolicy "
          + root + " --consistency decoupled)");
    }
    boolean granted = true;
    try {
      client.localize(root, true, 0);
    } catch (org.indexfs.common.IndexFsException e) {
      if (e.code() != org.indexfs.proto.Code.UNSUPPORTED) {
        throw e;
      }
      // A server that cannot localize it (before split directories could be): read it without the
      // grant, directory by directory.
      granted = false;
      LOG.info("Checking out {} without a grant: {}", root, e.getMessage());
    }
    PrivateCopy copy;
    try {
      FileStatus rootStatus = client.getFileStatus(root);
      copy = new PrivateCopy(root, rootStatus, client.caller().getUser(),
          scratch.resolve(client.caller().getClientId() + "-" + Integer.toHexString(root.hashCode())));
      Deque<String> dirs = new ArrayDeque<>(List.of(root));
      while (!dirs.isEmpty()) {
        String dir = dirs.poll();
        DirectoryListing listing = client.list(dir);
        while (listing.hasNext()) {
          FileStatus s = listing.next();
          String path = (dir.equals("/") ? "" : dir) + "/" + s.getName();
          copy.checkedOut(path, s);
          if (s.getType() == FileType.DIRECTORY) {
            dirs.add(path);
          }
        }
      }
    } finally {
      if (granted) {
        client.releaseLocalization(root);
      }
    }
    copies.put(root, copy);
    any = true;
  }

  /** The copy {@code path} lies in (or is the root of), or null: the server answers. */
  public PrivateCopy find(String path) {
    if (!any) {
      return null;
    }
    for (PrivateCopy c : copies.values()) {
      if (c.covers(path)) {
        return c;
      }
    }
    return null;
  }

  /** Refuses a call a copy does not answer ({@code call} of {@code path}) when {@code path} is in one. */
  public void refuse(String path, String call) {
    PrivateCopy c = find(path);
    if (c != null) {
      throw c.refusal(path, call);
    }
  }

  /** Merges the copy of {@code root} back ({@link Merge}) and forgets it. */
  public MergeReport merge(String root) throws IOException {
    PrivateCopy copy = take(root);
    try {
      return new Merge(fs, copy).run(copy.checkedOutRoot());
    } finally {
      copy.discard();
    }
  }

  /** Drops the copy of {@code root} without merging; returns how many changes it held. */
  public long discard(String root) throws IOException {
    PrivateCopy copy = take(root);
    copy.discard();
    return copy.changeCount();
  }

  private PrivateCopy take(String root) throws IOException {
    PrivateCopy copy = copies.remove(root);
    any = !copies.isEmpty();
    if (copy == null) {
      throw new IOException(root + " is not checked out by this client");
    }
    return copy;
  }

  /** The FileSystem closes: copies not merged are dropped (the merge is explicit), each logged. */
  @Override
  public void close() {
    for (String root : List.copyOf(copies.keySet())) {
      try {
        long n = discard(root);
        if (n > 0) {
          LOG.warn("The checked-out copy of {} was not merged: its {} changes are dropped", root, n);
        }
      } catch (IOException e) {
        LOG.warn("Could not drop the local bytes of the copy of {}: {}", root, e.toString());
      }
    }
  }
}
