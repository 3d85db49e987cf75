package org.indexfs.bench.replay;

/**
 * A replayed record whose outcome differs from its {@link Expectation}.
 *
 * @param copy     which repetition of the trace (1 for the first; later ones run below their own prefix)
 * @param ordinal  the record's place in the replay segment that ran it
 * @param outcome  what the call did: "ok", "false" or an exception's simple name
 * @param message  the exception's first line, or ""
 * @param note     what the pre-create plan knows about the record (an unreproducible refusal ...), or null
 */
public record Difference(int copy, int ordinal, AuditEvent event, Expectation expected, String outcome, String message,
    String note) {}
