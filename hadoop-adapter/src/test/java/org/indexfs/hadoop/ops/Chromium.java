package org.indexfs.hadoop.ops;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Debian's headless Chromium, driven from a test: a fresh profile each time, no sandbox (tests run
 * as root in CI), nothing fetched from the network but the page itself.
 */
final class Chromium {
  private static final long TIMEOUT_SECONDS = 120;

  private Chromium() {}

  /** The page's DOM after it loaded and its scripts ran for {@code virtualTimeMs} of virtual time. */
  static String dumpDom(String url, int virtualTimeMs) throws IOException, InterruptedException {
    return run(List.of("--virtual-time-budget=" + virtualTimeMs, "--dump-dom", url), null);
  }

  /** A PNG of the page at {@code width x height}. */
  static void screenshot(String url, Path png, int width, int height) throws IOException, InterruptedException {
    Files.createDirectories(png.toAbsolutePath().getParent());
    run(List.of("--window-size=" + width + "," + height, "--hide-scrollbars", "--screenshot=" + png.toAbsolutePath(),
        url), png);
    if (!Files.exists(png)) {
      throw new IOException("Chromium wrote no screenshot to " + png);
    }
  }

  private static String run(List<String> args, Path expectedFile) throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory("chromium-profile-");
    List<String> cmd = new ArrayList<>(List.of(binary(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--user-data-dir=" + profile));
    cmd.addAll(args);
    Path stdout = Files.createTempFile("chromium-out-", ".html");
    Path stderr = Files.createTempFile("chromium-err-", ".log");
    try {
      Process p = new ProcessBuilder(cmd).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
      if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor();
        throw new IOException("Chromium did not finish within " + TIMEOUT_SECONDS + " s: " + cmd);
      }
      String out = Files.readString(stdout, StandardCharsets.UTF_8);
      if (p.exitValue() != 0 && (expectedFile == null || !Files.exists(expectedFile))) {
        throw new IOException("Chromium exited " + p.exitValue() + ": " + Files.readString(stderr, StandardCharsets.UTF_8));
      }
      return out;
    } finally {
      Files.deleteIfExists(stdout);
      Files.deleteIfExists(stderr);
      try (Stream<Path> tree = Files.walk(profile)) {
        tree.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }

  /** Debian's chromium on the PATH; CI installs it ({@code .ci/run}), a developer with {@code apt-get install -y chromium}. */
  private static String binary() throws IOException {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
      Path p = Path.of(dir, "chromium");
      if (Files.isExecutable(p)) {
        return p.toString();
      }
    }
    throw new IOException("No chromium on the PATH: install Debian's chromium (apt-get install -y chromium)");
  }
}
