package org.indexfs.client.bulk;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Moves a published SST file to the data tier ({@code indexfs.data.uri}), where the localized
 * directory's slot fetches it, as GIGA+ splits ship theirs. The Hadoop adapter ships with the data
 * tier's own client; this module has no Hadoop.
 */
public interface SstShipper {
  /** Copies {@code local} to the data tier; returns its name there (relative to the data URI). */
  String ship(Path local) throws IOException;

  /** Removes a shipped file the server did not take (a publish that failed). */
  void discard(String name);
}
