package org.indexfs.bench.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A line chart of a report (a scaling curve): y per x for each named series, rendered as
 * {@code file} (PNG) next to the report and written into its JSON.
 *
 * @param logX a base-2 logarithmic x axis (slot counts 1, 2, 4, 8 ... evenly spaced)
 */
public record Curve(String file, String title, String xTitle, String yTitle, List<Double> xs,
    Map<String, List<Double>> series, boolean logX) {
  public Curve {
    series = new LinkedHashMap<>(series);
    for (Map.Entry<String, List<Double>> s : series.entrySet()) {
      if (s.getValue().size() != xs.size()) {
        throw new IllegalArgumentException("Series " + s.getKey() + " has " + s.getValue().size()
            + " points for " + xs.size() + " x values");
      }
    }
  }
}
