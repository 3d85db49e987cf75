package org.indexfs.hadoop.exports;

import java.io.PrintStream;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.indexfs.hadoop.IndexFileSystem;

/**
 * {@code bin/indexfs export --from /indexfs/dir --to hdfs://nn/path} (docs/export.md). {@code --from}
 * is a path of {@code fs.defaultFS} (an indexfs:// URI also works). Exit status as import's: 0 done,
 * 1 failed (nothing changed), 2 usage.
 */
public final class ExportMain {
  private ExportMain() {}

  public static void main(String[] args) throws Exception {
    System.exit(run(args, new Configuration(), System.out, System.err));
  }

  public static int run(String[] args, Configuration conf, PrintStream out, PrintStream err) {
    String from = null;
    String to = null;
    try {
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--from" -> from = args[++i];
          case "--to" -> to = args[++i];
          default -> throw new IllegalArgumentException("Unknown option " + args[i]);
        }
      }
      if (from == null || to == null) {
        throw new IllegalArgumentException("--from and --to are needed");
      }
    } catch (RuntimeException e) {
      err.println("export: " + e.getMessage());
      err.println("usage: export --from /indexfs/dir --to hdfs://nn/path");
      return 2;
    }
    Path source = new Path(from);
    try (FileSystem fs = source.toUri().getScheme() == null ? FileSystem.newInstance(conf)
        : FileSystem.newInstance(source.toUri(), conf)) {
      if (!(fs instanceof IndexFileSystem ifs)) {
        err.println("export: --from must be on IndexFS (fs.defaultFS or an indexfs:// URI), not " + fs.getUri());
        return 2;
      }
      Exporter.Report r = new Exporter(conf, ifs).run(source, URI.create(to));
      out.println("Exported " + ifs.makeQualified(source) + " to " + to + " and removed it from IndexFS:");
      out.println("  directories   " + r.directories());
      out.println("  files moved   " + r.filesMoved() + " (" + r.bytesMoved() + " bytes, one HDFS rename each, no byte copied)");
      out.println("  files copied  " + r.filesCopied() + " (" + r.bytesCopied() + " bytes: inline in IndexFS, they existed "
          + "nowhere else on HDFS)");
      out.println("  time          " + r.millis() + " ms");
      return 0;
    } catch (IllegalArgumentException e) {
      err.println("export: " + e.getMessage());
      return 2;
    } catch (Exception e) {
      err.println("export: " + e.getMessage());
      return 1;
    }
  }
}
