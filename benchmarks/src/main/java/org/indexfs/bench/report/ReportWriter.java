package org.indexfs.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@link BenchReport} into a directory: {@code report.json} (every number), and for
 * people {@code report.md} and {@code report.html} with PNG charts beside them.
 */
public final class ReportWriter {
  private ReportWriter() {}

  public static void write(BenchReport report, Path dir) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("report.json"), json(report), StandardCharsets.UTF_8);
    List<String> charts = Charts.write(report, dir);
    Files.writeString(dir.resolve("report.md"), markdown(report, charts), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("report.html"), html(report, charts), StandardCharsets.UTF_8);
  }

  static String json(BenchReport report) {
    Json j = new Json().beginObject().name("title").value(report.title());
    j.name("facts").beginObject();
    report.facts().forEach((k, v) -> j.name(k).value(v));
    j.endObject().name("runs").beginArray();
    for (TargetRun r : report.runs()) {
      j.beginObject().name("label").value(r.label()).name("uri").value(r.uri()).name("seconds").value(r.seconds());
      j.name("total");
      metrics(j, r.total());
      j.name("operations").beginArray();
      r.ops().forEach(m -> metrics(j, m));
      j.endArray().endObject();
    }
    j.endArray().name("curves").beginArray();
    for (Curve c : report.curves()) {
      j.beginObject().name("title").value(c.title()).name("file").value(c.file()).name("x").value(c.xTitle())
          .name("y").value(c.yTitle()).name("xs").beginArray();
      c.xs().forEach(j::value);
      j.endArray().name("series").beginObject();
      c.series().forEach((name, ys) -> {
        j.name(name).beginArray();
        ys.forEach(j::value);
        j.endArray();
      });
      j.endObject().endObject();
    }
    j.endArray().name("attachments").beginObject();
    report.attachments().forEach((file, what) -> j.name(file).value(what));
    j.endObject().name("tables").beginArray();
    for (Table t : report.tables()) {
      j.beginObject().name("title").value(t.title()).name("headers").beginArray();
      t.headers().forEach(j::value);
      j.endArray().name("rows").beginArray();
      for (List<String> row : t.rows()) {
        j.beginArray();
        row.forEach(j::value);
        j.endArray();
      }
      j.endArray().endObject();
    }
    return j.endArray().endObject().toString() + "\n";
  }

  private static void metrics(Json j, OpMetrics m) {
    j.beginObject().name("op").value(m.op()).name("count").value(m.count())
        .name("opsPerSecond").value(m.opsPerSecond())
        .name("latencyMicros").beginObject().name("p50").value(m.p50()).name("p90").value(m.p90())
        .name("p99").value(m.p99()).name("p99.9").value(m.p999()).name("max").value(m.max()).endObject()
        .name("errors").value(m.errors()).endObject();
  }

  static String markdown(BenchReport report, List<String> charts) {
    StringBuilder sb = new StringBuilder("# ").append(report.title()).append("\n\n");
    for (Map.Entry<String, String> f : report.facts().entrySet()) {
      sb.append("- **").append(f.getKey()).append("**: ").append(f.getValue()).append('\n');
    }
    report.attachments().forEach((file, what) -> sb.append("- **").append(file).append("**: [").append(file)
        .append("](").append(file).append(") — ").append(what).append('\n'));
    sb.append('\n').append(report.comparison().toMarkdown());
    for (String c : charts) {
      sb.append("![").append(c).append("](").append(c).append(")\n\n");
    }
    report.tables().forEach(t -> sb.append(t.toMarkdown()));
    return sb.toString();
  }

  static String html(BenchReport report, List<String> charts) {
    StringBuilder sb = new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>")
        .append(Html.escape(report.title())).append("</title>\n<style>body{font-family:sans-serif;margin:2em}"
            + "table{border-collapse:collapse;margin-bottom:1.5em}td,th{border:1px solid #ccc;padding:3px 8px}"
            + "td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f3f3f3}</style></head><body>\n")
        .append("<h1>").append(Html.escape(report.title())).append("</h1>\n<ul>\n");
    report.facts().forEach((k, v) -> sb.append("<li><b>").append(Html.escape(k)).append("</b>: ")
        .append(Html.escape(v)).append("</li>\n"));
    report.attachments().forEach((file, what) -> sb.append("<li><b>").append(Html.escape(file))
        .append("</b>: <a href=\"").append(Html.escape(file)).append("\">").append(Html.escape(file)).append("</a> — ")
        .append(Html.escape(what)).append("</li>\n"));
    sb.append("</ul>\n").append(report.comparison().toHtml());
    for (String c : charts) {
      sb.append("<p><img src=\"").append(c).append("\" alt=\"").append(c).append("\"></p>\n");
    }
    report.tables().forEach(t -> sb.append(t.toHtml()));
    return sb.append("</body></html>\n").toString();
  }
}
