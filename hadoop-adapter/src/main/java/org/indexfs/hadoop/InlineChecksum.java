package org.indexfs.hadoop;

import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CompositeCrcFileChecksum;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.MD5MD5CRC32CastagnoliFileChecksum;
import org.apache.hadoop.fs.MD5MD5CRC32GzipFileChecksum;
import org.apache.hadoop.io.MD5Hash;
import org.apache.hadoop.util.DataChecksum;

/**
 * {@code getFileChecksum} of an inline file, computed exactly as HDFS computes it for the same
 * bytes in one block (DFSClient's FileChecksumHelper and the DataNode's block checksum), so that
 * tools comparing checksums across file systems (DistCp) see an inline file and its HDFS copy as
 * equal. It honours the same client settings: {@code dfs.checksum.type} (CRC32C or CRC32),
 * {@code dfs.bytes-per-checksum} and {@code dfs.checksum.combine.mode} (MD5MD5CRC or COMPOSITE_CRC).
 */
final class InlineChecksum {
  private InlineChecksum() {}

  static FileChecksum of(byte[] data, int length, Configuration conf) {
    if (length == 0) {
      // HDFS answers an empty file (or length 0) with this fixed value.
      return new MD5MD5CRC32GzipFileChecksum(0, 0, MD5Hash.digest(new byte[32]));
    }
    DataChecksum.Type type = DataChecksum.Type.valueOf(conf.get("dfs.checksum.type", "CRC32C").toUpperCase(Locale.ROOT));
    if (type != DataChecksum.Type.CRC32C && type != DataChecksum.Type.CRC32) {
      throw new UnsupportedOperationException("No file checksum for dfs.checksum.type=" + type);
    }
    int bytesPerCrc = conf.getInt("dfs.bytes-per-checksum", 512);
    String mode = conf.get("dfs.checksum.combine.mode", "MD5MD5CRC").toUpperCase(Locale.ROOT);
    if (mode.equals("COMPOSITE_CRC")) {
      Checksum crc = newCrc(type);
      crc.update(data, 0, length);
      return new CompositeCrcFileChecksum((int) crc.getValue(), type, bytesPerCrc);
    }
    // MD5 of the block's chunk CRCs (what the DataNode returns), then MD5 of that (the file's).
    int chunks = (length + bytesPerCrc - 1) / bytesPerCrc;
    ByteBuffer crcs = ByteBuffer.allocate(4 * chunks);
    for (int off = 0; off < length; off += bytesPerCrc) {
      Checksum crc = newCrc(type);
      crc.update(data, off, Math.min(bytesPerCrc, length - off));
      crcs.putInt((int) crc.getValue());
    }
    MD5Hash blockMd5 = MD5Hash.digest(crcs.array());
    // DFSClient digests the whole 32-byte buffer it collected the block MD5s in (16 bytes for one
    // block, then zeros): FileChecksumHelper.makeMd5CrcResult over DataOutputBuffer.getData().
    byte[] collected = new byte[32];
    System.arraycopy(blockMd5.getDigest(), 0, collected, 0, MD5Hash.MD5_LEN);
    MD5Hash fileMd5 = MD5Hash.digest(collected);
    // crcPerBlock is 0 for a one-block file, as HDFS reports it.
    return type == DataChecksum.Type.CRC32C
        ? new MD5MD5CRC32CastagnoliFileChecksum(bytesPerCrc, 0, fileMd5)
        : new MD5MD5CRC32GzipFileChecksum(bytesPerCrc, 0, fileMd5);
  }

  private static Checksum newCrc(DataChecksum.Type type) {
    return type == DataChecksum.Type.CRC32C ? new CRC32C() : new CRC32();
  }
}
