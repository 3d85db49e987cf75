package org.indexfs.hadoop.imports;

import java.io.IOException;

/** Where an import reads a namespace from: a live NameNode ({@link LiveWalk}) or an fsimage ({@link FsImageWalk}). */
interface NamespaceSource {
  /** Receives each entry once, every directory before anything inside it. */
  @FunctionalInterface
  interface Sink {
    void accept(ImportedEntry entry) throws IOException;
  }

  /** Hands the imported directory itself (relPath "") and then everything below it to {@code sink}. */
  void walk(Sink sink) throws IOException;

  /** What the operator is told the entries came from. */
  String describe();
}
