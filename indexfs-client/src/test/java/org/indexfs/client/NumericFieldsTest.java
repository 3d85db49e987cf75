package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.indexfs.proto.AccessRequest;
import org.indexfs.proto.AclEditRequest;
import org.indexfs.proto.AclEntry;
import org.indexfs.proto.BalanceRequest;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Code;
import org.indexfs.proto.CompleteRequest;
import org.indexfs.proto.CreateRequest;
import org.indexfs.proto.FileStatus;
import org.indexfs.proto.FlushRequest;
import org.indexfs.proto.FsckRequest;
import org.indexfs.proto.ListStatusRequest;
import org.indexfs.proto.LocalizeRequest;
import org.indexfs.proto.MkdirsRequest;
import org.indexfs.proto.PublishRequest;
import org.indexfs.proto.GetXAttrsRequest;
import org.indexfs.proto.RemoveXAttrRequest;
import org.indexfs.proto.RenameRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.SafeModeRequest;
import org.indexfs.proto.SetXAttrRequest;
import org.indexfs.proto.XAttr;
import org.indexfs.proto.Response;
import org.indexfs.proto.SetPermissionRequest;
import org.indexfs.proto.SetQuotaRequest;
import org.indexfs.proto.SetReplicationRequest;
import org.indexfs.proto.SetTimesRequest;
import org.indexfs.proto.SnapshotRequest;
import org.indexfs.proto.StoragePolicyRequest;
import org.indexfs.proto.TruncateRequest;
import org.indexfs.server.local.LocalCluster;
import org.indexfs.server.rpc.Dispatcher;
import org.junit.jupiter.api.Test;

/**
 * Issue 31, item 8: every numeric field of every request a client may send, at the values a raw
 * client can put on the wire and a Hadoop client never does (uint32 4294967295 is -1 to Java, a
 * uint64 past 2^63 is negative; enums out of their range), over a raw socket. Each call gets an
 * answer on a connection that stays open, never INTERNAL_ERROR, and the server logs no failure.
 * Before the fix, listStatus with limit 4294967295 answered INTERNAL_ERROR ("Illegal Capacity: -1")
 * with a stack trace per call, and so did balance's top; replication and access modes past 2^31
 * passed their checks, negative lengths were stored, ACL entries were masked into rwx.
 */
class NumericFieldsTest {
  /** Server-to-server requests: refused to clients by the dispatcher (issue 31, item 5), not fuzzed here. */
  private static final Set<Request.OpCase> BETWEEN_SERVERS = EnumSet.of(Request.OpCase.PARTITION,
      Request.OpCase.RENAME_IN, Request.OpCase.REFERENCED, Request.OpCase.QUOTA, Request.OpCase.OP_NOT_SET);
  private static final int[] UINT32 = {0, 1, 8, 07777 + 1, Integer.MAX_VALUE, Integer.MIN_VALUE, -2, -1};
  private static final long[] UINT64 = {0, 1, Long.MAX_VALUE, Long.MIN_VALUE, -2, -1};
  private static final long[] INT64 = {Long.MIN_VALUE, -3, -2, -1, 0, Long.MAX_VALUE};
  private static final int[] ENUMS = {-1, 99, Integer.MAX_VALUE};

  private final Caller caller = Caller.newBuilder().setUser(TestData.USER).setClientId("numeric").build();
  private long callId = 100;

