package org.indexfs.server.journal;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * One journal record: {@code [length][crc32c][epoch][seq][type][payload]}, length and checksum
 * covering the body (epoch onwards). A record cut short or failing its checksum ends the readable
 * part of a segment (a writer that died mid-append).
 */
record JournalRecord(long epoch, long seq, byte type, byte[] payload) {
  /** A write batch's bytes (RocksDB's own format: replay is deterministic by construction). */
  static final byte BATCH = 1;
  /** An ingested SST file, by its name in the journal's {@code sst/} directory. */
  static final byte INGEST = 2;

  private static final int HEADER = 8;
  private static final int BODY_FIXED = 17;

  byte[] encode() {
    ByteBuffer b = ByteBuffer.allocate(HEADER + BODY_FIXED + payload.length);
    b.putInt(BODY_FIXED + payload.length).putInt(0).putLong(epoch).putLong(seq).put(type).put(payload);
    CRC32C crc = new CRC32C();
    crc.update(b.array(), HEADER, BODY_FIXED + payload.length);
    b.putInt(4, (int) crc.getValue());
    return b.array();
  }

  /** What reading at some offset found. */
  sealed interface Read {}

  /** A whole record, {@code bytes} long on disk. */
  record Whole(JournalRecord record, int bytes) implements Read {}

  /** The data ends inside a record (possibly still being written). */
  record Incomplete() implements Read {}

  /** The bytes there are not a valid record: a torn append. */
  record Torn(String why) implements Read {}

  static Read read(DataInputStream in) throws IOException {
    int length;
    int crc;
    try {
      length = in.readInt();
      crc = in.readInt();
    } catch (EOFException end) {
      return new Incomplete();
    }
    if (length < BODY_FIXED || length > (64 << 20) + BODY_FIXED) {
      return new Torn("bad record length " + length);
    }
    byte[] body = new byte[length];
    try {
      in.readFully(body);
    } catch (EOFException end) {
      return new Incomplete();
    }
    CRC32C check = new CRC32C();
    check.update(body);
    if ((int) check.getValue() != crc) {
      return new Torn("checksum mismatch");
    }
    ByteBuffer b = ByteBuffer.wrap(body);
    long epoch = b.getLong();
    long seq = b.getLong();
    byte type = b.get();
    byte[] payload = new byte[length - BODY_FIXED];
    b.get(payload);
    return new Whole(new JournalRecord(epoch, seq, type, payload), HEADER + length);
  }
}
