package org.indexfs.client.bulk;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Moves a published SST file to the data tier ({@code indexfs.data.uri}), where the localized
 * directory's slot fetches it, as GIGA+ splits ship theirs. The Hadoop adapter ships with the data
 * tier's own client; this module has no Hadoop.
 */
public interface SstShipper {
  /**
   * Copies {@code local} into {@code directory} on the data tier (the holder's own publish
   * directory, relative to the data URI: made by this call if missing, readable and writable by
   * this user only, as the file is from its creation); returns the file's name there. The slot
   * accepts no file anywhere else, nor one this user does not own (issue 31).
   */
  String ship(Path local, String directory) throws IOException;

  /** Removes a shipped file the server did not take (a publish that failed). */
  void discard(String name);

  /** The holder's lease ended: its publish {@code directory} is needed no more (best effort). */
  default void released(String directory) {}
}
