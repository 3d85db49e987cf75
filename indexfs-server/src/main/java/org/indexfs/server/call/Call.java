package org.indexfs.server.call;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.function.Consumer;
import org.indexfs.proto.Caller;
import org.indexfs.proto.Request;
import org.indexfs.proto.Response;

/**
 * One call on this server, from the frame the transport read to the reply it sends (DESIGN §10,
 * "Where a call goes"): the request, the caller admission decided, the address it came from, the
 * retry cache's mark for its first batch, its durability ticket, its audit note, whether its walk
 * is exempt from localization checks, where its reply goes and whether it runs on the I/O thread
 * that read it. All of it used to ride in ThreadLocals scattered over eight classes; here it is one
 * object, made per run of a call (a call moved from the I/O thread to a handler starts afresh).
 *
 * <p>The stages that own the call take it as a parameter ({@code Dispatcher}, {@link Commit},
 * {@link Reply}, the auditor), as do the guards and the operations that read it
 * ({@code Operation.apply(Call)}). Code deeper inside an operation — a namespace batch, a path
 * walk, a step that may block — is reached through {@link #current()}, the one binding of a call
 * to the thread running it: threading the call there would touch each of the ~90 places that open
 * a namespace mutation.
 */
public final class Call {
  private static final ThreadLocal<Call> RUNNING = new ThreadLocal<>();

  private Request request;
  private Caller caller;
  private SocketAddress address;
  private final Consumer<Response> replySink;
  private final ReadBatch read;
  /** The retry cache's record for the next batch this call writes (key, value), or null. */
  private byte[][] mark;
  /** The newest write whose durability the reply waits for (0: none). */
  private long ticket;
  /** The newest write under async subtrees only: the reply does not wait for it (issue 18). */
  private long asyncTicket;
  private String auditPerm;
  private boolean exemptFromLocalization;
  /** True while the operation itself runs (not admission, nor the auditor's own walks). */
  private boolean applying;
  private Call outer;

  /**
   * {@code claimed}: the request as it arrived; {@code remote}: the connection's peer;
   * {@code read}: the I/O thread's read this call runs inside, or null on a handler thread.
   */
  public Call(Request claimed, SocketAddress remote, Consumer<Response> replySink, ReadBatch read) {
    this.request = claimed;
    this.address = remote;
    this.replySink = replySink;
    this.read = read;
  }

  /** The call running on this thread, or null (background work, or an operation run directly). */
  public static Call current() {
    return RUNNING.get();
  }

  /** Binds this call to the running thread until {@link #exit}. */
  public void enter() {
    outer = RUNNING.get();
    RUNNING.set(this);
  }

  public void exit() {
    if (outer == null) {
      RUNNING.remove();
    } else {
      RUNNING.set(outer);
      outer = null;
    }
  }

  /** Admission's verdict: the request with the caller it acts as, and the address it is from (a gateway's client). */
  public void admitted(Request admitted, SocketAddress from) {
    this.request = admitted;
    this.caller = admitted.getCaller();
    this.address = from;
  }

  public Request request() {
    return request;
  }

  /** The admitted caller (null before admission). */
  public Caller caller() {
    return caller;
  }

  /** The operation starts (true) or has ended (false): what {@link #acting} sees. */
  public void applying(boolean on) {
    this.applying = on;
  }

  /**
   * The caller the running operation acts for, or null outside the operation (admission, the
   * auditor's walks): whom a path walk tells a localized subtree's holder by (IndexFS §II-D).
   */
  public Caller acting() {
    return applying ? caller : null;
  }

  /** Where the call comes from (the audit log's {@code ip=}; a trusted gateway's client once admitted). */
  public SocketAddress address() {
    return address;
  }

  /** The caller's IP address as HDFS prints it ({@code Server.getRemoteIp()}), or "" when not known. */
  public String callerIp() {
    if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
      return inet.getAddress().getHostAddress();
    }
    return "";
  }

  /**
   * A call for an operation run without the transport (a test, or a guard handed a bare request):
   * from nowhere, answered to no one, bound to no thread. What an operation notes on it is dropped.
   */
  public static Call detached(Request request) {
    return new Call(request, null, answer -> { }, null);
  }

  Consumer<Response> replySink() {
    return replySink;
  }

  /** True while the call runs on the I/O thread that read it, where nothing may wait ({@code Blocking}). */
  public boolean onIoThread() {
    return read != null;
  }

  /** The I/O thread's read this call runs in, or null on a handler thread. */
  public ReadBatch read() {
    return read;
  }

  /** The retry cache's mark for the next batch this call writes, or null. */
  public byte[][] mark() {
    return mark;
  }

  public void mark(byte[][] mark) {
    this.mark = mark;
  }

  /** The durability ticket the reply waits for (0: nothing to wait for). */
  public long ticket() {
    return ticket;
  }

  /** The newest write of this call, durable or answered early (what another server must not run ahead of). */
  public long newestWrite() {
    return Math.max(ticket, asyncTicket);
  }

  void waitFor(long written) {
    ticket = Math.max(ticket, written);
  }

  void answerBefore(long written) {
    asyncTicket = Math.max(asyncTicket, written);
  }

  /** What an operation noted for its audit record: the entry's {@code perm=} after the change. */
  public void notePerm(String perm) {
    this.auditPerm = perm;
  }

  public String auditPerm() {
    return auditPerm;
  }

  /** The localize and publish calls walk into the subtrees they check on their own. */
  public void exemptFromLocalization(boolean exempt) {
    this.exemptFromLocalization = exempt;
  }

  public boolean exemptFromLocalization() {
    return exemptFromLocalization;
  }
}
