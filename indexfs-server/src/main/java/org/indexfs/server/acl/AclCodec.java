package org.indexfs.server.acl;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * The stored form of an ACL: HDFS's AclFeature entries (named users, the unnamed group entry,
 * named groups, then the default entries; the owner, mask and other of the access ACL live in the
 * permission bits), one byte per entry — scope, type, permission and whether a name follows — and
 * the name as UTF-8 with a two-byte length. Names, not the slot's interned ids: the bytes travel
 * between slots with entries and partition records.
 */
public final class AclCodec {
  private static final int DEFAULT = 0x80;
  private static final int NAMED = 0x08;

  private AclCodec() {}

  public static byte[] encode(List<AclEntry> entries) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(entries.size() * 8);
    for (AclEntry e : entries) {
      int head = (e.getScope() == AclEntryScope.DEFAULT ? DEFAULT : 0) | (e.getType().ordinal() << 4)
          | (e.getName() != null ? NAMED : 0) | e.getPermission().ordinal();
      out.write(head);
      if (e.getName() != null) {
        byte[] name = e.getName().getBytes(StandardCharsets.UTF_8);
        out.write(name.length >>> 8);
        out.write(name.length & 0xff);
        out.writeBytes(name);
      }
    }
    return out.toByteArray();
  }

  public static List<AclEntry> decode(byte[] stored) {
    List<AclEntry> out = new ArrayList<>();
    if (stored == null) {
      return out;
    }
    ByteBuffer b = ByteBuffer.wrap(stored);
    while (b.hasRemaining()) {
      int head = b.get() & 0xff;
      AclEntry.Builder e = new AclEntry.Builder()
          .setScope((head & DEFAULT) != 0 ? AclEntryScope.DEFAULT : AclEntryScope.ACCESS)
          .setType(AclEntryType.values()[(head >> 4) & 3])
          .setPermission(FsAction.values()[head & 7]);
      if ((head & NAMED) != 0) {
        int len = b.getShort() & 0xffff;
        byte[] name = new byte[len];
        b.get(name);
        e.setName(new String(name, StandardCharsets.UTF_8));
      }
      out.add(e.build());
    }
    return out;
  }

  public static org.indexfs.proto.AclEntry toProto(AclEntry e) {
    org.indexfs.proto.AclEntry.Builder b = org.indexfs.proto.AclEntry.newBuilder()
        .setScope(org.indexfs.proto.AclEntry.Scope.forNumber(e.getScope().ordinal()))
        .setType(org.indexfs.proto.AclEntry.Type.forNumber(e.getType().ordinal()))
        .setPermission(e.getPermission().ordinal());
    if (e.getName() != null) {
      b.setName(e.getName());
    }
    return b.build();
  }

  public static AclEntry fromProto(org.indexfs.proto.AclEntry p) {
    AclEntry.Builder b = new AclEntry.Builder().setScope(AclEntryScope.values()[p.getScope().getNumber()])
        .setType(AclEntryType.values()[p.getType().getNumber()]).setPermission(FsAction.values()[p.getPermission() & 7]);
    if (p.hasName()) {
      b.setName(p.getName());
    }
    return b.build();
  }
}
