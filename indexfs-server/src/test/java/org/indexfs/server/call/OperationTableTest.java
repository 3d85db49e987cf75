package org.indexfs.server.call;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.ArrayList;
import java.util.List;
import org.indexfs.proto.AclEditRequest;
import org.indexfs.proto.PublishRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Request.OpCase;
import org.indexfs.proto.SnapshotRequest;
import org.indexfs.proto.StoragePolicyRequest;
import org.junit.jupiter.api.Test;

/**
 * Every operation of the wire protocol has one row deciding every trait, the rows keep the rules
 * that tie traits together, and the disagreements of the old per-guard lists stay decided.
 */
class OperationTableTest {
  /** Every form of every operation: its request with each value of its action or phase enum. */
  private static List<Request> everyForm() {
    List<Request> forms = new ArrayList<>();
    for (OpCase op : OpCase.values()) {
      if (op == OpCase.OP_NOT_SET) {
        continue;
      }
      FieldDescriptor field = Request.getDescriptor().findFieldByNumber(op.getNumber());
      Message.Builder body = Request.newBuilder().newBuilderForField(field);
      forms.add(Request.newBuilder().setField(field, body.build()).build());
      for (FieldDescriptor f : body.getDescriptorForType().getFields()) {
        if (f.getType() == FieldDescriptor.Type.ENUM && !f.isRepeated()) {
          for (EnumValueDescriptor v : f.getEnumType().getValues()) {
            forms.add(Request.newBuilder().setField(field, body.clone().setField(f, v).build()).build());
          }
        }
        if (f.getType() == FieldDescriptor.Type.BOOL && !f.isRepeated()) {
          forms.add(Request.newBuilder().setField(field, body.clone().setField(f, true).build()).build());
        }
      }
    }
    return forms;
  }

  private static final IoThread.Server ONE_SYNCED_SLOT = new IoThread.Server() {
    @Override
    public int slotCount() {
      return 1;
    }

    @Override
    public boolean syncsCommits() {
      return true;
    }
  };

  @Test
  void everyOperationOfTheProtocolHasExactlyOneCompleteRow() {
    for (OpCase op : OpCase.values()) {
      if (op == OpCase.OP_NOT_SET) {
        continue;
      }
      Traits t = OperationTable.traits(op);
      assertNotNull(t, op + " has no row");
      assertEquals(op, t.op(), op + "'s row is another operation's");
    }
    assertThrows(IllegalStateException.class, () -> OperationTable.traits(OpCase.OP_NOT_SET));
  }

  @Test
  void aRowThatLeavesATraitUndecidedIsRefused() {
    NullPointerException e = assertThrows(NullPointerException.class, () -> Traits.of(OpCase.CREATE)
        .mutation(When.YES).safeMode(When.YES).gated(When.YES).atMostOnce(When.YES).quotaRetried(When.YES)
        .serverOnly(When.NO).ioThread(IoThread.YES));
    assertEquals("CREATE: grows undecided", e.getMessage());
    assertThrows(NullPointerException.class, () -> Traits.of(OpCase.CREATE)
        .mutation(When.YES).safeMode(When.YES).gated(When.YES).grows(When.YES).atMostOnce(When.YES)
        .quotaRetried(When.YES).serverOnly(When.NO).ioThread(null));
  }

  @Test
  void everyGuardedFormIsAMutation() {
    for (Request r : everyForm()) {
      Traits t = OperationTable.traits(r);
      boolean mutation = t.mutation().test(r);
      for (When guard : List.of(t.safeModeGuarded(), t.gated(), t.grows(), t.atMostOnce(), t.quotaRetried())) {
        assertTrue(mutation || !guard.test(r), r.getOpCase() + " is guarded but not a mutation: " + r);
      }
    }
  }

  /** Calls between servers finish what another slot admitted: refusing them would strand it. */
  @Test
  void callsBetweenServersPassEveryClientGuard() {
    for (Request r : everyForm()) {
      Traits t = OperationTable.traits(r);
      if (t.serverOnly().test(r)) {
        assertFalse(t.safeModeGuarded().test(r) || t.gated().test(r) || t.grows().test(r) || t.atMostOnce().test(r),
            r.getOpCase() + " between servers meets a client guard: " + r);
      }
    }
  }

  /** What frees space or lets a writer finish goes on on a full disk; every other guarded change stops. */
  @Test
  void aFullDiskRefusesEverySafeModeGuardedChangeButReleasesAndWritersEnds() {
    List<OpCase> goOn = List.of(OpCase.DELETE, OpCase.REMOVE_XATTR, OpCase.COMPLETE, OpCase.FLUSH,
        OpCase.RENEW_LEASE, OpCase.RECOVER_LEASE, OpCase.ACL_EDIT, OpCase.SNAPSHOT);
    for (Request r : everyForm()) {
      Traits t = OperationTable.traits(r);
      if (t.safeModeGuarded().test(r) && !goOn.contains(r.getOpCase())) {
        assertTrue(t.grows().test(r), r.getOpCase() + " is refused in safe mode but not on a full disk");
      }
    }
  }

