package org.indexfs.bench.report;

import java.util.List;

/** A titled table of strings, rendered the same way on the terminal, in Markdown and in HTML. */
public record Table(String title, List<String> headers, List<List<String>> rows) {

  /** Fixed-width text for the terminal. */
  public String toText() {
    int[] width = new int[headers.size()];
    for (int i = 0; i < width.length; i++) {
      width[i] = headers.get(i).length();
      for (List<String> r : rows) {
        width[i] = Math.max(width[i], r.get(i).length());
      }
    }
    StringBuilder sb = new StringBuilder(title).append('\n');
    appendRow(sb, headers, width);
    for (int i = 0; i < width.length; i++) {
      sb.append(i == 0 ? "" : "  ").append("-".repeat(width[i]));
    }
    sb.append('\n');
    rows.forEach(r -> appendRow(sb, r, width));
    return sb.toString();
  }

  private static void appendRow(StringBuilder sb, List<String> cells, int[] width) {
    for (int i = 0; i < cells.size(); i++) {
      String c = cells.get(i);
      sb.append(i == 0 ? "" : "  ");
      // The first column is a name (left-aligned); numbers align right.
      sb.append(i == 0 ? c + " ".repeat(width[i] - c.length()) : " ".repeat(width[i] - c.length()) + c);
    }
    sb.append('\n');
  }

  public String toMarkdown() {
    StringBuilder sb = new StringBuilder("### ").append(title).append("\n\n| ")
        .append(String.join(" | ", headers)).append(" |\n|");
    for (int i = 0; i < headers.size(); i++) {
      sb.append(i == 0 ? "---|" : "---:|");
    }
    sb.append('\n');
    for (List<String> r : rows) {
      sb.append("| ").append(String.join(" | ", r.stream().map(c -> c.replace("|", "\\|")).toList())).append(" |\n");
    }
    return sb.append('\n').toString();
  }

  public String toHtml() {
    StringBuilder sb = new StringBuilder("<h3>").append(Html.escape(title)).append("</h3>\n<table>\n<tr>");
    headers.forEach(h -> sb.append("<th>").append(Html.escape(h)).append("</th>"));
    sb.append("</tr>\n");
    for (List<String> r : rows) {
      sb.append("<tr>");
      for (int i = 0; i < r.size(); i++) {
        sb.append(i == 0 ? "<td>" : "<td class=\"n\">").append(Html.escape(r.get(i))).append("</td>");
      }
      sb.append("</tr>\n");
    }
    return sb.append("</table>\n").toString();
  }
}
