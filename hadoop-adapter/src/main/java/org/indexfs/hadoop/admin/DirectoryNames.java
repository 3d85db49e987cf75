package org.indexfs.hadoop.admin;

import com.google.protobuf.ByteString;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.indexfs.client.admin.AdminClient;
import org.indexfs.common.InodeIds;
import org.indexfs.proto.FsckEntry;
import org.indexfs.proto.FsckPage;

/** Paths of directories by inode id, from every slot's directory entries (the namespace keeps no reverse index). */
final class DirectoryNames {
  private record Name(long parent, String name) {}

  private final Map<Long, Name> names = new HashMap<>();

  static DirectoryNames read(AdminClient admin) throws IOException {
    DirectoryNames d = new DirectoryNames();
    for (int slot = 0; slot < admin.slotCount(); slot++) {
      ByteString cursor = ByteString.EMPTY;
      do {
        FsckPage page = admin.fsckEntries(slot, cursor, true);
        for (FsckEntry e : page.getEntriesList()) {
          byte[] key = e.getKey().toByteArray();
          if (e.hasStatus() && key.length >= 16) {
            d.names.put(e.getStatus().getInodeId(), new Name(ByteBuffer.wrap(key).getLong(),
                new String(key, 16, key.length - 16, StandardCharsets.UTF_8)));
          }
        }
        cursor = page.getCursor();
      } while (!cursor.isEmpty());
    }
    return d;
  }

  String pathOf(long dirId) {
    StringBuilder path = new StringBuilder();
    long at = dirId;
    for (int depth = 0; depth < 4096 && at != InodeIds.ROOT; depth++) {
      Name n = names.get(at);
      if (n == null) {
        return "<directory " + InodeIds.format(at) + ">" + path;
      }
      path.insert(0, "/" + n.name());
      at = n.parent();
    }
    return path.length() == 0 ? "/" : path.toString();
  }
}