  @Test
  void flushAndLeaseRecoveryWaitForASnapshotAsCompleteDoes() {
    for (OpCase op : List.of(OpCase.FLUSH, OpCase.RECOVER_LEASE, OpCase.COMPLETE)) {
      assertTrue(OperationTable.traits(op).gated() == When.YES, op + " must be gated");
    }
    assertFalse(OperationTable.traits(OpCase.RENEW_LEASE).gated().possible(), "a renewal changes no entry");
  }

  @Test
  void aClientPublishIsRefusedInSafeModeAndOnAFullDiskItsPhasesBetweenServersAreNot() {
    Traits t = OperationTable.traits(OpCase.PUBLISH);
    for (PublishRequest.Phase phase : PublishRequest.Phase.values()) {
      if (phase == PublishRequest.Phase.UNRECOGNIZED) {
        continue;
      }
      Request r = Request.newBuilder().setPublish(PublishRequest.newBuilder().setPhase(phase)).build();
      boolean client = phase == PublishRequest.Phase.CLIENT;
      assertEquals(client, t.safeModeGuarded().test(r), phase + " safe mode");
      assertEquals(client, t.grows().test(r), phase + " full disk");
      assertEquals(client, t.gated().test(r), phase + " gate");
      assertEquals(client, t.atMostOnce().test(r), phase + " retry cache");
      assertEquals(!client, t.serverOnly().test(r), phase + " servers only");
    }
  }

  @Test
  void getStoragePolicyIsAReadEverywhere() {
    Traits t = OperationTable.traits(OpCase.STORAGE_POLICY);
    Request get = Request.newBuilder().setStoragePolicy(StoragePolicyRequest.newBuilder()
        .setAction(StoragePolicyRequest.Action.GET)).build();
    Request set = Request.newBuilder().setStoragePolicy(StoragePolicyRequest.newBuilder()
        .setAction(StoragePolicyRequest.Action.SET)).build();
    assertFalse(t.gated().test(get) || t.safeModeGuarded().test(get) || t.grows().test(get) || t.mutation().test(get));
    assertTrue(t.ioThread().allows(get, ONE_SYNCED_SLOT));
    assertTrue(t.gated().test(set) && t.safeModeGuarded().test(set) && t.grows().test(set));
    assertFalse(t.ioThread().allows(set, ONE_SYNCED_SLOT));
  }

  @Test
  void aclAdditionsGrowAndRemovalsDoNot() {
    Traits t = OperationTable.traits(OpCase.ACL_EDIT);
    for (AclEditRequest.Action a : AclEditRequest.Action.values()) {
      if (a == AclEditRequest.Action.UNRECOGNIZED) {
        continue;
      }
      Request r = Request.newBuilder().setAclEdit(AclEditRequest.newBuilder().setAction(a)).build();
      assertEquals(a == AclEditRequest.Action.MODIFY || a == AclEditRequest.Action.SET, t.grows().test(r), a.toString());
      assertTrue(t.safeModeGuarded().test(r), a.toString());
    }
  }

  @Test
  void snapshotChangesAreRefusedInSafeModeAsHdfsRefusesThem() {
    Traits t = OperationTable.traits(OpCase.SNAPSHOT);
    for (SnapshotRequest.Action a : SnapshotRequest.Action.values()) {
      if (a == SnapshotRequest.Action.UNRECOGNIZED) {
        continue;
      }
      Request r = Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder().setAction(a)).build();
      boolean change = switch (a) {
        case ALLOW, DISALLOW, CREATE, RENAME, DELETE -> true;
        default -> false;
      };
      assertEquals(change, t.safeModeGuarded().test(r), a.toString());
      assertEquals(change && a != SnapshotRequest.Action.DELETE, t.grows().test(r), a.toString());
      assertFalse(t.gated().test(r), "a snapshot closes the gates itself: " + a);
    }
  }

  @Test
  void growthOfAttributesQuotasAndPoliciesIsRefusedOnAFullDisk() {
    for (OpCase op : List.of(OpCase.SET_XATTR, OpCase.SET_QUOTA, OpCase.SET_POLICY)) {
      assertTrue(OperationTable.traits(op).grows() == When.YES, op.toString());
    }
  }

  @Test
  void onlyCallsThatMayAskForAQuotaShareAreRetriedForOne() {
    assertFalse(OperationTable.traits(OpCase.CONCAT).quotaRetried().possible(), "concat only credits");
    for (OpCase op : List.of(OpCase.CREATE, OpCase.MKDIRS, OpCase.RENAME, OpCase.RENAME_IN, OpCase.COMPLETE,
        OpCase.FLUSH, OpCase.APPEND, OpCase.SET_REPLICATION)) {
      assertTrue(OperationTable.traits(op).quotaRetried() == When.YES, op.toString());
    }
  }

  @Test
  void mkdirAndRenameLeaveTheIoThreadOnSeveralSlots() {
    IoThread.Server four = new IoThread.Server() {
      @Override
      public int slotCount() {
        return 4;
      }

      @Override
      public boolean syncsCommits() {
        return true;
      }
    };
    Request any = Request.getDefaultInstance();
    for (OpCase op : List.of(OpCase.MKDIRS, OpCase.RENAME)) {
      assertTrue(OperationTable.traits(op).ioThread().allows(any, ONE_SYNCED_SLOT), op.toString());
      assertFalse(OperationTable.traits(op).ioThread().allows(any, four), op.toString());
    }
  }
}