  @Test
  void everyNumericFieldOfEveryRequestIsValidated() throws Exception {
    try (LocalCluster cluster = LocalCluster.builder(TestData.newDir("numeric")).start();
        IndexFsClient admin = TestData.client(cluster);
        LogCapture log = LogCapture.of(Dispatcher.class);
        RawFrames raw = RawFrames.connect(cluster.server().address())) {
      admin.mkdirs("/num/loc", 0755);
      admin.mkdirs("/num/q", 0755);
      admin.mkdirs("/num/snap", 0755);
      admin.mkdirs("/num/r1", 0755);
      TestData.createClosed(admin, "/num/f");
      Response opened = raw.call(request(Request.newBuilder().setCreate(CreateRequest.newBuilder()
          .setPath("/num/open").setPermission(0644).setReplication(1).setBlockSize(1 << 20))));
      assertEquals(Code.OK, opened.getCode(), opened.getMessage());
      FileStatus open = opened.getStatus();

      Map<Request.OpCase, List<Supplier<Request.Builder>>> bases = new EnumMap<>(Request.OpCase.class);
      base(bases, () -> Request.newBuilder().setMkdirs(MkdirsRequest.newBuilder().setPath("/num/m").setPermission(0755)
          .setUnmasked(0755)));
      base(bases, () -> Request.newBuilder().setCreate(CreateRequest.newBuilder().setPath("/num/c").setPermission(0644)
          .setOverwrite(true).setReplication(1).setBlockSize(1 << 20).setUnmasked(0644)));
      base(bases, () -> Request.newBuilder().setListStatus(ListStatusRequest.newBuilder().setPath("/num").setLimit(10)));
      base(bases, () -> Request.newBuilder().setSetPermission(SetPermissionRequest.newBuilder().setPath("/num/f")
          .setPermission(0644)));
      base(bases, () -> Request.newBuilder().setSetTimes(SetTimesRequest.newBuilder().setPath("/num/f").setMtime(1)
          .setAtime(1)));
      base(bases, () -> Request.newBuilder().setSetReplication(SetReplicationRequest.newBuilder().setPath("/num/f")
          .setReplication(1)));
      base(bases, () -> Request.newBuilder().setTruncate(TruncateRequest.newBuilder().setPath("/num/f").setNewLength(0)));
      base(bases, () -> Request.newBuilder().setAccess(AccessRequest.newBuilder().setPath("/num").setMode(5)));
      base(bases, () -> Request.newBuilder().setFlush(FlushRequest.newBuilder().setPath("/num/open")
          .setInodeId(open.getInodeId()).setLength(1).setInlineData(ByteString.copyFrom(new byte[1]))));
      base(bases, () -> Request.newBuilder().setFlush(FlushRequest.newBuilder().setPath("/num/open")
          .setInodeId(open.getInodeId()).setLength(1).setDataObject(open.getSpillObject())));
      base(bases, () -> Request.newBuilder().setComplete(CompleteRequest.newBuilder().setPath("/num/open")
          .setInodeId(open.getInodeId()).setLength(1).setDataObject(open.getSpillObject())));
      base(bases, () -> Request.newBuilder().setComplete(CompleteRequest.newBuilder().setPath("/num/open")
          .setInodeId(open.getInodeId()).setLength(0)));
      base(bases, () -> Request.newBuilder().setAclEdit(AclEditRequest.newBuilder().setPath("/num/f")
          .setAction(AclEditRequest.Action.MODIFY).addSpec(AclEntry.newBuilder().setScope(AclEntry.Scope.ACCESS)
              .setType(AclEntry.Type.USER).setName("bob").setPermission(5))));
      base(bases, () -> Request.newBuilder().setSetQuota(SetQuotaRequest.newBuilder().setPath("/num/q")
          .setNsQuota(100).setDsQuota(1 << 30)));
      base(bases, () -> Request.newBuilder().setStoragePolicy(StoragePolicyRequest.newBuilder().setPath("/num/q")
          .setAction(StoragePolicyRequest.Action.SET).setPolicyId(7).setPolicyName("HOT")));
      base(bases, () -> Request.newBuilder().setSnapshot(SnapshotRequest.newBuilder().setAction(SnapshotRequest.Action.LIST)
          .setPath("/num/snap").setName("s1").setLimit(10)));
      base(bases, () -> Request.newBuilder().setLocalize(LocalizeRequest.newBuilder().setPath("/num/loc")
          .setAction(LocalizeRequest.Action.GRANT).setIdsWanted(10)));
      base(bases, () -> Request.newBuilder().setPublish(PublishRequest.newBuilder().setPath("/num/loc").setRelease(true)));
      base(bases, () -> Request.newBuilder().setBalance(BalanceRequest.newBuilder().setTop(3)));
      base(bases, () -> Request.newBuilder().setSafeMode(SafeModeRequest.newBuilder()
          .setAction(SafeModeRequest.Action.GET)));
      base(bases, () -> Request.newBuilder().setRename(RenameRequest.newBuilder().setSrc("/num/r1").setDst("/num/r2")
          .setMode(RenameRequest.Mode.EXACT)));
      XAttr a = XAttr.newBuilder().setNamespace(XAttr.NameSpace.USER).setName("a")
          .setValue(ByteString.copyFromUtf8("v")).build();
      base(bases, () -> Request.newBuilder().setSetXattr(SetXAttrRequest.newBuilder().setPath("/num/f").setXattr(a)
          .setCreate(true).setReplace(true)));
      base(bases, () -> Request.newBuilder().setGetXattrs(GetXAttrsRequest.newBuilder().setPath("/num/f").addNames(a)));
      base(bases, () -> Request.newBuilder().setRemoveXattr(RemoveXAttrRequest.newBuilder().setPath("/num/f")
          .setXattr(a)));
      base(bases, () -> Request.newBuilder().setFsck(FsckRequest.newBuilder().setPart(FsckRequest.Part.ENTRIES).setLimit(5)));
      base(bases, () -> Request.newBuilder().setFsck(FsckRequest.newBuilder().setPart(FsckRequest.Part.NAMES).setLimit(5)));

      // Every request a client may send whose message holds a number has a base above.
      Descriptor envelope = Request.getDescriptor();
      for (Request.OpCase op : Request.OpCase.values()) {
        if (BETWEEN_SERVERS.contains(op)) {
          continue;
        }
        FieldDescriptor field = envelope.findFieldByNumber(op.getNumber());
        if (hasNumbers(field.getMessageType(), new java.util.HashSet<>())) {
          assertTrue(bases.containsKey(op), op + " has numeric fields and no base request in this test");
        }
      }

      List<String> failures = new ArrayList<>();
      int sent = 0;
      for (List<Supplier<Request.Builder>> forOp : bases.values()) {
        for (Supplier<Request.Builder> base : forOp) {
          Request.Builder b = base.get();
          FieldDescriptor opField = envelope.findFieldByNumber(b.getOpCase().getNumber());
          Message op = (Message) b.getField(opField);
          for (List<FieldDescriptor> path : numericPaths(op)) {
            for (Object value : extremes(path.get(path.size() - 1))) {
              Request.Builder mutated = base.get();
              mutated.setField(opField, with((Message) mutated.getField(opField), path, 0, value));
              Request r = request(mutated);
              Response answer = raw.call(r);
              sent++;
              String what = b.getOpCase() + "." + names(path) + "=" + value;
              if (answer.getCallId() != r.getCallId()) {
                failures.add(what + ": answer to call " + answer.getCallId());
              } else if (answer.getCode() == Code.INTERNAL_ERROR) {
                failures.add(what + ": " + answer.getMessage());
              }
            }
          }
        }
      }
      assertTrue(failures.isEmpty(), failures.size() + " of " + sent + " calls failed inside the server:\n"
          + String.join("\n", failures));
      long errors = log.messages().stream().filter(m -> m.startsWith("ERROR")).count();
      assertEquals(0, errors, "failures logged: " + log.messages());
      // The connection served every call and still does.
      assertEquals(Code.OK, raw.call(request(Request.newBuilder().setListStatus(ListStatusRequest.newBuilder()
          .setPath("/num")))).getCode());
      assertTrue(sent > 150, "calls sent: " + sent);
    }
  }

