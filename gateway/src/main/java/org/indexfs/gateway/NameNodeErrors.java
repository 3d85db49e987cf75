package org.indexfs.gateway;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.fs.ClusterStorageCapacityExceededException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.InvalidPathException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.PathIsNotDirectoryException;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.hdfs.protocol.AclException;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.hdfs.protocol.DSQuotaExceededException;
import org.apache.hadoop.hdfs.protocol.FSLimitException.PathComponentTooLongException;
import org.apache.hadoop.hdfs.protocol.NSQuotaExceededException;
import org.apache.hadoop.hdfs.protocol.RecoveryInProgressException;
import org.apache.hadoop.hdfs.protocol.SnapshotAccessControlException;
import org.apache.hadoop.hdfs.protocol.SnapshotException;
import org.apache.hadoop.hdfs.protocol.XAttrNotFoundException;
import org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException;
import org.apache.hadoop.hdfs.server.namenode.SafeModeException;
import org.apache.hadoop.ipc.RetriableException;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.authorize.AuthorizationException;
import org.indexfs.common.IndexFsException;

/**
 * IndexFS result codes as the NameNode's own exceptions, thrown from the gateway's ClientProtocol
 * so Hadoop's RPC server sends their class names and texts exactly as a NameNode would: HDFS
 * clients unwrap them by class name (DFSClient's {@code unwrapRemoteException} lists), and print
 * their text. IndexFS's messages are already the NameNode's text; classes whose {@code getMessage}
 * decorates its argument (Hadoop's PathIOExceptions, PathComponentTooLongException) are given the
 * argument that makes their text the same.
 */
final class NameNodeErrors {
  private static final Pattern NOT_EMPTY = Pattern.compile("`(.*)': Directory is not empty");
  private static final Pattern NOT_DIRECTORY = Pattern.compile("`(.*)': Is not a directory");
  private static final Pattern TOO_LONG = Pattern.compile(
      "The maximum path component name limit of (.*) in directory (.*) is exceeded: limit=(\\d+) length=(\\d+)");
  private static final String INVALID_PATH_PREFIX = "Invalid path name ";

  private NameNodeErrors() {}

  /** {@code e} as the NameNode would have thrown it; anything not from IndexFS's servers passes unchanged. */
  static IOException of(IOException e) {
    if (!(e instanceof IndexFsException ie)) {
      return e;
    }
    String m = ie.getMessage();
    IOException mapped = switch (ie.code()) {
      case FILE_NOT_FOUND, IS_DIRECTORY -> new FileNotFoundException(m);
      case FILE_ALREADY_EXISTS -> new FileAlreadyExistsException(m);
      case PARENT_NOT_DIRECTORY -> new ParentNotDirectoryException(m);
      case DIRECTORY_NOT_EMPTY -> pathException(NOT_EMPTY, m, PathIsNotEmptyDirectoryException::new);
      case NOT_DIRECTORY, REMOTE_NOT_DIRECTORY -> pathException(NOT_DIRECTORY, m, PathIsNotDirectoryException::new);
      case ACCESS_DENIED -> new AccessControlException(m);
      case PATH_COMPONENT_TOO_LONG -> tooLong(m);
      case INVALID_PATH, RESERVED_PATH -> throw unchecked(new InvalidPathException(
          m.startsWith(INVALID_PATH_PREFIX) ? m.substring(INVALID_PATH_PREFIX.length()) : m), ie);
      case INVALID_ARGUMENT, RESERVED_NAME, REMOTE_ILLEGAL_ARGUMENT ->
          throw unchecked(new HadoopIllegalArgumentException(m), ie);
      case REMOTE_JAVA_ILLEGAL_ARGUMENT -> throw unchecked(new IllegalArgumentException(m), ie);
      case UNSUPPORTED -> throw unchecked(new UnsupportedOperationException(m), ie);
      case ALREADY_BEING_CREATED -> new AlreadyBeingCreatedException(m);
      case RECOVERY_IN_PROGRESS -> new RecoveryInProgressException(m);
      case LEASE_EXPIRED -> new LeaseExpiredException(m);
      case NOT_AUTHORIZED -> new AuthorizationException(m);
      case REFUSED, RENAME_REFUSED -> new IOException(m);
      case SAFE_MODE -> new SafeModeException(m);
      case ACL_INVALID -> new AclException(m);
      case NS_QUOTA_EXCEEDED -> new NSQuotaExceededException(m);
      case DS_QUOTA_EXCEEDED -> new DSQuotaExceededException(m);
      case SNAPSHOT_READ_ONLY -> new SnapshotAccessControlException(m);
      case SNAPSHOT -> new SnapshotException(m);
      case XATTR_NOT_FOUND -> new XAttrNotFoundException(m);
      case NO_SPACE -> new ClusterStorageCapacityExceededException(m);
      // A slot changing hands or overloaded for longer than the gateway's client waited: the HDFS
      // client retries, as it does when a NameNode asks it to.
      case SERVER_BUSY, NOT_SERVING -> new RetriableException(m);
      default -> new IOException(m);
    };
    if (!(mapped instanceof org.apache.hadoop.fs.PathIOException)) {
      // A PathIOException prints its cause's message after its own: the NameNode's carry none.
      mapped.initCause(ie);
    }
    return mapped;
  }

  private static RuntimeException unchecked(RuntimeException mapped, IndexFsException cause) {
    mapped.initCause(cause);
    return mapped;
  }

  /** A PathIOException built so that its text is {@code m} again (they print "`path': reason"). */
  private static IOException pathException(Pattern shape, String m, java.util.function.Function<String, IOException> make) {
    Matcher matcher = shape.matcher(m);
    return make.apply(matcher.matches() ? matcher.group(1) : m);
  }

  private static IOException tooLong(String m) {
    Matcher matcher = TOO_LONG.matcher(m);
    if (!matcher.matches()) {
      return new IOException(m);
    }
    return new PathComponentTooLongException(Long.parseLong(matcher.group(3)), Long.parseLong(matcher.group(4)),
        matcher.group(2), matcher.group(1));
  }
}
