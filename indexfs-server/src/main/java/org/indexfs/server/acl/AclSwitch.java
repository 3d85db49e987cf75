package org.indexfs.server.acl;

import org.indexfs.common.IndexFsException;

/** Whether ACL calls are accepted ({@code indexfs.acls.enabled}), with HDFS's refusal when they are not. */
public record AclSwitch(boolean enabled) {
  public void check() throws IndexFsException {
    if (!enabled) {
      throw AclTransform.invalid("The ACL operation has been rejected.  Support for ACLs has been disabled by setting"
          + " indexfs.acls.enabled to false.");
    }
  }
}
