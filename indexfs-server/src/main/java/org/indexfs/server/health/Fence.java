package org.indexfs.server.health;

import org.indexfs.common.IndexFsException;
import org.indexfs.proto.Code;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this server answers for its slot right now (DESIGN §11). It closes the moment the slot's
 * lease is in doubt (the ZooKeeper connection was suspended or the session lost): from then on no
 * call is answered — no read, no mutation, no acknowledgement of one already written — until the
 * lease is held again. The port stays open, so a client that reaches it hears NOT_SERVING and
 * looks the slot up again instead of waiting on a dead socket.
 */
public final class Fence {
  private static final Logger LOG = LoggerFactory.getLogger(Fence.class);

  private final String target;
  private volatile boolean serving;
  private volatile String why = "starting";

  /** {@code target}: {@code <cluster>/<slot>}, named in refusals. Starts closed. */
  public Fence(String target) {
    this.target = target;
  }

  public boolean serving() {
    return serving;
  }

  /** Stops answering at once; {@code reason} is what refused callers are told. */
  public void close(String reason) {
    why = reason;
    if (serving) {
      serving = false;
      LOG.warn("Slot {} stops serving: {}", target, reason);
    }
  }

  /** Answers again (the slot's lease is held, by this same writer). */
  public void open() {
    if (!serving) {
      serving = true;
      LOG.info("Slot {} serving", target);
    }
  }

  /** What a call gets while the fence is closed. */
  public IndexFsException refusal() {
    return new IndexFsException(Code.NOT_SERVING, "This server is not serving " + target + " right now (" + why + ")");
  }
}
