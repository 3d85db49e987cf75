package org.indexfs.server.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The servers' ZooKeeper digest of an embedded cluster ({@code bin/indexfs local}): made once per
 * work directory at random and kept beside ZooKeeper's data, readable by its owner only, so a
 * restart on the same directory (whose ZooKeeper nodes carry its ACL) finds it again. It is what an
 * operator sets as {@code indexfs.security.zookeeper.digest} on a real cluster.
 */
final class ServersDigest {
  private ServersDigest() {}

  static String loadOrCreate(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    if (!Files.exists(file)) {
      byte[] secret = new byte[24];
      new SecureRandom().nextBytes(secret);
      String digest = "indexfs:" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
      try {
        // Created 0600 (never chmod'ed after): the digest is the servers' cluster secret.
        Files.write(Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))),
            (digest + "\n").getBytes(StandardCharsets.UTF_8), StandardOpenOption.TRUNCATE_EXISTING);
        return digest;
      } catch (FileAlreadyExistsException raced) {
        // Another start made it first: read it.
      }
    }
    String digest = Files.readString(file, StandardCharsets.UTF_8).trim();
    if (digest.indexOf(':') <= 0) {
      throw new IOException(file + " does not hold a ZooKeeper digest (user:password)");
    }
    return digest;
  }
}
