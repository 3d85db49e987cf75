package org.indexfs.server.xattr;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.indexfs.proto.XAttr;
import org.indexfs.server.store.AttrTable.XAttrValue;

/**
 * HDFS's rules for extended attributes (FSDirXAttrOp, XAttrPermissionFilter): the five namespaces
 * ({@code user.} for everyone the file's permissions allow, {@code trusted.} for the superuser,
 * {@code security.} only for the one attribute HDFS defines there, {@code raw.} and {@code system.}
 * for nobody outside HDFS's own {@code /.reserved/raw} paths, which IndexFS does not have), the
 * size and count limits, and their messages.
 */
public final class XAttrRules {
  /** The one {@code security.} attribute users may set (without a value): files it marks are unreadable by the superuser. */
  public static final String UNREADABLE_BY_SUPERUSER = "security.hdfs.unreadable.by.superuser";

  private final boolean enabled;
  private final int maxPerInode;
  private final int maxSize;

  public XAttrRules(boolean enabled, int maxPerInode, int maxSize) {
    this.enabled = enabled;
    this.maxPerInode = maxPerInode;
    this.maxSize = maxSize;
  }

  public int maxPerInode() {
    return maxPerInode;
  }

  /** {@code user.name}: the namespace in lower case, as HDFS prints and stores it. */
  public static String prefixed(XAttr x) {
    return x.getNamespace().name().toLowerCase(Locale.ROOT) + "." + x.getName();
  }

  /** The wire form of a stored attribute. */
  public static XAttr toProto(XAttrValue stored, boolean withValue) {
    int dot = stored.name().indexOf('.');
    XAttr.Builder b = XAttr.newBuilder()
        .setNamespace(XAttr.NameSpace.valueOf(stored.name().substring(0, dot).toUpperCase(Locale.ROOT)))
        .setName(stored.name().substring(dot + 1));
    if (withValue && stored.value() != null) {
      b.setValue(com.google.protobuf.ByteString.copyFrom(stored.value()));
    }
    return b.build();
  }

  public void checkEnabled() throws IndexFsException {
    if (!enabled) {
      throw new IndexFsException(Code.REFUSED, "The XAttr operation has been rejected.  Support for XAttrs"
          + " has been disabled by setting indexfs.xattrs.enabled to false.");
    }
  }

  /** The name and value together must fit in {@code indexfs.fs-limits.max-xattr-size}. */
  public void checkSize(XAttr x) throws IndexFsException {
    int size = x.getName().getBytes(StandardCharsets.UTF_8).length + (x.hasValue() ? x.getValue().size() : 0);
    if (size > maxSize) {
      throw new IndexFsException(Code.REMOTE_ILLEGAL_ARGUMENT, "The XAttr is too big. The maximum combined size of the"
          + " name and value is " + maxSize + ", but the total size is " + size);
    }
  }

  /** May {@code x} be named at all by this caller, whatever the path (XAttrPermissionFilter.checkPermissionForApi)? */
  public void checkNamespace(boolean superuser, XAttr x) throws IndexFsException {
    XAttr.NameSpace ns = x.getNamespace();
    if (ns == XAttr.NameSpace.USER || (ns == XAttr.NameSpace.TRUSTED && superuser)) {
      return;
    }
    if (prefixed(x).equals(UNREADABLE_BY_SUPERUSER)) {
      if (x.hasValue()) {
        throw new IndexFsException(Code.ACCESS_DENIED, "Attempt to set a value for '" + UNREADABLE_BY_SUPERUSER
            + "'. Values are not allowed for this xattr.");
      }
      return;
    }
    throw new IndexFsException(Code.ACCESS_DENIED, "User doesn't have permission for xattr: " + prefixed(x));
  }

  /** What this caller may see of {@code all} (XAttrPermissionFilter.filterXAttrsForApi). */
  public static List<XAttrValue> visible(boolean superuser, List<XAttrValue> all) {
    List<XAttrValue> out = new ArrayList<>(all.size());
    for (XAttrValue x : all) {
      String name = x.name();
      if (name.startsWith("user.") || (superuser && name.startsWith("trusted."))
          || name.equals(UNREADABLE_BY_SUPERUSER)) {
        out.add(x);
      }
    }
    return out;
  }

  /** Counted against {@code max-xattrs-per-inode}: the namespaces users see. */
  public static boolean userVisible(String prefixedName) {
    return prefixedName.startsWith("user.") || prefixedName.startsWith("trusted.");
  }
}
