package org.indexfs.server.call;

import org.indexfs.proto.Request;

/**
 * Whether a trait holds for one call: always, never, or for some forms of a request (a storage
 * policy GET is a read, its SET a mutation). {@link #YES} and {@link #NO} are the only constant
 * answers, so a guard can tell at start-up whether an operation needs it at all.
 */
@FunctionalInterface
public interface When {
  When YES = request -> true;
  When NO = request -> false;

  boolean test(Request request);

  /** True unless this is {@link #NO}: the trait may hold for some call of the operation. */
  default boolean possible() {
    return this != NO;
  }
}
