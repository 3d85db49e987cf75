package org.indexfs.bench.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.indexfs.client.cache.ResolutionCache;
import org.indexfs.common.PathNames;
import org.indexfs.common.giga.GigaIndex;
import org.indexfs.common.giga.PartitionBitmap;
import org.indexfs.common.rpc.Framing;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.common.schema.NameHash;
import org.indexfs.proto.Ancestor;
import org.indexfs.proto.Caller;
import org.indexfs.proto.CreateRequest;
import org.indexfs.proto.GetFileStatusRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Resolution;
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
 * encode/decode through the same Netty framing the server uses (§9), and path resolution with a
 * warm client cache (§5): what a client does before every call it sends.
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
  /** A file 8 directories below the root, every directory cached and leased for an hour. */
  private static final String DEEP_FILE = "/warehouse/sales/region=eu/year=2026/month=11/day=22/hour=06/batch-7/part-00042.parquet";
  private List<String> deepNames;
  private ResolutionCache cache;

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
    try {
      deepNames = PathNames.components(DEEP_FILE, 255);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    cache = new ResolutionCache(100_000, System::nanoTime);
    Resolution.Builder walked = Resolution.newBuilder();
    for (int depth = 0; depth < deepNames.size(); depth++) { // the root and the 8 directories
      walked.addAncestors(Ancestor.newBuilder().setInodeId(1000 + depth).setPermission(0755).setOwner("hive")
          .setGroup("hadoop").setZerothSlot(depth % 4).setLeaseMs(3_600_000));
    }
    cache.remember(deepNames, walked.build(), System.nanoTime());
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
  public Request frameRoundTrip() throws java.io.IOException {
    encoder.writeOutbound(request);
    for (ByteBuf part = encoder.readOutbound(); part != null; part = encoder.readOutbound()) {
      decoder.writeInbound(part);
    }
    ByteBuf frame = decoder.readInbound();
    try {
      return Request.parseFrom(Framing.input(frame));
    } finally {
      frame.release();
    }
  }

  /** The cache lookup alone: the chain of 9 cached directories (root + 8) above a depth-8 file. */
  @Benchmark
  public Resolution resolveWarmDepth8() {
    return cache.resolve(deepNames, deepNames.size() - 1);
  }

  /**
   * Everything a client does for a warm-cache stat of a depth-8 file before the bytes leave:
   * split and check the path, look the chain up, and build and serialize the request carrying it
   * (as {@code IndexFsClient} does; the network and the server are not included).
   */
  @Benchmark
  public byte[] clientSideStatWarmDepth8() throws IOException {
    List<String> names = PathNames.components(DEEP_FILE, 255);
    Resolution known = cache.resolve(names, names.size() - 1);
    return Request.newBuilder().setCallId(7).setCaller(request.getCaller())
        .setGetFileStatus(GetFileStatusRequest.newBuilder().setPath(DEEP_FILE))
        .setResolution(known).build().toByteArray();
  }
}
