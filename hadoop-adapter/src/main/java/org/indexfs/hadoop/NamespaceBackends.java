package org.indexfs.hadoop;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.indexfs.client.IndexFsClient;
import org.indexfs.client.bulk.LocalSubtree;
import org.indexfs.common.policy.SubtreePolicy;
import org.indexfs.hadoop.decoupled.Checkouts;
import org.indexfs.hadoop.decoupled.MergeReport;
import org.indexfs.hadoop.decoupled.PrivateCopy;

/**
 * Picks the {@link NamespaceBackend} that answers a path, in one place: a checked-out copy the
 * path lies in ({@link CheckoutBackend}), else a localized subtree it lies below ({@link
 * LocalizedBackend}), else the servers ({@link ServerBackend}). Changes first settle the localized
 * subtrees they touch — a task attempt directory's first create localizes it, a rename or delete
 * publishes or drops the subtrees at or below its path — so the choice sees where the path is now.
 * It also starts and ends the client-side backends: localize and publish, check out, merge and
 * discard (see the {@link IndexFileSystem} methods of those names).
 */
final class NamespaceBackends {
  private final MeteredFileSystem fs;
  private final IndexFsClient client;
  private final Checkouts checkouts;
  private final LocalizedPaths localized;
  private final DataObjects objects;
  private final ServerBackend server;
  private final int inlineMax;

  NamespaceBackends(MeteredFileSystem fs, IndexFsClient client, Checkouts checkouts, LocalizedPaths localized,
      DataObjects objects, ServerBackend server, int inlineMax) {
    this.fs = fs;
    this.client = client;
    this.checkouts = checkouts;
    this.localized = localized;
    this.objects = objects;
    this.server = server;
    this.inlineMax = inlineMax;
  }

  /** Who answers {@code path}: its copy, its localized subtree, or the servers. */
  NamespaceBackend at(String path) {
    PrivateCopy copy = checkouts.find(path);
    return copy != null ? checkedOut(copy) : outsideCopies(path);
  }

  /** As {@link #at}; the root of a localized subtree lists through it too (its pending entries with the server's). */
  NamespaceBackend forListing(String path) {
    PrivateCopy copy = checkouts.find(path);
    if (copy != null) {
      return checkedOut(copy);
    }
    LocalSubtree t = localized.find(path);
    t = t != null ? t : localized.bulk().at(path);
    return t != null ? localized(t) : server;
  }

  /** Who makes {@code path} (create, mkdirs): a task attempt directory's first one localizes it ({@link TaskAttemptDirs}). */
  NamespaceBackend forCreate(String path) throws IOException {
    PrivateCopy copy = checkouts.find(path);
    if (copy != null) {
      return checkedOut(copy);
    }
    if (MeteredFileSystem.mapped(() -> localized.beforeCreate(path))) {
      LocalSubtree root = localized.bulk().at(path);
      if (root != null) {
        return localized(root); // the attempt directory itself, made by localizing it
      }
    }
    return outsideCopies(path);
  }

  /**
   * Who renames {@code src} to {@code dst}: a copy either lies in (it refuses unless both do), else
   * — once the subtrees localized at or below {@code src} are published ({@link LocalizedPaths#beforeRename}) —
   * {@code src}'s localized subtree or the servers.
   */
  NamespaceBackend forRename(String src, String dst) throws IOException {
    PrivateCopy copy = checkouts.find(src);
    copy = copy != null ? copy : checkouts.find(dst);
    if (copy != null) {
      return checkedOut(copy);
    }
    MeteredFileSystem.mapped(() -> localized.beforeRename(src));
    return outsideCopies(src);
  }

  /** Who deletes {@code path}, once the subtrees localized at or below it are dropped ({@link LocalizedPaths#beforeDelete}). */
  NamespaceBackend forDelete(String path) throws IOException {
    PrivateCopy copy = checkouts.find(path);
    if (copy != null) {
      return checkedOut(copy);
    }
    MeteredFileSystem.mapped(() -> localized.beforeDelete(path, objects));
    return outsideCopies(path);
  }

  /** Refuses {@code call} of {@code path} when a copy holds it (what it leaves localized subtrees is the server's business). */
  void refuseInCopy(String path, String call) {
    checkouts.refuse(path, call);
  }

  void localize(String path, short permission, boolean shared) throws IOException {
    fs.write(() -> localized.bulk().localize(path, permission, shared));
  }

  /** Publishes localized {@code path} and gives its lease up; the refused entries as "path: reason". */
  List<String> publish(String path) throws IOException {
    org.indexfs.proto.PublishResult r = fs.write(() -> localized.bulk().publish(path, true));
    if (r.getRejectedCount() == 0) {
      localized.published(path);
    }
    List<String> out = new ArrayList<>();
    r.getRejectedList().forEach(x -> out.add(x.getPath() + ": " + x.getReason()));
    return out;
  }

  void checkout(String path) throws IOException {
    fs.read(() -> {
      checkouts.checkout(path);
      return null;
    });
    if (fs.read(() -> client.getPolicy(path)).policy().durability() == SubtreePolicy.Durability.CLIENT_JOURNAL) {
      // The copy's operations go to a journal on the data tier as they happen: if this client dies
      // before merging, another replays them (replayClientJournals), as for a localized subtree.
      localized.journal(path, ClientJournal.open(objects, path, client.caller().getClientId()));
    }
  }

  MergeReport merge(String path) throws IOException {
    MergeReport report = fs.write(() -> checkouts.merge(path));
    localized.published(path); // merged: its journal (client-journal) is no longer needed
    return report;
  }

  long discard(String path) throws IOException {
    long n = checkouts.discard(path);
    localized.published(path); // dropped on purpose: nothing to replay
    return n;
  }

  /** The localized subtree {@code path} lies below, else the servers. */
  private NamespaceBackend outsideCopies(String path) {
    LocalSubtree t = localized.find(path);
    return t != null ? localized(t) : server;
  }

  private NamespaceBackend localized(LocalSubtree t) {
    return new LocalizedBackend(t, fs, localized, objects, server, inlineMax);
  }

  private NamespaceBackend checkedOut(PrivateCopy copy) {
    return new CheckoutBackend(copy, fs, localized, this::outsideCopies);
  }
}
