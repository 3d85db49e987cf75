package org.indexfs.hadoop;

import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.fs.ClusterStorageCapacityExceededException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.InvalidPathException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.PathIsNotDirectoryException;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.hdfs.server.namenode.SafeModeException;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.authorize.AuthorizationException;
import org.indexfs.common.IndexFsException;

/**
 * The one place where IndexFS result codes become the exceptions HDFS users expect
 * (DESIGN §9). Invalid paths and arguments are unchecked, as HDFS's are. Lease refusals arrive as
 * {@link RemoteException}s naming HDFS's exception class, exactly as DistributedFileSystem's
 * create, append and close let them through, so code that inspects or unwraps them keeps working.
 */
final class HadoopErrors {
  /** InvalidPathException(path) prepends this; the server's message already starts with it. */
  private static final String INVALID_PATH_PREFIX = "Invalid path name ";

  private HadoopErrors() {}

  static IOException toHadoop(IOException e) {
    if (!(e instanceof IndexFsException ie)) {
      return e;
    }
    String m = ie.getMessage();
    IOException mapped = switch (ie.code()) {
      case FILE_NOT_FOUND, IS_DIRECTORY -> new FileNotFoundException(m);
      case FILE_ALREADY_EXISTS -> new FileAlreadyExistsException(m);
      case PARENT_NOT_DIRECTORY -> new ParentNotDirectoryException(m);
      // HDFS's client rebuilds the NameNode's exception from its text, which carries the server's
      // stack trace after the message: the first line reads "``/d is non empty': Directory is not
      // empty", and so does ours (without a trace to show, the line break stands for it).
      case DIRECTORY_NOT_EMPTY -> new PathIsNotEmptyDirectoryException(m + "\n");
      case NOT_DIRECTORY -> new PathIsNotDirectoryException(m);
      case ACCESS_DENIED -> new AccessControlException(m);
      // The NameNode's PathComponentTooLongException, which DFSClient does not unwrap for any call.
      // (A NameNode class, not on a client's classpath: named as the RemoteException names it.)
      case PATH_COMPONENT_TOO_LONG -> new RemoteException(
          "org.apache.hadoop.hdfs.protocol.FSLimitException$PathComponentTooLongException", m);
      case INVALID_PATH -> throw unchecked(new InvalidPathException(withoutPrefix(m, INVALID_PATH_PREFIX)), ie);
      case INVALID_ARGUMENT -> throw unchecked(new HadoopIllegalArgumentException(m), ie);
      case ALREADY_BEING_CREATED -> new RemoteException(AlreadyBeingCreatedException.class.getName(), m);
      case RECOVERY_IN_PROGRESS -> new RemoteException("org.apache.hadoop.hdfs.protocol.RecoveryInProgressException", m);
      case LEASE_EXPIRED -> new RemoteException("org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException", m);
      // The NameNode's own refusals, which DFSClient lets through as RemoteExceptions naming them.
      case NOT_AUTHORIZED -> new RemoteException(AuthorizationException.class.getName(), m);
      case RESERVED_NAME -> new RemoteException(HadoopIllegalArgumentException.class.getName(), m);
      case RESERVED_PATH -> new RemoteException(InvalidPathException.class.getName(), m);
      case UNSUPPORTED -> throw new UnsupportedOperationException(m);
      // What the NameNode refuses with a plain IOException reaches HDFS clients wrapped, unchanged.
      case REFUSED, RENAME_REFUSED -> new RemoteException(IOException.class.getName(), m);
      // HDFS refuses these renames with plain IOExceptions carrying exactly such messages. Every
      // other code is the servers' business: the message says what happened, no code name.
      // DFSClient unwraps the NameNode's SafeModeException for every mutation, so callers see it as is.
      case SAFE_MODE -> new SafeModeException(m);
      // What the NameNode throws and DFSClient does not unwrap arrives as a RemoteException naming it.
      case REMOTE_ILLEGAL_ARGUMENT -> new RemoteException(org.apache.hadoop.HadoopIllegalArgumentException.class.getName(), m);
      case ACL_INVALID -> new org.apache.hadoop.hdfs.protocol.AclException(m);
      case NS_QUOTA_EXCEEDED -> new org.apache.hadoop.hdfs.protocol.NSQuotaExceededException(m);
      case DS_QUOTA_EXCEEDED -> new org.apache.hadoop.hdfs.protocol.DSQuotaExceededException(m);
      case SNAPSHOT_READ_ONLY -> new org.apache.hadoop.hdfs.protocol.SnapshotAccessControlException(m);
      case SNAPSHOT -> new RemoteException("org.apache.hadoop.hdfs.protocol.SnapshotException", m);
      case REMOTE_JAVA_ILLEGAL_ARGUMENT -> new RemoteException(IllegalArgumentException.class.getName(), m);
      case REMOTE_NOT_DIRECTORY -> new RemoteException(PathIsNotDirectoryException.class.getName(), m);
      case XATTR_NOT_FOUND -> new RemoteException(org.apache.hadoop.hdfs.protocol.XAttrNotFoundException.class.getName(), m);
      // A slot's metadata disk is full: HDFS's exception for storage capacity exceeded (the parent of
      // its quota exceptions), which MapReduce treats as fatal rather than retrying tasks (MAPREDUCE-7148).
      case NO_SPACE -> new ClusterStorageCapacityExceededException(m);
      default -> new IOException(m);
    };
    mapped.initCause(ie);
    return mapped;
  }

  /**
   * What DistributedFileSystem's caller sees of {@code e}: DFSClient receives every NameNode refusal
   * as a RemoteException and unwraps, per call, only the classes it lists ({@code unwrapped}; none
   * listed: all, as its snapshot calls do). Hadoop's own {@link RemoteException#unwrapRemoteException}
   * decides, on the exception this adapter maps the server's code to.
   */
  @SafeVarargs
  static IOException asDfsClient(IOException e, Class<? extends IOException>... unwrapped) {
    RemoteException remote;
    if (e instanceof RemoteException r) {
      remote = r;
    } else if (e.getCause() instanceof IndexFsException) {
      remote = new RemoteException(e.getClass().getName(), e.getMessage());
      remote.initCause(e.getCause());
    } else {
      return e; // not a server's refusal (a connection that broke, …): as it is
    }
    return unwrapped.length == 0 ? remote.unwrapRemoteException() : remote.unwrapRemoteException(unwrapped);
  }

  private static RuntimeException unchecked(RuntimeException mapped, IndexFsException cause) {
    mapped.initCause(cause);
    return mapped;
  }

  private static String withoutPrefix(String message, String prefix) {
    return message.startsWith(prefix) ? message.substring(prefix.length()) : message;
  }
}
