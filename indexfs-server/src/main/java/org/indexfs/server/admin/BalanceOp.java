package org.indexfs.server.admin;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.indexfs.common.schema.EntryKey;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.PartitionSize;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.SlotBalance;
import org.indexfs.server.ns.Namespace;
import org.rocksdb.RocksIterator;

/**
 * {@code admin -balance}, one slot's part, counted exactly: its entries, the directories placement
 * made it home to, the partitions GIGA+ moved here, and its largest directory partitions.
 */
final class BalanceOp implements org.indexfs.server.op.Operation {
  private static final int MAX_TOP = 10_000;
  private static final int DEFAULT_TOP = 10;

  private final AdminContext admin;

  BalanceOp(AdminContext admin) {
    this.admin = admin;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    admin.requireSuperuser(request.getCaller(), "balance");
    Namespace ns = admin.ops().ns();
    // uint32 on the wire: at most every partition held here, and never past what a reply can hold.
    int top = request.getBalance().getTop() == 0 ? DEFAULT_TOP
        : (int) Math.min(Integer.toUnsignedLong(request.getBalance().getTop()), MAX_TOP);
    Map<Long, long[]> perDir = new HashMap<>();
    long entries = 0;
    try (RocksIterator it = ns.store().iterator(ns.store().entries(), null)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        entries++;
        if (it.key().length >= EntryKey.PREFIX_BYTES) {
          perDir.computeIfAbsent(EntryKey.parentOf(it.key()), k -> new long[1])[0]++;
        }
      }
    }
    long homed = 0;
    long splitIn = 0;
    List<PartitionSize> sizes = new ArrayList<>();
    for (Map.Entry<Long, byte[]> record : PartitionRecords.read(ns, null).records().entrySet()) {
      Inode dir;
      try {
        dir = Inode.decode(record.getValue());
      } catch (RuntimeException corrupt) {
        continue; // fsck reports it
      }
      if (dir.zerothSlot == ns.slot()) {
        homed++;
      } else {
        splitIn++;
      }
      long n = perDir.getOrDefault(record.getKey(), new long[1])[0];
      sizes.add(PartitionSize.newBuilder().setDirId(record.getKey()).setZerothSlot(dir.zerothSlot)
          .setIndex(admin.ops().partitions().myIndex(dir.zerothSlot)).setEntries(n)
          .setPartitions(ns.bitmap(record.getKey()).count()).build());
    }
    sizes.sort(Comparator.comparingLong(PartitionSize::getEntries).reversed());
    SlotBalance b = SlotBalance.newBuilder().setSlot(ns.slot()).setEntries(entries)
        .setDirectoriesHomed(homed).setPartitionsSplitIn(splitIn)
        .setSplitsDone(admin.metrics().getSplits()).setOperationsServed(admin.metrics().getOperationsServed())
        .addAllLargest(sizes.subList(0, Math.min(top, sizes.size()))).build();
    return Response.newBuilder().setBalance(b);
  }
}
