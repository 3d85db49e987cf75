package org.indexfs.bench.jmh;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.concurrent.TimeUnit;
import org.indexfs.common.giga.GigaIndex;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.rpc.Framing;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.common.schema.NameHash;
import org.indexfs.proto.Caller;
import org.indexfs.proto.CreateRequest;
import org.indexfs.proto.Request;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Micro-benchmarks of what every metadata operation pays on the hot path: the entry key and value
 * codecs (DESIGN §3), the name hash and GIGA+ partition lookup (§4), and a request frame's
 * encode/decode through the same Netty framing the server uses (§9).
 * Run: {@code bin/indexfs bench jmh [JMH options, e.g. -f 1 -wi 3 -i 5]}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HotPathBenchmarks {
  private Inode inode;
  private byte[] value;
  private EntryKey key;
  private byte[] keyBytes;
  private PartitionBitmap bitmap;
  private long hash;
  private Request request;
  private EmbeddedChannel encoder;
  private EmbeddedChannel decoder;

  @Setup
  public void setUp() {
    inode = new Inode();
    inode.type = Inode.TYPE_FILE;
    inode.permission = 0644;
    inode.replication = 3;
    inode.blockSize = 128L << 20;
    inode.inodeId = 0x0003_0000_0000_1234L;
    inode.mtime = inode.atime = 1_700_000_000_000L;
    inode.inlineData = new byte[0];
    value = inode.encode();
    key = EntryKey.of(42, "part-00042.parquet");
    keyBytes = key.encode();
    bitmap = PartitionBitmap.initial();
    for (int i = 1; i < 16; i++) {
      bitmap.add(i);
    }
    hash = NameHash.of("part-00042.parquet");
    request = Request.newBuilder().setCallId(7)
        .setCaller(Caller.newBuilder().setUser("alice").addGroups("analysts").setClientId("c-1"))
        .setCreate(CreateRequest.newBuilder().setPath("/warehouse/sales/day=2026-11-22/part-00042.parquet")
            .setPermission(0644).setReplication(3).setBlockSize(128L << 20).setCreateParent(true))
        .build();
    encoder = new EmbeddedChannel();
    Framing.install(encoder.pipeline(), 1 << 20);
    decoder = new EmbeddedChannel();
    Framing.install(decoder.pipeline(), 1 << 20);
  }

  @TearDown
  public void tearDown() {
    encoder.finishAndReleaseAll();
    decoder.finishAndReleaseAll();
  }

  @Benchmark
  public byte[] encodeEntryValue() {
    return inode.encode();
  }

  @Benchmark
  public Inode decodeEntryValue() {
    return Inode.decode(value);
  }

  @Benchmark
  public byte[] encodeEntryKey() {
    return key.encode();
  }

  @Benchmark
  public EntryKey decodeEntryKey() {
    return EntryKey.decode(keyBytes);
  }

  @Benchmark
  public long hashName() {
    return NameHash.of("part-00042.parquet");
  }

  @Benchmark
  public int gigaPartitionLookup() {
    return GigaIndex.partitionOf(hash, bitmap);
  }

  /** Serialize a create request, frame it, unframe it and parse it: one call's wire cost on each side. */
  @Benchmark
  public Request frameRoundTrip() throws InvalidProtocolBufferException {
    encoder.writeOutbound(Unpooled.wrappedBuffer(request.toByteArray()));
    // The prepender emits the length header and the payload as separate buffers.
    for (ByteBuf part = encoder.readOutbound(); part != null; part = encoder.readOutbound()) {
      decoder.writeInbound(part);
    }
    ByteBuf frame = decoder.readInbound();
    try {
      return Request.parseFrom(frame.nioBuffer());
    } finally {
      frame.release();
    }
  }
}
