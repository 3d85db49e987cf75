package org.indexfs.it;

import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Runs a job as a fresh UGI of the same user. Committers and tasks find their file system with
 * {@code FileSystem.get}, whose cache is per UGI: the job gets a client of its own, with the
 * settings of its configuration (not those of a client cached earlier in this JVM), closed after.
 */
final class FreshClient {
  private FreshClient() {}

  static <T> T run(PrivilegedExceptionAction<T> job) throws Exception {
    UserGroupInformation ugi =
        UserGroupInformation.createRemoteUser(UserGroupInformation.getCurrentUser().getShortUserName());
    try {
      return ugi.doAs(job);
    } finally {
      FileSystem.closeAllForUGI(ugi);
    }
  }
}
