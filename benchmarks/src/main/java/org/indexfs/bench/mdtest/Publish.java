package org.indexfs.bench.mdtest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.indexfs.bench.report.BenchReport;

/**
 * Puts a finished comparison into a page's Performance section ({@code docs/performance.md}), between
 * the markers {@code <!-- performance:begin -->} and {@code <!-- performance:end -->}, with its charts
 * copied to {@code docs/performance/}: published numbers come from a run, never from a keyboard.
 */
final class Publish {
  static final String BEGIN = "<!-- performance:begin -->";
  static final String END = "<!-- performance:end -->";

  private Publish() {}

  static void toReadme(BenchReport report, Path reportDir, Path readme) throws IOException {
    Path page = readme.toAbsolutePath().getParent();
    // A page inside docs/ keeps its charts beside it in docs/performance/; one at the top, under docs/.
    Path docs = page.getFileName() != null && page.getFileName().toString().equals("docs")
        ? page.resolve("performance") : page.resolve("docs").resolve("performance");
    String link = page.relativize(docs).toString().replace('\\', '/');
    Files.createDirectories(docs);
    for (String chart : new String[] {"throughput.png", "latency-p99.png"}) {
      Files.copy(reportDir.resolve(chart), docs.resolve(chart), StandardCopyOption.REPLACE_EXISTING);
    }
    Files.copy(reportDir.resolve("report.md"), docs.resolve("compare.md"), StandardCopyOption.REPLACE_EXISTING);
    Files.copy(reportDir.resolve("report.json"), docs.resolve("compare.json"), StandardCopyOption.REPLACE_EXISTING);

    StringBuilder section = new StringBuilder(BEGIN).append("\n");
    section.append("Produced by `").append(report.facts().get("command")).append("` on ")
        .append(report.facts().get("date")).append(".\n\n");
    section.append("- Machine: ").append(report.facts().get("machine")).append("\n");
    section.append("- Versions: ").append(report.facts().get("versions")).append("\n");
    section.append("- Workload: ").append(report.facts().get("workload")).append("\n");
    section.append("- Durability: ").append(report.facts().get("durability")).append("\n\n");
    report.tables().forEach(t -> section.append(t.toMarkdown()).append("\n"));
    section.append("![throughput](").append(link).append("/throughput.png)\n\n");
    section.append("![p99 latency](").append(link).append("/latency-p99.png)\n\n");
    section.append("Full report: [").append(link).append("/compare.md](").append(link).append("/compare.md)\n");
    section.append(END);

    String text = Files.readString(readme, StandardCharsets.UTF_8);
    int b = text.indexOf(BEGIN);
    int e = text.indexOf(END);
    if (b < 0 || e < b) {
      throw new IOException(readme + " has no " + BEGIN + " ... " + END + " section to fill");
    }
    Files.writeString(readme, text.substring(0, b) + section + text.substring(e + END.length()), StandardCharsets.UTF_8);
  }
}
