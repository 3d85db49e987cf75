package org.indexfs.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * PNG charts of a report (XChart): its curves as line charts, then throughput and latency
 * percentiles per operation as bars, one series per target.
 */
final class Charts {
  private Charts() {}

  /** Writes the charts into {@code dir} and returns their file names. */
  static List<String> write(BenchReport report, Path dir) throws IOException {
    List<String> files = new ArrayList<>();
    for (Curve c : report.curves()) {
      files.add(line(c, dir));
    }
    if (report.runs().isEmpty() || report.operations().isEmpty()) {
      return files;
    }
    files.add(report.mixed()
        ? bar(report, List.of(report.runs().get(0).total().op()), dir, "throughput.png", "Throughput of the whole run",
            "operations / second", OpMetrics::opsPerSecond)
        : bar(report, report.operations(), dir, "throughput.png", "Throughput per operation", "operations / second",
            OpMetrics::opsPerSecond));
    files.add(bar(report, report.operations(), dir, "latency-p50.png", "Median latency per operation", "microseconds", m -> m.p50()));
    files.add(bar(report, report.operations(), dir, "latency-p99.png", "99th percentile latency per operation", "microseconds", m -> m.p99()));
    return files;
  }

  private static String line(Curve c, Path dir) throws IOException {
    XYChart chart = new XYChartBuilder().width(900).height(500).title(c.title()).xAxisTitle(c.xTitle())
        .yAxisTitle(c.yTitle()).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    chart.getStyler().setXAxisLogarithmic(c.logX());
    chart.getStyler().setXAxisDecimalPattern("#");
    for (var s : c.series().entrySet()) {
      chart.addSeries(s.getKey(), c.xs(), s.getValue()).setMarker(SeriesMarkers.CIRCLE);
    }
    BitmapEncoder.saveBitmap(chart, dir.resolve(c.file()).toString(), BitmapEncoder.BitmapFormat.PNG);
    return c.file();
  }

  private static String bar(BenchReport report, List<String> ops, Path dir, String file, String title,
      String yTitle, ToDoubleFunction<OpMetrics> value) throws IOException {
    CategoryChart chart = new CategoryChartBuilder().width(1000).height(500).title(title)
        .xAxisTitle("operation").yAxisTitle(yTitle).build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
    chart.getStyler().setXAxisLabelRotation(30);
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    List<List<Double>> series = new ArrayList<>();
    double min = Double.MAX_VALUE;
    double max = 0;
    for (TargetRun run : report.runs()) {
      List<Double> ys = new ArrayList<>();
      for (String op : ops) {
        OpMetrics m = run.op(op);
        double y = m == null ? 0.0 : value.applyAsDouble(m);
        ys.add(y);
        min = Math.min(min, y);
        max = Math.max(max, y);
      }
      series.add(ys);
    }
    // Metadata operations differ by orders of magnitude (a listing entry vs a durable create):
    // on a linear axis the fast ones flatten the rest, so wide ranges get a log axis.
    if (min > 0 && max / min >= 50) {
      chart.getStyler().setYAxisLogarithmic(true);
      // Bars grow from the axis minimum, which a log axis cannot put at zero.
      chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(min))));
      chart.setTitle(title + " (log scale)");
    }
    for (int i = 0; i < series.size(); i++) {
      chart.addSeries(report.runs().get(i).label(), ops, series.get(i));
    }
    BitmapEncoder.saveBitmap(chart, dir.resolve(file).toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }
}
