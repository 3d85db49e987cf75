package org.indexfs.server.quota;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.indexfs.proto.QuotaGrant;
import org.indexfs.proto.QuotaRequest;
import org.indexfs.proto.Request;
import org.indexfs.server.ns.Mutation;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.peer.Peers;

/**
 * This slot's shares of the quotas of directories whose subtrees it holds entries of (DESIGN §7).
 * A quota'd subtree can span slots, so each slot counts what its own changes add under the
 * directory ({@link Counters}, in the change's own batch) and admits a change without asking
 * anyone while its count stays within the cap the directory's home granted it ({@link QuotaHome}).
 * The home never grants caps that add up to more than the quota, so the sum over slots, which is
 * the directory's usage, never passes it: no overshoot, and no remote call per create — only when
 * a slot's share runs out (near the limit, a call per change, as exact enforcement requires).
 *
 * <p>Admissions, recalls and renewals of one directory's share serialize on that directory's
 * lock in this slot's namespace, so a recall never misses a change that was admitted but not yet
 * written. Directories without a quota cost nothing: no lookup, no lock, no read.
 */
public final class QuotaShares {
  /** A share with no cap in a dimension that has no quota. */
  static final long UNLIMITED = Long.MAX_VALUE / 4;

  private static final class Share {
    long entries;
    long space;
    long entriesCap;
    long spaceCap;
    long seq;
  }

  private final Namespace ns;
  private final Peers peers;
  private final Counters counters;
  private final Map<Long, Share> shares = new ConcurrentHashMap<>();
  private volatile QuotaHome home;

  public QuotaShares(Namespace ns, Peers peers) {
    this.ns = ns;
    this.peers = peers;
    this.counters = new Counters(ns.store());
  }

  void useHome(QuotaHome home) {
    this.home = home;
  }

  Counters counters() {
    return counters;
  }

  /**
   * Inside a mutation: counts {@code entries} names and {@code space} bytes against every quota
   * of {@code roots} (deepest first). Throws {@link NeedQuota} when an increase would pass this
   * slot's share of one of them.
   */
  public void charge(Mutation m, List<QuotaRoot> roots, long entries, long space) throws IOException {
    charge(m, roots, entries, space, space);
  }

  /**
   * As {@link #charge(Mutation, List, long, long)}, admitting the space change as if it were
   * {@code spaceChecked} (a file being written is checked at whole blocks, as HDFS checks it).
   */
  public void charge(Mutation m, List<QuotaRoot> roots, long entries, long space, long spaceChecked)
      throws IOException {
    charge(m, roots, entries, space, spaceChecked, false);
  }

  /**
   * Counts {@code entries} new names made one after the other (mkdir -p, a create making its
   * parents): HDFS checks each, so a refusal names the first one past the quota.
   */
  public void chargeOneByOne(Mutation m, List<QuotaRoot> roots, long entries) throws IOException {
    charge(m, roots, entries, 0, 0, true);
  }

  private void charge(Mutation m, List<QuotaRoot> roots, long entries, long space, long spaceChecked,
      boolean oneByOne) throws IOException {
    if (roots.isEmpty() || (entries == 0 && space == 0 && spaceChecked <= 0)) {
      return;
    }
    for (QuotaRoot r : roots) {
      m.lock(r.dirId());
    }
    long wantEntries = Math.max(0, entries);
    long wantSpace = Math.max(0, Math.max(space, spaceChecked));
    if (wantEntries > 0 || wantSpace > 0) {
      for (QuotaRoot r : roots) {
        Share s = shares.get(r.dirId());
        if (s == null || (wantEntries > 0 && s.entries + wantEntries > s.entriesCap)
            || (wantSpace > 0 && s.space + wantSpace > s.spaceCap)) {
          throw new NeedQuota(r, wantEntries, wantSpace, oneByOne);
        }
      }
    }
    if (entries == 0 && space == 0) {
      return;
    }
    for (QuotaRoot r : roots) {
      counters.add(m.batch(), r.dirId(), entries, space);
      Share s = shares.get(r.dirId());
      if (s != null) {
        ns.afterWrite(() -> {
          s.entries += entries;
          s.space += space;
        });
      }
    }
  }

