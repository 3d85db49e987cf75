package org.indexfs.bench.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replay phase on the local file system: pacing by the trace's clock, and one user for every call. */
class ReplayerPacingTest {

  private static List<AuditEvent> trace(Path root) {
    AuditLogParser parser = new AuditLogParser(ZoneOffset.UTC);
    List<AuditEvent> events = new ArrayList<>();
    String[] times = {"00:00:00,000", "00:00:01,000", "00:00:02,000"};
    for (int i = 0; i < times.length; i++) {
      events.add(parser.parse("2024-01-01 " + times[i] + " INFO FSNamesystem.audit: allowed=true"
          + "\tugi=someone (auth:SIMPLE)\tip=/1.1.1.1\tcmd=mkdirs\tsrc=/d" + i + "\tdst=null"
          + "\tperm=someone:g:rwx------\tproto=rpc", i + 1).event().under(root.toString()));
    }
    return events;
  }

  private static double replaySeconds(Path root, double rate) throws IOException {
    String me = UserGroupInformation.getLoginUser().getShortUserName();
    try (Identities ids = new Identities(URI.create("file:///"), TraceReplay.replayConf(new Configuration()),
        Impersonation.SINGLE, me)) {
      PrecreatePlan plan = new PrecreatePlan();
      trace(root).forEach(plan::add);
      long t0 = System.nanoTime();
      Map<Command, CommandStats> stats = new Replayer(ids, ReplayPolicy.DEFAULT, plan, 2, rate)
          .replay(trace(root).iterator(), Long.MAX_VALUE, 1, new OutcomeLog(3), 0).stats();
      double seconds = (System.nanoTime() - t0) / 1e9;
      assertEquals(0, stats.get(Command.MKDIRS).unexpected());
      assertEquals(3, stats.get(Command.MKDIRS).count());
      return seconds;
    }
  }

  @Test
  void aRateFactorReplaysAtTheTracesPaceTimesTheFactor(@TempDir Path dir) throws IOException {
    // The trace spans 2 s; at 4x it takes 0.5 s, as fast as possible far less.
    assertThat(replaySeconds(Files.createDirectory(dir.resolve("paced")), 4)).isBetween(0.5, 1.9);
    assertThat(replaySeconds(Files.createDirectory(dir.resolve("fast")), 0)).isLessThan(0.5);
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("paced/d2"))));
  }
}
