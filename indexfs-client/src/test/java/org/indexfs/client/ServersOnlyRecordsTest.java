package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The servers' identity as a client without ADMIN on the node sees it (ZooKeeper hides digest hashes). */
class ServersOnlyRecordsTest {
  private static final String SERVERS = "digest:indexfs:dHaSx6ko/CRomGhdqPj1KTiWbkc=";

  @Test
  void theServersDigestMatchesWhetherOrNotItsHashIsShown() {
    assertTrue(ServersOnlyRecords.matches(SERVERS, SERVERS));
    assertTrue(ServersOnlyRecords.matches(SERVERS, "digest:indexfs:x"), "as ZooKeeper 3.9 shows it to a plain client");
  }

  @Test
  void anyOtherIdentityDoesNot() {
    assertFalse(ServersOnlyRecords.matches(SERVERS, "digest:mallory:x"));
    assertFalse(ServersOnlyRecords.matches(SERVERS, "digest:indexfs:AAAAAAAAAAAAAAAAAAAAAAAAAAA="));
    assertFalse(ServersOnlyRecords.matches(SERVERS, "sasl:indexfs"));
    assertFalse(ServersOnlyRecords.matches("sasl:indexfs/host@REALM", "sasl:x"));
    assertFalse(ServersOnlyRecords.matches(SERVERS, "world:anyone"));
  }
}
