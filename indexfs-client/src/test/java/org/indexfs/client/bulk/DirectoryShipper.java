package org.indexfs.client.bulk;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.UUID;

/**
 * Ships published SST files into a local-directory data tier (the embedded cluster's), as the
 * adapter does on HDFS: into the holder's own publish directory, made 0700, the file 0600.
 */
public final class DirectoryShipper implements SstShipper {
  private final Path dataDir;

  public DirectoryShipper(String dataUri) {
    this.dataDir = Path.of(URI.create(dataUri.startsWith("file:") ? dataUri : "file://" + dataUri));
  }

  @Override
  public String ship(Path local, String directory) throws IOException {
    Path dir = dataDir.resolve(directory);
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(dir.getParent());
      Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    String name = directory + "/" + UUID.randomUUID() + ".sst";
    Files.createFile(dataDir.resolve(name), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.copy(local, dataDir.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
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
