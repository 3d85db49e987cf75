package org.indexfs.server.admin;

import java.io.IOException;
import org.apache.hadoop.fs.FsStatus;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;
import org.indexfs.proto.SlotReport;
import org.indexfs.server.data.DataTier;
import org.indexfs.server.metrics.ServerGauges;

/** {@code admin -report}, one slot's part: who serves it, what it holds, what it is doing. */
final class ReportOp implements org.indexfs.server.op.Operation {
  private final AdminContext admin;

  ReportOp(AdminContext admin) {
    this.admin = admin;
  }

  @Override
  public Response.Builder apply(Request request) throws IOException {
    admin.requireSuperuser(request.getCaller(), "datanodeReport");
    ServerGauges g = admin.metrics().gauges();
    DataTier data = admin.ops().data();
    long[] usage = data.slotUsage();
    FsStatus status = data.status();
    SlotReport.Builder r = SlotReport.newBuilder()
        .setSlot(admin.ops().ns().slot())
        .setAddress(admin.rpcAddress())
        .setHttpAddress(admin.httpAddress())
        .setEntries(g.entries())
        .setSplitsInFlight(g.splitsInFlight())
        .setSplitsDone(admin.metrics().getSplits())
        .setOpenFiles(g.openFiles())
        .setEntryLeases(g.entryLeaseTableSize())
        .setOperationsServed(admin.metrics().getOperationsServed())
        .setStartedMs(admin.metrics().startedMs())
        .setSafeMode(admin.safeMode().isOn())
        .setDataUri(data.dataUri())
        .setDataObjects(usage[0])
        .setDataBytes(usage[1])
        .setDataCapacity(status == null ? -1 : status.getCapacity())
        .setDataUsed(status == null ? -1 : status.getUsed())
        .setDataRemaining(status == null ? -1 : status.getRemaining())
        .setEpoch(admin.ha().epoch())
        .addAllStandbys(admin.ha().standbys())
        .setJournalDurableSeq(admin.ha().journalDurableSeq());
    return Response.newBuilder().setSlotReport(r);
  }
}
