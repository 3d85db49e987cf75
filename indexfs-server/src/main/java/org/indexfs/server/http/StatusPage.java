package org.indexfs.server.http;

import static org.apache.commons.text.StringEscapeUtils.escapeHtml4;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.indexfs.server.metrics.RateHistory;

/**
 * The status page of one server, in the spirit of the NameNode's: overview, the cluster's slots,
 * the operation rate as a chart, operations, largest directories, recent splits, standbys. One
 * self-contained HTML document (inline CSS, SVG and a few lines of script, nothing fetched from
 * elsewhere); the chart is drawn on the server, and the script redraws it every two seconds from
 * {@code status.json}.
 */
final class StatusPage {
  static final int CHART_WIDTH = 600;
  static final int CHART_HEIGHT = 160;

  private StatusPage() {}

  @SuppressWarnings("unchecked")
  static String render(Map<String, Object> s) {
    Map<String, Object> o = (Map<String, Object>) s.get("overview");
    long[] rates = (long[]) s.get("rates");
    StringBuilder h = new StringBuilder(16 * 1024);
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>IndexFS slot ").append(o.get("slot")).append(" — ").append(esc(o.get("cluster"))).append("</title>")
        .append("<style>").append(CSS).append("</style></head><body>\n");
    h.append("<header><h1>IndexFS metadata server</h1><p>cluster <b>").append(esc(o.get("cluster")))
        .append("</b> · slot <b id=\"slot\">").append(o.get("slot")).append("</b> · ").append(esc(o.get("address")))
        .append(" · <span id=\"safemode\" class=\"").append(Boolean.TRUE.equals(o.get("safeMode")) ? "on" : "off")
        .append("\">safe mode ").append(Boolean.TRUE.equals(o.get("safeMode")) ? "ON" : "off").append("</span></p></header>\n");

    h.append("<section id=\"overview\"><h2>Overview</h2><table>");
    row(h, "Started", Instant.ofEpochMilli((Long) o.get("startedMs")) + " (up "
        + uptime((Long) o.get("nowMs") - (Long) o.get("startedMs")) + ")");
    row(h, "Entries (estimate)", "<span id=\"entries\">" + o.get("entries") + "</span>");
    row(h, "Operations served", "<span id=\"served\">" + o.get("operationsServed") + "</span>");
    row(h, "Redirects", o.get("redirects"));
    row(h, "Files open for writing", o.get("openFiles"));
    row(h, "Entry lease table", o.get("entryLeaseTableSize"));
    row(h, "Splits done / in flight", o.get("splitsDone") + " / " + o.get("splitsInFlight"));
    row(h, "Group commit (mutations per fsync)", String.format("%.2f", (Double) o.get("groupCommitMeanSize")));
    row(h, "Queue time p99", o.get("queueTimeP99Micros") + " µs");
    row(h, "Data tier", esc(o.get("dataUri")));
    Map<String, Object> db = (Map<String, Object>) s.get("rocksdb");
    if (!db.isEmpty()) {
      row(h, "RocksDB compactions (running)", db.get("compactions") + " (" + db.get("runningCompactions") + ")");
      row(h, "RocksDB write stalls", db.get("stallMicros") + " µs" + (Boolean.TRUE.equals(db.get("writeStopped"))
          ? " — writes stopped" : ""));
      row(h, "RocksDB block cache hit rate", String.format("%.1f %%", 100 * (Double) db.get("blockCacheHitRatio")));
    }
    h.append("</table></section>\n");

    h.append("<section id=\"rates\"><h2>Operations per second</h2><p>now <b id=\"rate-now\">")
        .append(rates.length == 0 ? 0 : rates[rates.length - 1]).append("</b>/s · peak <b id=\"rate-max\">")
        .append(max(rates)).append("</b>/s over the last ").append(RateHistory.SECONDS).append(" s</p>")
        .append(chart(rates)).append("</section>\n");

    h.append("<section id=\"slots\"><h2>Slots</h2><table><tr><th>slot</th><th>owner</th><th>status page</th>")
        .append("<th>entries</th><th>epoch</th><th>standbys</th></tr>");
    for (Map<String, Object> slot : (List<Map<String, Object>>) s.get("slots")) {
      String http = (String) slot.get("http");
      h.append("<tr><td>").append(slot.get("slot")).append("</td><td>")
          .append(((String) slot.get("owner")).isEmpty() ? "<i>not served</i>" : esc(slot.get("owner")))
          .append("</td><td>").append(http.isEmpty() ? "—" : "<a href=\"http://" + esc(http) + "/\">" + esc(http) + "</a>")
          .append("</td><td>").append(esc(slot.get("entries"))).append("</td><td>none</td><td>none</td></tr>");
    }
    h.append("</table></section>\n");

    h.append("<section id=\"operations\"><h2>Operations</h2><p>latency percentiles over the last completed window")
        .append(" (indexfs.metrics.window-ms)</p><table><tr><th>operation</th><th>calls</th>")
        .append("<th>errors</th><th>p50 µs</th><th>p99 µs</th></tr>");
    for (Map<String, Object> op : (List<Map<String, Object>>) s.get("operations")) {
      h.append("<tr><td>").append(op.get("op")).append("</td><td>").append(op.get("count")).append("</td><td>")
          .append(op.get("errors")).append("</td><td>").append(op.get("p50Micros")).append("</td><td>")
          .append(op.get("p99Micros")).append("</td></tr>");
    }
    h.append("</table></section>\n");

    LargestDirectories.Result dirs = (LargestDirectories.Result) s.get("largestDirectories");
    h.append("<section id=\"directories\"><h2>Largest directories here</h2><table><tr><th>directory</th>")
        .append("<th>id</th><th>entries here</th><th>home</th><th>partition here</th><th>partitions known</th></tr>");
    for (LargestDirectories.Directory d : dirs.directories()) {
      h.append("<tr><td>").append(esc(d.path())).append("</td><td>").append(d.id()).append("</td><td>")
          .append(d.entries()).append("</td><td>").append(d.homeSlot() < 0 ? "—" : "slot " + d.homeSlot())
          .append("</td><td>").append(d.partitionHere() < 0 ? "—" : d.partitionHere()).append("</td><td>")
          .append(esc(String.join(", ", d.partitions()))).append("</td></tr>");
    }
    h.append("</table>").append(dirs.truncated() ? "<p>(first " + dirs.scanned() + " entries scanned)</p>" : "")
        .append("</section>\n");

    h.append("<section id=\"splits\"><h2>Recent splits</h2><table><tr><th>finished</th><th>directory</th>")
        .append("<th>partition</th><th>entries moved</th><th>to</th><th>took</th></tr>");
    for (Map<String, Object> sp : (List<Map<String, Object>>) s.get("recentSplits")) {
      h.append("<tr><td>").append(Instant.ofEpochMilli((Long) sp.get("finishedMs"))).append("</td><td>")
          .append(sp.get("directory")).append("</td><td>").append(sp.get("partition")).append("</td><td>")
          .append(sp.get("entriesMoved")).append("</td><td>slot ").append(sp.get("toSlot")).append("</td><td>")
          .append(sp.get("durationMs")).append(" ms</td></tr>");
    }
    h.append("</table></section>\n");

    h.append("<section id=\"standbys\"><h2>Standbys</h2>");
    @SuppressWarnings("unchecked")
    List<String> standbys = (List<String>) s.get("standbys");
    if (standbys.isEmpty()) {
      h.append("<p>none: no server follows this slot's journal (start one with bin/indexfs server --standby)</p>");
    } else {
      h.append("<ul>");
      for (String sb : standbys) {
        h.append("<li>").append(esc(sb)).append("</li>");
      }
      h.append("</ul>");
    }
    h.append("</section>\n");
    h.append("<footer><a href=\"status.json\">status.json</a> · <a href=\"prom\">/prom</a> (Prometheus)</footer>\n");
    h.append("<script>").append(SCRIPT).append("</script>\n</body></html>\n");
    return h.toString();
  }

