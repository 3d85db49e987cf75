package org.indexfs.server.quota;

/**
 * Thrown from inside a mutation when a change would take this slot past its share of a quota: the
 * batch is discarded, the share is renewed at the directory's home ({@link QuotaShares#obtain}),
 * and the whole operation runs again ({@link QuotaRetry}).
 */
public final class NeedQuota extends RuntimeException {
  final QuotaRoot root;
  final long entries;
  final long space;
  final boolean oneByOne;

  NeedQuota(QuotaRoot root, long entries, long space, boolean oneByOne) {
    super(null, null, false, false);
    this.root = root;
    this.entries = entries;
    this.space = space;
    this.oneByOne = oneByOne;
  }
}
