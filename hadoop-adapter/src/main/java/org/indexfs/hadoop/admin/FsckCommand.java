package org.indexfs.hadoop.admin;

import static org.apache.hadoop.util.StringUtils.byteDesc;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.indexfs.client.admin.AdminClient;
import org.indexfs.client.admin.FsckCheck;
import org.indexfs.client.admin.FsckProblem;
import org.indexfs.client.admin.FsckResult;
import org.indexfs.client.admin.FsckSource;
import org.indexfs.hadoop.IndexFileSystem;

/**
 * {@code -fsck [PATH]}: the namespace checked across slots ({@link FsckCheck}), printed as
 * {@code hdfs fsck} prints: each problem, a summary, and "The filesystem under path '…' is
 * HEALTHY" or "is CORRUPT" (exit 0 or 1). The whole namespace is always read; problems are shown
 * for PATH and below (problems without a path — an object nobody names — only for /).
 *
 * <p>The check is exact in safe mode, when nothing changes while the slots are read one after the
 * other. Outside it, a problem is only reported if a second check finds it again, since an
 * operation running between two slots' reads can look like one.
 */
final class FsckCommand {
  private final AdminClient admin;
  private final IndexFileSystem fs;
  private final Configuration conf;
  private final PrintStream out;

  FsckCommand(AdminClient admin, IndexFileSystem fs, Configuration conf, PrintStream out) {
    this.admin = admin;
    this.fs = fs;
    this.conf = conf;
    this.out = out;
  }

  int run(String path) throws IOException {
    long start = System.currentTimeMillis();
    out.println("Connecting to IndexFS cluster " + admin.cluster() + " (" + admin.slotCount() + " slots) for path "
        + path);
    out.println("FSCK started by " + UserGroupInformation.getCurrentUser().getShortUserName() + " for path " + path
        + " at " + new Date(start));
    FsckSource source = FsckSource.of(admin, new DataTierObjects(fs.client().serverInfo().getDataUri(), conf));
    FsckResult result = FsckCheck.run(source);
    List<FsckProblem> problems = result.problems();
    if (!result.safeMode() && !problems.isEmpty()) {
      Set<String> again = new HashSet<>();
      FsckCheck.run(source).problems().forEach(p -> again.add(p.message()));
      problems = problems.stream().filter(p -> again.contains(p.message())).toList();
    }
    List<FsckProblem> shown = new ArrayList<>();
    for (FsckProblem p : problems) {
      if (path.equals("/") || (p.path() != null && (p.path().equals(path) || p.path().startsWith(path + "/")))) {
        shown.add(p);
      }
    }
    out.println();
    for (FsckProblem p : shown) {
      out.println(p);
    }
    if (!shown.isEmpty()) {
      out.println();
    }
    FsckResult.Counts c = result.counts();
    boolean healthy = shown.isEmpty();
    out.println("Status: " + (healthy ? "HEALTHY" : "CORRUPT"));
    out.println(" Number of slots:\t" + c.slots());
    out.println(" Total dirs:\t\t" + c.directories());
    out.println(" Total files:\t\t" + c.files() + " (open for writing: " + c.openFiles() + ")");
    out.println(" Partitions:\t\t" + c.partitions() + " (directories split over slots: " + c.splitDirectories() + ")");
    out.println(" Data objects:\t\t" + c.objects() + " (" + byteDesc(c.objectBytes()) + ")");
    out.println(" Being reclaimed:\t" + c.reclaimingEntries() + " entries, " + c.reclaimingObjects() + " objects");
    out.println(" Problems:\t\t" + shown.size());
    if (!result.safeMode() && !healthy) {
      out.println(" Note: the cluster was not in safe mode; these problems were seen by two checks in a row"
          + " (enter safe mode for an exact answer)");
    }
    out.println("FSCK ended at " + new Date() + " in " + (System.currentTimeMillis() - start) + " milliseconds");
    out.println();
    out.println("The filesystem under path '" + path + "' is " + (healthy ? "HEALTHY" : "CORRUPT"));
    return healthy ? 0 : 1;
  }
}
