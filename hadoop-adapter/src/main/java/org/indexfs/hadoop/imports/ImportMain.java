package org.indexfs.hadoop.imports;

import java.io.File;
import java.io.PrintStream;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.hadoop.IndexFileSystem;

/**
 * {@code bin/indexfs import} (docs/import.md):
 * <pre>
 *   import --from hdfs://nn/dir --to /target [--fsimage FILE]
 *   import --verify --from hdfs://nn/&lt;data root&gt;/imported/&lt;id&gt; --to /target [--sample N]
 *   import --status --fsimage FILE --from hdfs://nn/dir
 * </pre>
 * {@code --to} is a path of {@code fs.defaultFS} (an indexfs:// URI also works). Exit status 0: done
 * (or verified clean); 1: failed (or differences); 2: usage.
 */
public final class ImportMain {
  private ImportMain() {}

  public static void main(String[] args) throws Exception {
    System.exit(run(args, new Configuration(), System.out, System.err));
  }

  static int run(String[] args, Configuration conf, PrintStream out, PrintStream err) {
    String from = null;
    String to = null;
    String fsimage = null;
    boolean verify = false;
    boolean status = false;
    int sample = 100;
    try {
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--from" -> from = args[++i];
          case "--to" -> to = args[++i];
          case "--fsimage" -> fsimage = args[++i];
          case "--verify" -> verify = true;
          case "--status" -> status = true;
          case "--sample" -> sample = Integer.parseInt(args[++i]);
          default -> throw new IllegalArgumentException("Unknown option " + args[i]);
        }
      }
      if (status && (from == null || fsimage == null)) {
        throw new IllegalArgumentException("--status needs --fsimage and --from");
      }
      if (!status && (from == null || to == null)) {
        throw new IllegalArgumentException("--from and --to are needed");
      }
    } catch (RuntimeException e) {
      err.println("import: " + e.getMessage());
      err.println("usage: import --from hdfs://nn/dir --to /target [--fsimage FILE]");
      err.println("       import --verify --from hdfs://nn/<data root>/imported/<id> --to /target [--sample N]");
      err.println("       import --status --fsimage FILE --from hdfs://nn/dir");
      return 2;
    }
    if (status) {
      try {
        File image = new File(fsimage);
        out.print(ImportStatus.of(conf, URI.create(from), image).summary(from, image));
        return 0;
      } catch (Exception e) {
        err.println("import: " + e.getMessage());
        return 1;
      }
    }
    // One publish per import: it lands whole or not at all (the buffer spills to disk, not to the server).
    conf.setInt(IndexFsConfig.CLIENT_LOCALIZE_BUFFER_ENTRIES.name(), Integer.MAX_VALUE);
    Path target = new Path(to);
    try (FileSystem fs = target.toUri().getScheme() == null ? FileSystem.newInstance(conf)
        : FileSystem.newInstance(target.toUri(), conf)) {
      if (!(fs instanceof IndexFileSystem ifs)) {
        err.println("import: --to must be on IndexFS (fs.defaultFS or an indexfs:// URI), not " + fs.getUri());
        return 2;
      }
      if (verify) {
        URI hdfsUri = URI.create(from);
        try (FileSystem h = FileSystem.newInstance(hdfsUri, conf)) {
          ImportVerifier.Result r = new ImportVerifier((DistributedFileSystem) h, new Path(hdfsUri.getPath()), ifs, target,
              sample).run();
          out.print(r.summary());
          return r.clean() ? 0 : 1;
        }
      }
      Importer.Report r = new Importer(conf, ifs).run(URI.create(from), fsimage == null ? null : new File(fsimage), target);
      out.println("Imported " + from + (fsimage == null ? "" : " (entries from fsimage " + fsimage + ")") + " into "
          + ifs.makeQualified(target) + ": " + r.directories() + " directories, " + r.files() + " files, " + r.bytes()
          + " bytes, no byte copied; " + r.extras() + " entries with ACLs, xattrs, quotas, storage policies or "
          + "snapshots enabled; " + r.millis() + " ms");
      if (fsimage != null) {
        out.println("Changes since the image: " + r.changesSinceImage() + " (NameNode edits under the source), "
            + r.subtreesReadLive() + " paths read live from the NameNode instead of the image");
      }
      out.println("The files now live at " + r.objects() + " (the data objects of the entries: leave them there)");
      if (!r.snapshotsNotCarried().isEmpty()) {
        out.println("Snapshots not carried (they stay on HDFS under " + r.objects() + "): "
            + String.join(", ", r.snapshotsNotCarried()));
      }
      out.println("Verify with: bin/indexfs import --verify --from " + r.objects() + " --to " + to);
      return 0;
    } catch (Exception e) {
      err.println("import: " + e.getMessage());
      return 1;
    }
  }
}