  /**
   * Inside a mutation running alone ({@code Namespace.mutate}): counts {@code entries} names and
   * {@code space} bytes against every quota of {@code roots} without admission — decreases, and the
   * space a concat of files with other replications moves (which HDFS does not check either).
   */
  public void credit(org.rocksdb.WriteBatch batch, List<QuotaRoot> roots, long entries, long space) throws IOException {
    if (entries == 0 && space == 0) {
      return;
    }
    for (QuotaRoot r : roots) {
      counters.add(batch, r.dirId(), entries, space);
      Share s = shares.get(r.dirId());
      if (s != null) {
        ns.afterWrite(() -> {
          s.entries += entries;
          s.space += space;
        });
      }
    }
  }

  /** This slot's share of {@code dirId}, loaded from its counters under the directory's lock. */
  private Share loaded(Mutation m, long dirId) throws IOException {
    m.lock(dirId);
    Share s = shares.get(dirId);
    if (s == null) {
      s = new Share();
      long[] c = counters.read(dirId);
      s.entries = c[0];
      s.space = c[1];
      s.entriesCap = s.entries;
      s.spaceCap = s.space;
      shares.put(dirId, s);
    }
    return s;
  }

  /**
   * Renews this slot's share of {@code need}'s directory at its home so the change can go on, or
   * throws the quota's refusal (NS_QUOTA_EXCEEDED or DS_QUOTA_EXCEEDED, in HDFS's words).
   * Outside any mutation; may call the home.
   */
  void obtain(NeedQuota need) throws IOException {
    QuotaRoot r = need.root;
    long[] used = ns.mutateLocked(m -> {
      Share s = loaded(m, r.dirId());
      return new long[] {s.entries, s.space};
    });
    QuotaRequest.Builder ask = QuotaRequest.newBuilder().setAction(QuotaRequest.Action.GRANT).setDirId(r.dirId())
        .setPath(r.path()).setSlot(ns.slot()).setNsUsed(used[0]).setDsUsed(used[1])
        .setNsWant(need.entries).setDsWant(need.space).setOneByOne(need.oneByOne);
    QuotaGrant grant = r.home() == ns.slot() ? home.grant(ask.build()) : askHome(r.home(), ask);
    ns.mutateLocked(m -> {
      Share s = loaded(m, r.dirId());
      if (grant.getSeq() > s.seq) {
        s.entriesCap = grant.getNsCap();
        s.spaceCap = grant.getDsCap();
        s.seq = grant.getSeq();
      }
      return null;
    });
  }

  /** The home's answer; its refusal is the caller's, in the home's words (no "slot k:" in front). */
  private QuotaGrant askHome(int home, QuotaRequest.Builder ask) throws IOException {
    org.indexfs.proto.Response answer = peers.send(home, Request.newBuilder().setQuota(ask));
    if (answer.getCode() == org.indexfs.proto.Code.NS_QUOTA_EXCEEDED
        || answer.getCode() == org.indexfs.proto.Code.DS_QUOTA_EXCEEDED) {
      throw new org.indexfs.common.IndexFsException(answer.getCode(), answer.getMessage());
    }
    if (answer.getCode() != org.indexfs.proto.Code.OK) {
      throw new org.indexfs.common.IndexFsException(answer.getCode(), "slot " + home + ": " + answer.getMessage());
    }
    return answer.getQuotaGrant();
  }

  /** The home takes back this slot's headroom: the cap becomes the usage; answers the usage. */
  QuotaGrant recall(long dirId, long seq) throws IOException {
    return ns.mutateLocked(m -> {
      Share s = loaded(m, dirId);
      if (seq > s.seq) {
        s.entriesCap = s.entries;
        s.spaceCap = s.space;
        s.seq = seq;
      }
      return QuotaGrant.newBuilder().setNsUsed(s.entries).setDsUsed(s.space).setSeq(s.seq).build();
    });
  }

  /** The quota of {@code dirId} is gone or starts over: this slot's counts and share of it go. */
  void forget(long dirId) throws IOException {
    ns.mutate(batch -> {
      counters.forget(batch, dirId);
      return null;
    });
    ns.mutateLocked(m -> {
      m.lock(dirId);
      shares.remove(dirId);
      return null;
    });
  }
}
