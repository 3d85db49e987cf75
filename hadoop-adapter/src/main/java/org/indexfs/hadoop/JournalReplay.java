package org.indexfs.hadoop;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.io.IOUtils;

/**
 * Replays the client journals ({@link ClientJournal}) left in a subtree by clients that died before
 * publishing: each journal is claimed first (renamed, so two replayers never both apply it), its
 * operations are run through this FileSystem in order, then it is deleted. Replay is idempotent
 * where it can be: a file already present (published before the crash) is left as it is, a rename
 * whose source is gone is skipped. The caller says the writers are dead: a journal's writer is
 * presumed dead once its localization lease has expired ({@code indexfs.localize.lease-ms}).
 *
 * <p>Only this user's journals are replayed, from this user's own directory (issue 31): a journal
 * is a list of operations run with the replayer's rights, so one planted by anyone else — or found
 * in a directory someone else made — is never run.
 */
final class JournalReplay {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(JournalReplay.class);
  private final FileSystem fs;
  private final DataObjects objects;

  JournalReplay(FileSystem fs, DataObjects objects) {
    this.fs = fs;
    this.objects = objects;
  }

  /** Replays every unclaimed journal of {@code root}; the number of operations applied. */
  long replay(String root, String myClientId) throws IOException {
    FileSystem data = objects.fileSystem();
    String user = objects.user();
    FileStatus mine = objects.statusOrNull(ClientJournal.userDirectory(user));
    FileStatus folderStatus = objects.statusOrNull(ClientJournal.folderOf(user, root));
    if (mine == null || folderStatus == null) {
      return 0;
    }
    if (objects.checksOwners() && !(user.equals(mine.getOwner()) && user.equals(folderStatus.getOwner()))) {
      throw new org.apache.hadoop.security.AccessControlException("The client journals of " + root + " are in "
          + folderStatus.getPath() + ", which does not belong to " + user + ": not replayed");
    }
    Path folder = folderStatus.getPath();
    long applied = 0;
    for (FileStatus journal : data.listStatus(folder)) {
      if (journal.getPath().getName().contains(".replaying-")) {
        continue;
      }
      if (objects.checksOwners() && !(journal.isFile() && user.equals(journal.getOwner()))) {
        LOG.warn("Not replaying {}: it belongs to {}, not to {}", journal.getPath(), journal.getOwner(), user);
        continue;
      }
      Path claimed = new Path(folder, journal.getPath().getName() + ".replaying-" + myClientId);
      if (!data.rename(journal.getPath(), claimed)) {
        continue; // another replayer took it
      }
      try (FSDataInputStream in = data.open(claimed); DataInputStream records = new DataInputStream(in)) {
        for (DataInputStream r; (r = ClientJournal.next(records)) != null; ) {
          applied += apply(r) ? 1 : 0;
        }
      }
      data.delete(claimed, false);
    }
    return applied;
  }

  private boolean apply(DataInputStream r) throws IOException {
    byte op = r.readByte();
    switch (op) {
      case ClientJournal.MKDIR -> {
        String path = r.readUTF();
        return fs.mkdirs(new Path(path), new FsPermission(r.readShort()));
      }
      case ClientJournal.FILE -> {
        Path path = new Path(r.readUTF());
        FsPermission permission = new FsPermission(r.readShort());
        short replication = r.readShort();
        long blockSize = r.readLong();
        long length = r.readLong();
        boolean inline = r.readBoolean();
        byte[] bytes = null;
        String object = null;
        if (inline) {
          bytes = new byte[r.readInt()];
          r.readFully(bytes);
        } else {
          object = r.readUTF();
        }
        if (fs.exists(path)) {
          return false; // published before the writer died
        }
        try (OutputStream out = fs.create(path, permission, false, 4096, replication, blockSize, null)) {
          if (inline) {
            out.write(bytes);
          } else {
            try (InputStream in = objects.open(object, objects.user(), path.toString())) {
              IOUtils.copyBytes(in, out, length, false);
            }
          }
        }
        return true;
      }
      case ClientJournal.RENAME -> {
        Path src = new Path(r.readUTF());
        Path dst = new Path(r.readUTF());
        return fs.exists(src) && fs.rename(src, dst);
      }
      case ClientJournal.DELETE -> {
        Path path = new Path(r.readUTF());
        return fs.delete(path, r.readBoolean());
      }
      default -> throw new IOException("Unknown client journal record " + op);
    }
  }
}
