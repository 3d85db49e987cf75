package org.indexfs.server.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.indexfs.common.IndexFsException;
import org.indexfs.proto.AclEditRequest;
import org.indexfs.proto.Code;
import org.indexfs.proto.DeleteRequest;
import org.indexfs.proto.FlushRequest;
import org.indexfs.proto.PublishRequest;
import org.indexfs.proto.RemoveXAttrRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.SetPolicyRequest;
import org.indexfs.proto.SetQuotaRequest;
import org.indexfs.proto.SetXAttrRequest;
import org.indexfs.proto.SnapshotRequest;
import org.indexfs.proto.StoragePolicyRequest;
import org.indexfs.server.call.RecordingOps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a disk below its reserve the guard refuses what the operation table says grows the store —
 * attributes, ACL additions, quotas, policies, publishes and snapshots included — and lets through
 * what frees space or lets a writer finish. A real {@link DiskSpace} whose reserve no disk has.
 */
class SpaceGuardTraitsTest {
  @TempDir
  Path dir;

  private RecordingOps lowDisk() throws Exception {
    RecordingOps ops = new RecordingOps();
    SpaceGuard.install(ops.ops, new DiskSpace(dir, Long.MAX_VALUE), 3);
    return ops;
  }

  private static void refused(RecordingOps ops, Request r, String what) {
    IndexFsException e = assertThrows(IndexFsException.class, () -> ops.ops.get(r.getOpCase()).apply(r), what);
    assertEquals(Code.NO_SPACE, e.code(), e.getMessage());
    assertTrue(e.getMessage().startsWith("Cannot " + what + ": IndexFS slot 3 is low on metadata space ("), e.getMessage());
    assertTrue(!ops.ran.contains(r.getOpCase()), r.getOpCase() + " ran");
  }

  private static void accepted(RecordingOps ops, Request r) throws Exception {
    ops.ran.clear();
    ops.ops.get(r.getOpCase()).apply(r);
    assertTrue(ops.ran.contains(r.getOpCase()), r.getOpCase() + " was refused: " + r);
  }

  @Test
  void attributesQuotasPoliciesPublishesAndSnapshotsAreRefusedOnAFullDisk() throws Exception {
    RecordingOps ops = lowDisk();
    refused(ops, Request.newBuilder().setSetXattr(SetXAttrRequest.newBuilder().setPath("/f")).build(), "set XAttr on /f");
    refused(ops, Request.newBuilder().setAclEdit(AclEditRequest.newBuilder().setPath("/f")
        .setAction(AclEditRequest.Action.MODIFY)).build(), "modify ACL entries on /f");
    refused(ops, Request.newBuilder().setAclEdit(AclEditRequest.newBuilder().setPath("/f")
        .setAction(AclEditRequest.Action.SET)).build(), "set ACL on /f");
    refused(ops, Request.newBuilder().setSetQuota(SetQuotaRequest.newBuilder().setPath("/d")).build(), "set quota on /d");
    refused(ops, Request.newBuilder().setSetPolicy(SetPolicyRequest.newBuilder().setPath("/d")).build(), "set policy on /d");
    refused(ops, Request.newBuilder().setStoragePolicy(StoragePolicyRequest.newBuilder().setPath("/f")
        .setAction(StoragePolicyRequest.Action.SET)).build(), "set storage policy for /f");
    refused(ops, Request.newBuilder().setStoragePolicy(StoragePolicyRequest.newBuilder().setPath("/f")
        .setAction(StoragePolicyRequest.Action.UNSET)).build(), "unset storage policy for /f");
    refused(ops, Request.newBuilder().setPublish(PublishRequest.newBuilder().setPath("/bulk")).build(), "publish /bulk");
    refused(ops, Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder().setPath("/d")
        .setAction(SnapshotRequest.Action.CREATE)).build(), "create snapshot for /d");
  }

  @Test
  void whatFreesSpaceOrEndsAWriterAndWhatServersSendGoOn() throws Exception {
    RecordingOps ops = lowDisk();
    accepted(ops, Request.newBuilder().setDelete(DeleteRequest.newBuilder().setPath("/f")).build());
    accepted(ops, Request.newBuilder().setRemoveXattr(RemoveXAttrRequest.newBuilder().setPath("/f")).build());
    accepted(ops, Request.newBuilder().setAclEdit(AclEditRequest.newBuilder().setPath("/f")
        .setAction(AclEditRequest.Action.REMOVE)).build());
    accepted(ops, Request.newBuilder().setFlush(FlushRequest.newBuilder().setPath("/f")).build());
    accepted(ops, Request.newBuilder().setStoragePolicy(StoragePolicyRequest.newBuilder().setPath("/f")
        .setAction(StoragePolicyRequest.Action.GET)).build());
    accepted(ops, Request.newBuilder().setPublish(PublishRequest.newBuilder().setPath("/bulk")
        .setPhase(PublishRequest.Phase.COMMIT)).build());
    accepted(ops, Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder().setPath("/d")
        .setAction(SnapshotRequest.Action.DELETE)).build());
    accepted(ops, Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder()
        .setAction(SnapshotRequest.Action.HOLD)).build());
  }
}
