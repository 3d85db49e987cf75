package org.indexfs.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.apache.hadoop.util.StringUtils;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What the gateway's RPC server sends for an IndexFS refusal is what a NameNode sends: the class
 * HDFS clients unwrap, and as its text IndexFS's message (already the NameNode's words), even for
 * the exceptions that decorate their argument.
 */
class NameNodeErrorsTest {
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "FILE_NOT_FOUND|java.io.FileNotFoundException|File does not exist: /a/b",
      "FILE_ALREADY_EXISTS|org.apache.hadoop.fs.FileAlreadyExistsException|/a for client 127.0.0.1 already exists",
      "PARENT_NOT_DIRECTORY|org.apache.hadoop.fs.ParentNotDirectoryException|/a (is not a directory)",
      "DIRECTORY_NOT_EMPTY|org.apache.hadoop.fs.PathIsNotEmptyDirectoryException|`/d is non empty': Directory is not empty",
      "REMOTE_NOT_DIRECTORY|org.apache.hadoop.fs.PathIsNotDirectoryException|`/f': Is not a directory",
      "ACCESS_DENIED|org.apache.hadoop.security.AccessControlException|Permission denied: user=alice, access=WRITE, inode=\"/p\":root:supergroup:drwxr-xr-x",
      "PATH_COMPONENT_TOO_LONG|org.apache.hadoop.hdfs.protocol.FSLimitException$PathComponentTooLongException|The maximum path component name limit of aaaa in directory /d is exceeded: limit=3 length=4",
      "ALREADY_BEING_CREATED|org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException|Failed to CREATE_FILE /f for c1 because c1 is already the current lease holder.",
      "LEASE_EXPIRED|org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException|No lease on /f (inode 7): File is not open for writing.",
      "SAFE_MODE|org.apache.hadoop.hdfs.server.namenode.SafeModeException|Cannot create directory /x. Name node is in safe mode.",
      "NS_QUOTA_EXCEEDED|org.apache.hadoop.hdfs.protocol.NSQuotaExceededException|The NameSpace quota (directories and files) of directory /q is exceeded: quota=2 file count=3",
      "DS_QUOTA_EXCEEDED|org.apache.hadoop.hdfs.protocol.DSQuotaExceededException|The DiskSpace quota of /q is exceeded: quota = 1 B = 1 B but diskspace consumed = 3 B = 3 B",
      "REFUSED|java.io.IOException|Specified block size is less than configured minimum value",
      "SERVER_BUSY|org.apache.hadoop.ipc.RetriableException|slot 0 is busy",
  })
  void theWireCarriesTheNameNodesClassAndText(String code, String className, String message) {
    IOException e = NameNodeErrors.of(new IndexFsException(Code.valueOf(code), message));
    assertThat(e.getClass().getName()).isEqualTo(className);
    assertThat(wireText(e)).isEqualTo(message);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "INVALID_PATH|org.apache.hadoop.fs.InvalidPathException|Invalid path name /a/:b",
      "INVALID_ARGUMENT|org.apache.hadoop.HadoopIllegalArgumentException|Invalid argument",
      "UNSUPPORTED|java.lang.UnsupportedOperationException|not here",
  })
  void uncheckedOnesAreThrownAsTheNameNodeThrowsThem(String code, String className, String message) {
    RuntimeException thrown = null;
    try {
      NameNodeErrors.of(new IndexFsException(Code.valueOf(code), message));
    } catch (RuntimeException e) {
      thrown = e;
    }
    assertThat(thrown).isNotNull();
    assertThat(thrown.getClass().getName()).isEqualTo(className);
    assertThat(wireText(thrown)).isEqualTo(message);
  }

  /** The first line of the text Hadoop's RPC server sends for {@code t} (Server: stringified, class header removed). */
  private static String wireText(Throwable t) {
    String text = StringUtils.stringifyException(t);
    String header = t.getClass().getName() + ": ";
    if (text.startsWith(header)) {
      text = text.substring(header.length());
    }
    return text.split("\n")[0];
  }
}
