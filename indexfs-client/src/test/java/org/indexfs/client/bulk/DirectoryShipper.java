package org.indexfs.client.bulk;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/** Ships published SST files into a local-directory data tier (the embedded cluster's), as the adapter does on HDFS. */
public final class DirectoryShipper implements SstShipper {
  private final Path dataDir;

  public DirectoryShipper(String dataUri) {
    this.dataDir = Path.of(URI.create(dataUri.startsWith("file:") ? dataUri : "file://" + dataUri));
  }

  @Override
  public String ship(Path local) throws IOException {
    String name = ".publish/" + UUID.randomUUID() + ".sst";
    Files.createDirectories(dataDir.resolve(".publish"));
    Files.copy(local, dataDir.resolve(name));
    return name;
  }

  @Override
  public void discard(String name) {
    try {
      Files.deleteIfExists(dataDir.resolve(name));
    } catch (IOException e) {
      // the server's scrubbing is not needed for these: tests only
    }
  }
}
