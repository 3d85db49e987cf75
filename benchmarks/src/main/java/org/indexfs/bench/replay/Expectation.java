package org.indexfs.bench.replay;

/**
 * What a replayed record should do, by what the trace and {@link PrecreatePlan} say: succeed, find
 * nothing (an audited getfileinfo or listStatus of a path that did not exist — HDFS audits those
 * as {@code allowed=true}), or be refused.
 */
public enum Expectation {
  SUCCESS,
  NOT_FOUND,
  REFUSAL;

  /** Whether a replay outcome ({@link CallRunner#OK}, {@link CallRunner#FALSE} or an exception's simple name) is this. */
  public boolean matches(Command command, String outcome) {
    return switch (this) {
      case SUCCESS -> outcome.equals(CallRunner.OK);
      case NOT_FOUND -> outcome.equals("FileNotFoundException");
      // HDFS audits a delete that found nothing as allowed=false, and the call answers false.
      case REFUSAL -> outcome.equals("AccessControlException")
          || command == Command.DELETE && outcome.equals(CallRunner.FALSE);
    };
  }

  /** The outcome in words, as differences.tsv prints it. */
  public String describe(Command command) {
    return switch (this) {
      case SUCCESS -> CallRunner.OK;
      case NOT_FOUND -> "FileNotFoundException";
      case REFUSAL -> command == Command.DELETE ? "AccessControlException or false" : "AccessControlException";
    };
  }
}