  private static void row(StringBuilder h, String name, Object value) {
    h.append("<tr><th>").append(name).append("</th><td>").append(value).append("</td></tr>");
  }

  private static String esc(Object o) {
    return escapeHtml4(String.valueOf(o));
  }

  private static long max(long[] rates) {
    long m = 0;
    for (long r : rates) {
      m = Math.max(m, r);
    }
    return m;
  }

  private static String uptime(long ms) {
    Duration d = Duration.ofMillis(Math.max(0, ms));
    return d.toHours() + "h " + d.toMinutesPart() + "m " + d.toSecondsPart() + "s";
  }

  /** The rate chart: one point per second, scaled to the peak; the script redraws it the same way. */
  static String chart(long[] rates) {
    long peak = Math.max(1, max(rates));
    StringBuilder points = new StringBuilder();
    for (int i = 0; i < rates.length; i++) {
      // Right-aligned: the newest second is at "now", however little history there is.
      double x = (double) (RateHistory.SECONDS - rates.length + i) * CHART_WIDTH / (RateHistory.SECONDS - 1);
      double y = CHART_HEIGHT - (double) rates[i] * (CHART_HEIGHT - 10) / peak;
      points.append(String.format("%.1f,%.1f ", x, y));
    }
    return "<svg id=\"chart\" width=\"" + CHART_WIDTH + "\" height=\"" + CHART_HEIGHT + "\" viewBox=\"0 0 "
        + CHART_WIDTH + " " + CHART_HEIGHT + "\" role=\"img\" aria-label=\"operations per second\">"
        + "<rect width=\"100%\" height=\"100%\" fill=\"#f7f9fc\" stroke=\"#ccd\"/>"
        + "<text id=\"chart-peak\" x=\"4\" y=\"12\" font-size=\"10\" fill=\"#667\">" + peak + "/s</text>"
        + "<text x=\"4\" y=\"" + (CHART_HEIGHT - 4) + "\" font-size=\"10\" fill=\"#667\">−" + RateHistory.SECONDS
        + " s</text><text x=\"" + (CHART_WIDTH - 24) + "\" y=\"" + (CHART_HEIGHT - 4)
        + "\" font-size=\"10\" fill=\"#667\">now</text>"
        + "<polyline id=\"rate-line\" fill=\"none\" stroke=\"#2463c4\" stroke-width=\"2\" points=\""
        + points.toString().trim() + "\"/></svg>";
  }