  /** listStatus with limit 4294967295, 2,000 times: the page it asks for is the server's page, and nothing is logged. */
  @Test
  void aLimitPastThePageIsThePageWithoutALogLine() throws Exception {
    try (LocalCluster cluster = LocalCluster.builder(TestData.newDir("list-limit")).start();
        IndexFsClient admin = TestData.client(cluster);
        LogCapture log = LogCapture.of(Dispatcher.class);
        RawFrames raw = RawFrames.connect(cluster.server().address())) {
      admin.mkdirs("/many", 0755);
      for (int i = 0; i < 5; i++) {
        TestData.createClosed(admin, "/many/f" + i);
      }
      Request list = request(Request.newBuilder().setListStatus(ListStatusRequest.newBuilder().setPath("/many")
          .setLimit(-1)));
      for (int i = 0; i < 2_000; i++) {
        raw.send(list.toBuilder().setCallId(i).build());
      }
      for (int i = 0; i < 2_000; i++) {
        Response r = raw.receive();
        assertEquals(Code.OK, r.getCode(), r.getMessage());
        assertEquals(5, r.getListing().getEntriesCount());
      }
      assertEquals(List.of(), log.messages());
    }
  }

  /**
   * Whatever makes an operation fail inside the server, a client repeating it cannot make the log
   * grow faster than the bad-input rate: 2,000 failing calls, at most the burst and 5 lines a second.
   */
  @Test
  void internalErrorsAreLoggedAtABoundedRate() throws Exception {
    try (LocalCluster cluster = LocalCluster.builder(TestData.newDir("failures")).start();
        LogCapture log = LogCapture.of(Dispatcher.class);
        RawFrames raw = RawFrames.connect(cluster.server().address())) {
      org.indexfs.server.FaultPoints.install(point -> {
        if (point.equals("call.applied")) {
          throw new IllegalStateException("injected by the test");
        }
      });
      long started = System.nanoTime();
      try {
        for (int i = 0; i < 2_000; i++) {
          raw.send(request(Request.newBuilder().setMkdirs(MkdirsRequest.newBuilder().setPath("/fail/d" + i)
              .setPermission(0755))));
        }
        for (int i = 0; i < 2_000; i++) {
          Response r = raw.receive();
          assertEquals(Code.INTERNAL_ERROR, r.getCode());
          assertTrue(r.getMessage().contains("injected by the test"), r.getMessage());
        }
      } finally {
        org.indexfs.server.FaultPoints.install(null);
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      long lines = log.messages().stream().filter(m -> m.startsWith("ERROR")).count();
      assertTrue(lines >= 1, "the first failures are logged");
      assertTrue(lines <= 20 + 5 * Math.ceil(seconds) + 1, lines + " lines in " + seconds + " s");
    }
  }

  private static void base(Map<Request.OpCase, List<Supplier<Request.Builder>>> bases, Supplier<Request.Builder> b) {
    bases.computeIfAbsent(b.get().getOpCase(), k -> new ArrayList<>()).add(b);
  }

  /** With an RPC client id, as every real client sends: at-most-once calls go through the retry cache. */
  private Request request(Request.Builder b) {
    return b.setCallId(callId++).setCaller(caller).setRpcClientId(ByteString.copyFromUtf8("numeric-fields-1")).build();
  }

  private static boolean isNumber(FieldDescriptor f) {
    return switch (f.getType()) {
      case UINT32, UINT64, INT32, INT64, SINT32, SINT64, FIXED32, FIXED64, SFIXED32, SFIXED64, ENUM -> true;
      default -> false;
    };
  }

  private static boolean hasNumbers(Descriptor d, Set<String> seen) {
    if (!seen.add(d.getFullName())) {
      return false;
    }
    for (FieldDescriptor f : d.getFields()) {
      if (isNumber(f) || (f.getType() == FieldDescriptor.Type.MESSAGE && !f.isMapField()
          && hasNumbers(f.getMessageType(), seen))) {
        return true;
      }
    }
    return false;
  }

  /** The numeric fields of {@code m}, and of the messages it holds (the first element of a repeated one). */
  private static List<List<FieldDescriptor>> numericPaths(Message m) {
    List<List<FieldDescriptor>> out = new ArrayList<>();
    for (FieldDescriptor f : m.getDescriptorForType().getFields()) {
      if (f.isMapField()) {
        continue;
      }
      if (isNumber(f) && !f.isRepeated()) {
        out.add(List.of(f));
      } else if (f.getType() == FieldDescriptor.Type.MESSAGE
          && (f.isRepeated() ? m.getRepeatedFieldCount(f) > 0 : m.hasField(f))) {
        Message inner = (Message) (f.isRepeated() ? m.getRepeatedField(f, 0) : m.getField(f));
        for (List<FieldDescriptor> below : numericPaths(inner)) {
          List<FieldDescriptor> p = new ArrayList<>();
          p.add(f);
          p.addAll(below);
          out.add(p);
        }
      }
    }
    return out;
  }

  private static Message with(Message m, List<FieldDescriptor> path, int at, Object value) {
    FieldDescriptor f = path.get(at);
    Message.Builder b = m.toBuilder();
    if (at == path.size() - 1) {
      if (f.getType() == FieldDescriptor.Type.ENUM) {
        b.setField(f, f.getEnumType().findValueByNumberCreatingIfUnknown((Integer) value));
      } else {
        b.setField(f, value);
      }
    } else if (f.isRepeated()) {
      b.setRepeatedField(f, 0, with((Message) m.getRepeatedField(f, 0), path, at + 1, value));
    } else {
      b.setField(f, with((Message) m.getField(f), path, at + 1, value));
    }
    return b.build();
  }

  private static List<Object> extremes(FieldDescriptor f) {
    List<Object> out = new ArrayList<>();
    switch (f.getType()) {
      case ENUM -> {
        for (int v : ENUMS) {
          out.add(v);
        }
      }
      case UINT32, FIXED32, INT32, SINT32, SFIXED32 -> {
        for (int v : UINT32) {
          out.add(v);
        }
      }
      case UINT64, FIXED64 -> {
        for (long v : UINT64) {
          out.add(v);
        }
      }
      default -> {
        for (long v : INT64) {
          out.add(v);
        }
      }
    }
    return out;
  }

  private static String names(List<FieldDescriptor> path) {
    return String.join(".", path.stream().map(FieldDescriptor::getName).toList());
  }
}
