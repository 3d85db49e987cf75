package org.indexfs.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Scratch directories benchmarks make for their clusters and stores, removed after each run. */
public final class WorkDirs {
  private WorkDirs() {}

  /** Deletes {@code dir} and everything below it; nothing if it does not exist. */
  public static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
