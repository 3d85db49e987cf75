package org.indexfs.hadoop;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.fs.FSDataOutputStream;

/**
 * Durability {@code client-journal} (issue 18, DeltaFS's client-side journals; Cudele's "local
 * persist" into the object store): a client working in a localized subtree appends each operation
 * it does there to its own journal on the data tier and hflushes it before the call returns, so
 * when the client dies before publishing, another client can replay the journal
 * ({@link JournalReplay}) and the work appears. The journal is dropped once the subtree is published
 * and released. One journal per client and subtree, in its user's own directory (0700, made by the
 * user under the servers' {@code .client-journals}, 1733), the journal 0600 from its creation:
 * {@code <data.uri>/.client-journals/<user>/<subtree path, URL-encoded>/<client id>}. Nobody else
 * reads what a journal holds, and a replay runs only journals of the replaying user (issue 31).
 *
 * <p>Records: {@code int length | bytes}, the bytes a {@link DataOutputStream} of one operation; a
 * torn last record (the client died mid-write) ends the journal.
 */
final class ClientJournal implements AutoCloseable {
  static final String DIR = org.indexfs.common.ObjectNames.CLIENT_JOURNALS_ROOT;
  static final byte MKDIR = 1;
  static final byte FILE = 2;
  static final byte RENAME = 3;
  static final byte DELETE = 4;

  private final DataObjects objects;
  private final String name;
  private final FSDataOutputStream out;

  private ClientJournal(DataObjects objects, String name, FSDataOutputStream out) {
    this.objects = objects;
    this.name = name;
    this.out = out;
  }

  /** The directory of {@code user}'s journals, relative to the data tier. */
  static String userDirectory(String user) {
    return DIR + "/" + URLEncoder.encode(user, StandardCharsets.UTF_8);
  }

  /** The folder of {@code user}'s journals of {@code root}, relative to the data tier. */
  static String folderOf(String user, String root) {
    return userDirectory(user) + "/" + URLEncoder.encode(root, StandardCharsets.UTF_8);
  }

  static ClientJournal open(DataObjects objects, String root, String clientId) throws IOException {
    objects.privateDirectory(userDirectory(objects.user()));
    String name = folderOf(objects.user(), root) + "/" + URLEncoder.encode(clientId, StandardCharsets.UTF_8);
    return new ClientJournal(objects, name, objects.create(name, (short) 3, 128L << 20));
  }

  synchronized void mkdir(String path, int permission) throws IOException {
    append(d -> {
      d.writeByte(MKDIR);
      d.writeUTF(path);
      d.writeShort(permission);
    });
  }

  /** A closed file: its bytes inline, or the data object that holds them. */
  synchronized void file(String path, int permission, short replication, long blockSize, long length, byte[] inline,
      String object) throws IOException {
    append(d -> {
      d.writeByte(FILE);
      d.writeUTF(path);
      d.writeShort(permission);
      d.writeShort(replication);
      d.writeLong(blockSize);
      d.writeLong(length);
      d.writeBoolean(inline != null);
      if (inline != null) {
        d.writeInt(inline.length);
        d.write(inline);
      } else {
        d.writeUTF(object);
      }
    });
  }

  /**
   * A file written in a decoupled copy: once closed, its bytes (held in the copy's scratch space,
   * which dies with the client) go into the journal inline, so a replay can make the file.
   */
  static java.io.OutputStream journaledCopyFile(java.io.OutputStream out, ClientJournal journal,
      org.indexfs.hadoop.decoupled.PrivateCopy copy, String path, int permission, short replication, long blockSize) {
    return new java.io.FilterOutputStream(out) {
      private boolean closed;

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        if (closed) {
          return;
        }
        closed = true;
        super.close();
        byte[] bytes = copy.readWritten(path);
        journal.file(path, permission, replication, blockSize, bytes.length, bytes, null);
      }
    };
  }

  synchronized void rename(String src, String dst) throws IOException {
    append(d -> {
      d.writeByte(RENAME);
      d.writeUTF(src);
      d.writeUTF(dst);
    });
  }

  synchronized void delete(String path, boolean recursive) throws IOException {
    append(d -> {
      d.writeByte(DELETE);
      d.writeUTF(path);
      d.writeBoolean(recursive);
    });
  }

  private interface Body {
    void write(DataOutputStream d) throws IOException;
  }

  private void append(Body body) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream d = new DataOutputStream(bytes)) {
      body.write(d);
    }
    out.writeInt(bytes.size());
    bytes.writeTo(out);
    // The operation is acknowledged only once its record reached the data tier's replicas.
    out.hflush();
  }

  /** The work is published and the lease released: nothing here needs replaying any more. */
  void drop() throws IOException {
    out.close();
    objects.deleteQuietly(name);
  }

  @Override
  public void close() throws IOException {
    out.close();
  }

  /** One record read back: its bytes, or null at the end (or a torn last record). */
  static DataInputStream next(DataInputStream in) throws IOException {
    try {
      int length = in.readInt();
      byte[] record = new byte[length];
      in.readFully(record);
      return new DataInputStream(new java.io.ByteArrayInputStream(record));
    } catch (EOFException end) {
      return null;
    }
  }
}
