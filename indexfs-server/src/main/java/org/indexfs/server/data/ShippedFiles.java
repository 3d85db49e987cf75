package org.indexfs.server.data;

import java.util.regex.Pattern;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;

/**
 * The only data-tier files a request may name for a server to read, ingest and delete with its
 * own rights (issue 31, item 2: a publish naming a journal checkpoint made the server delete it).
 * A name is never followed as given: it must be a plain file name inside the one directory the
 * request's kind allows — a holder's own publish directory, or the servers' own {@code .splits} and
 * {@code .bulk} — and {@link DataTier#fetchOwned} then checks on the data tier that the file (and
 * its directory) belong to whoever must have written it. A refusal says nothing of the named file:
 * not whether it exists, not a byte of it.
 */
public final class ShippedFiles {
  /** A plain file name: no separator, no "." or "..", nothing a Path would normalise away. */
  private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,254}");

  private ShippedFiles() {}

  /** {@code name} if it is a file a holder shipped into its publish {@code directory}; else refused. */
  public static String published(String name, String directory) throws IndexFsException {
    return inside(name, directory, "A publish may only name a file in its holder's own publish directory");
  }

  /** {@code name} if it is a share a split publish's home shipped into {@code .bulk}; else refused. */
  public static String share(String name) throws IndexFsException {
    return inside(name, DataTierLayout.BULK, "A split publish's share must be a file the servers shipped to "
        + DataTierLayout.BULK);
  }

  /** {@code name} if it is a file a split shipped into {@code .splits} (empty: none); else refused. */
  public static String split(String name) throws IndexFsException {
    return name.isEmpty() ? name : inside(name, DataTierLayout.SPLITS, "A split may only ingest files the servers "
        + "shipped to " + DataTierLayout.SPLITS);
  }

  private static String inside(String name, String directory, String refusal) throws IndexFsException {
    if (directory == null || !name.startsWith(directory + "/")
        || !FILE_NAME.matcher(name.substring(directory.length() + 1)).matches()) {
      throw new IndexFsException(Code.ACCESS_DENIED, refusal + ": nothing was read");
    }
    return name;
  }
}
