package org.indexfs.common.schema;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class InodeTest {
  private static Inode sample() {
    Inode i = new Inode();
    i.type = Inode.TYPE_FILE;
    i.flags = Inode.FLAG_UNDER_CONSTRUCTION;
    i.permission = 01755;
    i.replication = 3;
    i.ownerId = 70000;
    i.groupId = 2;
    i.inodeId = 0x0003_0000_0000_1234L;
    i.length = 5_000_000_000L;
    i.mtime = 1_700_000_000_123L;
    i.atime = 1_700_000_000_456L;
    i.blockSize = 128L << 20;
    i.zerothSlot = 65535;
    return i;
  }

  @Test
  void attributesAreFixedWidthAndRoundTrip() {
    Inode i = sample();
    byte[] v = i.encode();
    assertEquals(Inode.HEADER_BYTES, v.length, "no tail: the value is exactly the fixed header");
    Inode back = Inode.decode(v);
    assertEquals(i.type, back.type);
    assertTrue(back.isUnderConstruction());
    assertEquals(01755, back.permission);
    assertEquals(3, back.replication);
    assertEquals(70000, back.ownerId);
    assertEquals(2, back.groupId);
    assertEquals(i.inodeId, back.inodeId);
    assertEquals(5_000_000_000L, back.length);
    assertEquals(i.mtime, back.mtime);
    assertEquals(i.atime, back.atime);
    assertEquals(i.blockSize, back.blockSize);
    assertEquals(65535, back.zerothSlot);
    assertNull(back.inlineData);
    assertNull(back.dataObject);
  }

  @Test
  void inlineBytesAndDataObjectNamesLiveInTheTail() {
    Inode i = sample();
    i.inlineData = new byte[] {1, 2, 3, 0, 4};
    Inode back = Inode.decode(i.encode());
    assertArrayEquals(i.inlineData, back.inlineData);
    assertNull(back.dataObject);

    i.inlineData = null;
    i.dataObject = "3/844424930136628";
    back = Inode.decode(i.encode());
    assertEquals("3/844424930136628", back.dataObject);
    assertNull(back.inlineData);
  }

  @Test
  void anEmptyInlineFileStaysInline() {
    Inode i = sample();
    i.inlineData = new byte[0];
    assertArrayEquals(new byte[0], Inode.decode(i.encode()).inlineData);
  }

  @Test
  void corruptValuesAreRefusedNotMisread() {
    assertThrows(IllegalStateException.class, () -> Inode.decode(new byte[10]));
    byte[] v = sample().encode();
    v[0] = 99;
    assertThrows(IllegalStateException.class, () -> Inode.decode(v));
  }
}
