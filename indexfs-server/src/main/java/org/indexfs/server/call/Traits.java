package org.indexfs.server.call;

import java.util.Objects;
import org.indexfs.proto.Request.OpCase;

/**
 * Everything the server's stages need to know about one operation, decided in its one row of
 * {@link OperationTable}. A guard reads its trait here and nowhere else.
 *
 * @param mutation changes what the server stores (the namespace, a file's or a lease's record)
 * @param safeModeGuarded refused while the cluster is in safe mode, as HDFS's NameNode refuses the
 *     calls that call {@code FSNamesystem.checkNameNodeSafeMode}
 * @param gated runs only through an open snapshot gate, so a snapshot sees all or none of it
 * @param grows refused while the slot's disk is below its reserve ({@code SpaceGuard})
 * @param atMostOnce answered from the retry cache when retried ({@code @AtMostOnce} in HDFS)
 * @param quotaRetried may stop for a quota share ({@code NeedQuota}) and then runs again
 * @param serverOnly only servers may make it (with Kerberos: only a server's principal)
 * @param ioThread may run on the I/O thread that read it
 */
public record Traits(OpCase op, When mutation, When safeModeGuarded, When gated, When grows, When atMostOnce,
    When quotaRetried, When serverOnly, IoThread ioThread) {

  public Traits {
    Objects.requireNonNull(op, "op");
    Objects.requireNonNull(mutation, () -> op + ": mutation undecided");
    Objects.requireNonNull(safeModeGuarded, () -> op + ": safeModeGuarded undecided");
    Objects.requireNonNull(gated, () -> op + ": gated undecided");
    Objects.requireNonNull(grows, () -> op + ": grows undecided");
    Objects.requireNonNull(atMostOnce, () -> op + ": atMostOnce undecided");
    Objects.requireNonNull(quotaRetried, () -> op + ": quotaRetried undecided");
    Objects.requireNonNull(serverOnly, () -> op + ": serverOnly undecided");
    Objects.requireNonNull(ioThread, () -> op + ": ioThread undecided");
  }

  /** Starts the row of {@code op}: every trait must be given before {@link Row#ioThread} ends it. */
  public static Row of(OpCase op) {
    return new Row(op);
  }

  /** A row being written, trait by trait, in the order of the record. */
  public static final class Row {
    private final OpCase op;
    private When mutation;
    private When safeMode;
    private When gated;
    private When grows;
    private When atMostOnce;
    private When quotaRetried;
    private When serverOnly;

    private Row(OpCase op) {
      this.op = op;
    }

    public Row mutation(When w) {
      mutation = w;
      return this;
    }

    public Row safeMode(When w) {
      safeMode = w;
      return this;
    }

    public Row gated(When w) {
      gated = w;
      return this;
    }

    public Row grows(When w) {
      grows = w;
      return this;
    }

    public Row atMostOnce(When w) {
      atMostOnce = w;
      return this;
    }

    public Row quotaRetried(When w) {
      quotaRetried = w;
      return this;
    }

    public Row serverOnly(When w) {
      serverOnly = w;
      return this;
    }

    /** The last trait: the row is complete here, or this throws naming the trait left undecided. */
    public Traits ioThread(IoThread rule) {
      return new Traits(op, mutation, safeMode, gated, grows, atMostOnce, quotaRetried, serverOnly, rule);
    }
  }
}