  private static final String CSS = "body{font-family:sans-serif;margin:0 2em 2em;color:#222}"
      + "header{border-bottom:2px solid #2463c4;margin-bottom:1em}h1{font-size:1.4em;margin:.6em 0 .2em}"
      + "h2{font-size:1.1em;margin:1.2em 0 .4em}table{border-collapse:collapse}"
      + "td,th{border:1px solid #ccd;padding:.25em .6em;text-align:left;font-size:.9em}th{background:#eef2f8}"
      + ".on{color:#fff;background:#c0392b;padding:0 .4em}.off{color:#2a7d2a}footer{margin-top:2em;font-size:.85em}";

  /** Redraws the chart and the live numbers from status.json every two seconds. */
  private static final String SCRIPT = "const W=" + CHART_WIDTH + ",H=" + CHART_HEIGHT + ",N="
      + RateHistory.SECONDS + ";"
      + "function draw(r){const p=Math.max(1,...r);document.getElementById('rate-line').setAttribute('points',"
      + "r.map((v,i)=>((N-r.length+i)*W/(N-1)).toFixed(1)+','+(H-v*(H-10)/p).toFixed(1)).join(' '));"
      + "document.getElementById('rate-now').textContent=r.length?r[r.length-1]:0;"
      + "document.getElementById('rate-max').textContent=Math.max(0,...r);"
      + "document.getElementById('chart-peak').textContent=p+'/s';}"
      + "async function tick(){try{const s=await (await fetch('status.json')).json();draw(s.rates);"
      + "document.getElementById('served').textContent=s.overview.operationsServed;"
      + "document.getElementById('entries').textContent=s.overview.entries;"
      + "const m=document.getElementById('safemode');m.className=s.overview.safeMode?'on':'off';"
      + "m.textContent='safe mode '+(s.overview.safeMode?'ON':'off');"
      + "document.body.dataset.updated=s.overview.nowMs;}catch(e){}}"
      + "setInterval(tick,2000);";
}
