package org.indexfs.server.bulk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.InodeIds;
import org.indexfs.common.schema.Bytes;
import org.indexfs.common.schema.Inode;
import org.indexfs.proto.Code;
import org.indexfs.proto.PublishResult;
import org.indexfs.proto.Rejection;
import org.indexfs.server.FaultPoints;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.op.OpContext;
import org.indexfs.server.store.MetadataStore;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ingests what a bulk-insertion client published (IndexFS §II-D), all or nothing:
 * <ol>
 *   <li>the client's SST file is fetched from the data tier and validated ({@link PublishPlan});
 *       the accepted entries are rewritten into a staged file;</li>
 *   <li>{@link #ingest}: the name-index records of the staged entries are written to a second
 *       file, in the index's order ({@link PublishPlan#writeNames}); the partition records of new
 *       directories and a durable intent (the staged files, one entry that only the ingest can
 *       have written, the objects replaced entries leave behind) are written in one batch; then
 *       {@code ingestExternalFile} of the entries — the commit point; then the name-index file is
 *       ingested into column family {@code names} (a copy: the file stays until the intent is
 *       dropped) — both ingests inside {@link org.indexfs.server.ns.Namespace#exclusively}, after
 *       the files are shipped to the journal, so no reader sees one without the other; then the
 *       intent is dropped and replaced objects are reclaimed, in one batch.</li>
 * </ol>
 * RocksJava cannot ingest into two column families in one call, so the second ingest is made
 * certain by recovery instead: a restart finishes an intent whose sentinel entry is there —
 * ingesting its name-index file again, which is harmless if it was ingested already (same keys,
 * same values) — and undoes one whose is not (its name-index file was never ingested), before the
 * server serves anything. The index records of an entry replaced by the publish (same directory
 * and name) are overwritten by the new ones, so index and entries agree either way. A running
 * server's readers wait out the two ingests (they hold the namespace alone, as a split's freeze
 * does), so a listing never misses what getFileStatus finds.
 * Fault points: {@code publish.received} (file fetched, nothing written), {@code publish.staged}
 * (intent and records written, not ingested), {@code publish.ingested} (entries committed, index
 * not ingested, intent not dropped), {@code publish.recorded} (done, no answer).
 */
public final class BulkIngest {
  private static final Logger LOG = LoggerFactory.getLogger(BulkIngest.class);
  private static final byte[] INTENT = "bulk/".getBytes(StandardCharsets.UTF_8);
  /** Beside a single-slot intent: the publishing call's key, whose landed mark recovery forgets if it undoes the intent. */
  private static final byte[] CALL = "bulk.call/".getBytes(StandardCharsets.UTF_8);

  private final OpContext ctx;
  private final Localizations table;
  private final Path staging;
  private final Map<Long, SubtreeDirs> subtrees = new ConcurrentHashMap<>();
  private final Map<Long, java.util.concurrent.locks.ReentrantLock> turns = new ConcurrentHashMap<>();
  final PublishTxns txns;
  private volatile SplitPublish coordinator;
  private final PublishShare shares;

  public BulkIngest(OpContext ctx, Localizations table, Path staging) throws IOException {
    this.ctx = ctx;
    this.table = table;
    this.staging = staging;
    Files.createDirectories(staging);
    this.txns = new PublishTxns(ctx.ns());
    this.shares = new PublishShare(ctx, table, this);
    recover();
  }

  /** How this slot reaches the partitions of a split localized directory (set once, before serving). */
  void useMirrors(Mirrors mirrors) {
    this.coordinator = new SplitPublish(ctx, table, this, mirrors);
  }

  Path staging() {
    return staging;
  }

  PublishShare shares() {
    return shares;
  }

  /** Settles the publishes into split directories left undecided or unfinished (a crash, a slot away). */
  void settleAll() {
    SplitPublish c = coordinator;
    if (c != null) {
      c.settleAll();
    }
  }

  /** Directories a restart found in an unsettled split publish: held (mutations retry) until it is. */
  private final Set<Long> heldByRecovery = ConcurrentHashMap.newKeySet();

  void settled(long dirId) {
    releaseWalksUnlessUnsettled(dirId);
    boolean pending = txns.txs().stream().anyMatch(t -> t.dirId() == dirId);
    if (!pending && heldByRecovery.remove(dirId)) {
      table.endPublish(dirId);
    }
  }

  /** Lets walks through {@code dirId} go on unless a decided publish into it has a participant not yet told. */
  void releaseWalksUnlessUnsettled(long dirId) {
    if (txns.txs().stream().noneMatch(t -> t.dirId() == dirId && t.committed())) {
      table.releaseWalks(dirId); // every slot has its share in: readers may look
    }
  }

  /** One more write in the batch that stages an ingest (a split publish's decision). */
  @FunctionalInterface
  interface Extra {
    void write(org.rocksdb.WriteBatch batch, byte[] intentKey) throws IOException;
  }

  /** The directories of localized subtree {@code rootId} on this slot (walked once, then kept). */
  SubtreeDirs subtree(long rootId) {
    return subtrees.computeIfAbsent(rootId, id -> SubtreeDirs.scan(ctx.ns(), id));
  }

  /**
   * A slot homing directories inside subtree {@code rootId} localized on another slot: they take
   * no split until it ends ({@link #ended}).
   */
  void holdMirrored(long rootId, List<Long> dirs) {
    SubtreeDirs s = subtrees.computeIfAbsent(rootId, id -> SubtreeDirs.rootOnly(id));
    for (long d : dirs) {
      if (!s.contains(d)) {
        s.add(d, new SubtreeDirs.Place(0, "", "/?"));
      }
    }
  }

  /** True when directory {@code dirId} lies in a subtree localized here: it does not split until that ends. */
  public boolean inLocalizedSubtree(long dirId) {
    if (table.get(dirId) != null) {
      return true;
    }
    for (long root : table.roots()) {
      SubtreeDirs s = subtrees.get(root);
      if (s == null) {
        s = walkedAgain(root);
      }
      if (s != null && s.contains(dirId)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The directories of localization {@code rootId} held here after a restart, from its durable
   * records: the subtree walked again where it is homed here; on a slot holding a mirror, the
   * directories its home told it to hold, walked again (null: none).
   */
  private SubtreeDirs walkedAgain(long rootId) {
    if (table.mirrorOf(rootId) < 0) {
      // Its home: the walk here, and the directories homed here whose entries are on other slots
      // that the grant's walk over slots found (their places are filled in by the next publish).
      SubtreeDirs s = subtree(rootId);
      for (long d : table.held().getOrDefault(rootId, Set.of())) {
        if (!s.contains(d)) {
          s.add(d, new SubtreeDirs.Place(0, "", "/?"));
        }
      }
      return s;
    }
    Set<Long> told = table.held().get(rootId);
    if (told == null) {
      return null;
    }
    List<Long> walked = new ArrayList<>();
    for (long d : told) {
      SubtreeDirs.scan(ctx.ns(), d).ids().forEach(walked::add);
    }
    holdMirrored(rootId, walked);
    return subtrees.get(rootId);
  }

  /** The localization of {@code rootId} ended: forget its directories; returns them (to consider splitting). */
  List<Long> ended(long rootId) {
    SubtreeDirs s = subtrees.remove(rootId);
    turns.remove(rootId);
    List<Long> out = new ArrayList<>();
    out.add(rootId);
    if (s != null) {
      s.ids().forEach(out::add);
    }
    return out;
  }

  /** Validates and ingests {@code dataFile} (a name on the data tier) for {@code publisher}. */
  PublishResult publish(Localization l, Localization.Holder publisher, Inode root, String rootPath, String dataFile)
      throws IOException {
    return publish(l, publisher, root, rootPath, dataFile, null);
  }

  /**
   * {@code importing} non-null: an import's publish (the caller is a superuser): the file's owner
   * and group ids (id → name) are translated to this slot's, its entries name existing objects
   * under {@link ImportedObjects#ROOT}, and one refused entry refuses the whole file, so an import
   * lands whole or not at all (docs/import.md).
   */
  PublishResult publish(Localization l, Localization.Holder publisher, Inode root, String rootPath, String dataFile,
      Map<Integer, String> importing) throws IOException {
    // Publishes into one subtree (its sharers') take turns: each validates against what the one
    // before it ingested. The handler thread waits; nothing else does.
    java.util.concurrent.locks.ReentrantLock turn = turns.computeIfAbsent(l.dirId(),
        id -> new java.util.concurrent.locks.ReentrantLock(true));
    turn.lock();
    if (!table.beginPublish(l.dirId())) {
      turn.unlock();
      throw new IndexFsException(Code.STALE_RESOLUTION, "Another publish into " + rootPath + " is being ingested; retry");
    }
    String tx = UUID.randomUUID().toString();
    Path fetched = staging.resolve(tx + ".in.sst");
    Path staged = staging.resolve(tx + ".sst");
    try {
      // Only a file the publisher wrote into its own publish directory (issue 31): never a path it names.
      ctx.data().fetchOwned(org.indexfs.server.data.ShippedFiles.published(dataFile, publisher.publishDirectory()),
          publisher.user(), fetched);
      FaultPoints.at("publish.received");
      PublishPlan plan;
      List<Rejection> rejections;
      long accepted;
      if (importing != null) {
        org.indexfs.server.split.PrincipalTranslation.of(importing, ctx.ns().principals()).rewrite(fetched);
      }
      if (importing != null && coordinator != null && coordinator.spans(l.dirId(), subtree(l.dirId()))) {
        throw new IndexFsException(Code.UNSUPPORTED, "An import goes into a new directory on one slot; " + rootPath
            + " spans several slots");
      }
      if (coordinator != null && coordinator.spans(l.dirId(), subtree(l.dirId()))) {
        SplitPublish.Outcome o = coordinator.run(l, publisher, root, rootPath, fetched, staged, subtree(l.dirId()));
        plan = o.plan();
        rejections = o.rejections();
        accepted = o.accepted();
      } else {
        plan = new PublishPlan(ctx, l, publisher, root, rootPath, subtree(l.dirId()));
        if (importing != null) {
          plan.importing();
        }
        boolean any = plan.run(fetched, staged);
        if (importing != null) {
          try {
            refuseWhole(rootPath, plan.rejections);
          } catch (IndexFsException refused) {
            Files.deleteIfExists(staged);
            throw refused;
          }
        }
        if (any) {
          ingest(staged, plan, null, result(plan.accepted, plan.rejections));
        } else {
          nothingIngested(result(plan.accepted, plan.rejections));
        }
        rejections = plan.rejections;
        accepted = plan.accepted;
      }
      Files.deleteIfExists(fetched);
      SubtreeDirs dirs = subtree(l.dirId());
      plan.newPlaces.forEach(dirs::add);
      if (importing == null) {
        follow(plan.objectFiles); // imported objects are the NameNode's files: they have their owners and modes
      }
      for (Rejection r : rejections) {
        if (r.getCode() == Code.OK) {
          LOG.info("Publish into {} by client {}: {} {}", rootPath, publisher.clientId(), r.getPath(), r.getReason());
        } else {
          LOG.warn("Publish into {} by client {} ({}) refused {}: {}", rootPath, publisher.clientId(), publisher.user(),
              r.getPath(), r.getReason());
        }
      }
      LOG.info("Ingested {} entries published into {} by client {} ({} refused)", accepted, rootPath,
          publisher.clientId(), rejections.stream().filter(r -> r.getCode() != Code.OK).count());
      try {
        ctx.data().delete(dataFile);
      } catch (IOException e) {
        LOG.debug("Published file {} stays on the data tier: {}", dataFile, e.toString());
      }
      return result(accepted, rejections);
    } finally {
      table.endPublish(l.dirId());
      turn.unlock();
      Files.deleteIfExists(fetched);
      Files.deleteIfExists(staged.resolveSibling(staged.getFileName() + ".direct"));
    }
  }

  /** An import lands whole or not at all: the first refusals, by name and reason, and nothing ingested. */
  private static void refuseWhole(String rootPath, List<Rejection> rejections) throws IndexFsException {
    List<String> refused = new ArrayList<>();
    for (Rejection r : rejections) {
      if (r.getCode() != Code.OK) {
        refused.add(r.getPath() + ": " + r.getReason());
      }
    }
    if (!refused.isEmpty()) {
      throw new IndexFsException(Code.BAD_REQUEST, "Import into " + rootPath + " refused, nothing ingested: "
          + refused.size() + " entries refused, first " + String.join("; ", refused.subList(0, Math.min(5, refused.size()))));
    }
  }

  /** A publish that ingests nothing still answers a resend with its report (its file is consumed next). */
  void nothingIngested(PublishResult answer) throws IOException {
    org.indexfs.server.retry.RetryCache.recordLanded(ctx.ns(),
        org.indexfs.proto.Response.newBuilder().setPublishResult(answer).build());
  }

  static PublishResult result(long accepted, List<Rejection> rejections) {
    return PublishResult.newBuilder().setIngested(accepted).addAllRejected(rejections).build();
  }

  /**
   * The one step that changes the namespace: stage, ingest (the commit point), finish. The journal
   * of DESIGN §11 records the staged file by reference here. The publishing call's retry-cache
   * mark rides on the first batch, carrying {@code answer}: the call's answer if the publish lands.
   * A split publish's first batch is its decision (never undone); a single-slot one's is the
   * intent, which recovery undoes when the ingest did not happen — and then forgets the mark too
   * (the call's key is kept beside the intent), so a resend after a crash is answered with the
   * publish's report exactly when it landed, and runs it again otherwise.
   */
  void ingest(Path file, PublishPlan plan, Extra extra, PublishResult answer) throws IOException {
    org.indexfs.proto.Response landed = org.indexfs.proto.Response.newBuilder().setPublishResult(answer).build();
    if (file == null) {
      // Nothing of the publish is on this slot but new directories' records (a split publish).
      org.indexfs.server.retry.RetryCache.landsWith(ctx.ns(), landed);
      ctx.ns().mutate(batch -> {
        partitionRecords(batch, plan);
        extra.write(batch, new byte[0]);
        return null;
      });
      ctx.ns().forgetDirectories(new HashSet<>(ids(plan.newDirs)));
      return;
    }
    Intent intent = stage(file, plan);
    if (extra != null) {
      keepCopy(intent); // a split publish's decided part: a standby may have to ingest it
    }
    byte[] intentKey = Bytes.concat(INTENT, file.getFileName().toString().getBytes(StandardCharsets.UTF_8));
    byte[] callKey = org.indexfs.server.retry.RetryCache.landsWith(ctx.ns(), landed);
    ctx.ns().mutate(batch -> {
      partitionRecords(batch, plan);
      try {
        batch.put(ctx.ns().store().meta(), intentKey, intent.encode());
        if (extra == null && callKey != null) {
          batch.put(ctx.ns().store().meta(), callKeyOf(intentKey), callKey);
        }
      } catch (RocksDBException e) {
        throw new IOException(e);
      }
      if (extra != null) {
        extra.write(batch, intentKey);
      }
      return null;
    });
    FaultPoints.at("publish.staged");
    MetadataStore.Shipped entries = ctx.ns().store().ship(file);
    MetadataStore.Shipped names = shipNames(intent);
    boolean[] entriesIn = {false};
    try {
      // Both ingests with the namespace to themselves (shipped to the journal before): no reader on
      // this slot finds the entries (getFileStatus) without their name index (listStatus).
      ctx.ns().exclusively(() -> {
        ctx.ns().store().ingest(ctx.ns().store().entries(), entries, true);
        entriesIn[0] = true;
        FaultPoints.at("publish.ingested");
        indexNames(names);
      });
    } catch (IOException | RuntimeException e) {
      if (!entriesIn[0] && extra == null && callKey != null) {
        unmark(intentKey, callKey); // not in: a resend must not be told it landed
      }
      throw e;
    }
    finish(intentKey, intent);
    if (extra != null) {
      dropCopy(intent);
    }
    Set<Long> forget = new HashSet<>(plan.touched);
    forget.addAll(intent.newDirs());
    ctx.ns().forgetDirectories(forget);
    FaultPoints.at("publish.recorded");
  }

  private static byte[] callKeyOf(byte[] intentKey) {
    return Bytes.concat(CALL, java.util.Arrays.copyOfRange(intentKey, INTENT.length, intentKey.length));
  }

  /** The ingest of {@code intentKey} failed on a running server: its call's landed mark goes, the intent stays for recovery. */
  private void unmark(byte[] intentKey, byte[] callKey) {
    try {
      ctx.ns().withoutCallMark(() -> ctx.ns().mutate(batch -> {
        try {
          batch.delete(ctx.ns().store().calls(), callKey);
          batch.delete(ctx.ns().store().meta(), callKeyOf(intentKey));
        } catch (RocksDBException e) {
          throw new IOException(e);
        }
        return null;
      }));
    } catch (IOException | RuntimeException e) {
      LOG.warn("The landed mark of a publish whose ingest failed stays: {}", e.toString());
    }
  }

  private void partitionRecords(org.rocksdb.WriteBatch batch, PublishPlan plan) throws IOException {
    try {
      for (Inode dir : plan.newDirs) {
        byte[][] record = Namespace.partitionRecordOf(dir);
        batch.put(ctx.ns().store().meta(), record[0], record[1]);
      }
    } catch (RocksDBException e) {
      throw new IOException(e);
    }
  }

  /** Writes the name-index file of staged {@code file} (null: nothing staged); the intent to record. */
  Intent stage(Path file, PublishPlan plan) throws IOException {
    if (file == null) {
      return new Intent("", new byte[0], 0, List.of(), plan.objectsToReclaim, "");
    }
    Path names = file.resolveSibling(file.getFileName() + ".names");
    boolean hasNames;
    try {
      hasNames = PublishPlan.writeNames(file, names);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(names);
      throw e;
    }
    return new Intent(file.toString(), plan.sentinelKey == null ? new byte[0] : plan.sentinelKey,
        plan.sentinelId, ids(plan.newDirs), plan.objectsToReclaim, hasNames ? names.toString() : "");
  }

  /**
   * Keeps a copy of a staged intent's files on the data tier until it is ingested (a split
   * publish's parts, staged before the decision and ingested after it): a standby that takes the
   * slot over in between has the durable record from the journal, and the files from there.
   */
  void keepCopy(Intent intent) throws IOException {
    for (String f : new String[] {intent.file(), intent.namesFile()}) {
      if (!f.isEmpty()) {
        ctx.data().upload(Path.of(f), copyName(f));
      }
    }
  }

  void dropCopy(Intent intent) {
    for (String f : new String[] {intent.file(), intent.namesFile()}) {
      if (!f.isEmpty()) {
        try {
          ctx.data().delete(copyName(f));
        } catch (IOException e) {
          LOG.debug("Copy of staged file {} stays on the data tier: {}", f, e.toString());
        }
      }
    }
  }

  private String copyName(String local) {
    // Per slot: the participants of one publish stage files of the same name.
    return ".bulk/staged/" + ctx.ns().slot() + "-" + Path.of(local).getFileName();
  }

  /** The staged file {@code local} here, fetched from its copy when this server did not stage it. */
  private boolean fetched(String local) {
    if (Files.exists(Path.of(local))) {
      return true;
    }
    try {
      if (ctx.data().length(copyName(local)) < 0) {
        return false;
      }
      Files.createDirectories(Path.of(local).getParent());
      ctx.data().download(copyName(local), Path.of(local));
      LOG.info("Fetched staged file {} from its copy on the data tier", local);
      return true;
    } catch (IOException e) {
      LOG.warn("Cannot fetch the copy of staged file {}: {}", local, e.toString());
      return false;
    }
  }

  /** True when the intent's entries are in the store (its sentinel is there; an intent without one counts as in). */
  boolean ingested(Intent intent) throws IOException {
    if (intent.sentinelKey().length == 0) {
      return true;
    }
    byte[] v = ctx.ns().store().get(ctx.ns().store().entries(), intent.sentinelKey());
    return v != null && Inode.decode(v).inodeId == intent.sentinelId();
  }

  /**
   * Ingests a staged intent whose publish is decided (a split publish's share, or the home's part
   * after a crash): the entries unless they are in already, then the name index; then
   * {@code drop} removes its record in the batch that reclaims what replaced entries left.
   */
  void commit(Intent recorded, Extra drop) throws IOException {
    // Staged by this slot's server, or by the one it took over from (its copies are on the data tier).
    Intent intent = recorded.in(staging);
    MetadataStore.Shipped entries = null;
    if (!intent.file().isEmpty() && !ingested(intent)) {
      if (fetched(intent.file())) {
        entries = ctx.ns().store().ship(Path.of(intent.file()));
      } else {
        // Written and synced before its record: only lost with the disk. Say so.
        LOG.error("The staged file {} of a decided publish is gone: its entries are missing", intent.file());
      }
    }
    if (!intent.namesFile().isEmpty()) {
      fetched(intent.namesFile());
    }
    MetadataStore.Shipped names = shipNames(intent);
    // Fetched and shipped first; then both ingests alone in the namespace, as in ingest().
    MetadataStore.Shipped in = entries;
    ctx.ns().exclusively(() -> {
      if (in != null) {
        ctx.ns().store().ingest(ctx.ns().store().entries(), in, true);
      }
      indexNames(names);
    });
    finish(drop, intent);
    dropCopy(intent);
  }

  private static List<Long> ids(List<Inode> dirs) {
    List<Long> out = new ArrayList<>(dirs.size());
    for (Inode d : dirs) {
      out.add(d.inodeId);
    }
    return out;
  }

  /** The intent's name-index file, shipped for its ingest; null when it has none (or lost it). */
  private MetadataStore.Shipped shipNames(Intent intent) throws IOException {
    if (intent.namesFile().isEmpty()) {
      return null;
    }
    Path names = Path.of(intent.namesFile());
    if (!Files.exists(names)) {
      // Written and synced before its intent: only lost with the disk. Say so; fsck-style checks follow listings.
      LOG.error("The name-index file {} of an ingested publish is gone: listings may miss its entries", names);
      return null;
    }
    return ctx.ns().store().ship(names);
  }

  /** Ingests a shipped name-index file (a copy: recovery may ingest it again). */
  private void indexNames(MetadataStore.Shipped names) throws IOException {
    if (names != null) {
      ctx.ns().store().ingest(ctx.ns().store().names(), names, false);
    }
  }

  /** Gives each published object its file's owner, group and mode (its writer made it 0600, DESIGN §14). */
  private void follow(List<Inode> files) {
    for (Inode f : files) {
      try {
        ctx.data().follow(f.dataObject, ctx.ns().principals().nameOf(f.ownerId), ctx.ns().principals().nameOf(f.groupId),
            (short) (f.permission & org.indexfs.common.Permission.MASK & ~org.indexfs.common.Permission.STICKY));
      } catch (IOException e) {
        LOG.warn("Published object {} keeps its writer's permissions: {}", f.dataObject, e.toString());
      }
    }
  }

  private void finish(byte[] intentKey, Intent intent) throws IOException {
    finish((batch, none) -> {
      try {
        batch.delete(ctx.ns().store().meta(), intentKey);
        batch.delete(ctx.ns().store().meta(), callKeyOf(intentKey)); // the mark stands: the publish landed
      } catch (RocksDBException e) {
        throw new IOException(e);
      }
    }, intent);
  }

  private void finish(Extra drop, Intent intent) throws IOException {
    ctx.ns().mutate(batch -> {
      drop.write(batch, null);
      for (String object : intent.objects()) {
        ctx.reclaimer().reclaimObject(batch, object);
      }
      return null;
    });
    if (!intent.namesFile().isEmpty()) {
      Files.deleteIfExists(Path.of(intent.namesFile()));
    }
    if (!intent.objects().isEmpty()) {
      ctx.reclaimer().wake();
    }
  }

  /**
   * Before serving: finish every publish whose ingest happened, undo the others — except that the
   * home's part of a split publish already decided (committed with its intent) is ingested now. A
   * partition's staged share waits, its directory held, for its home to decide ({@link SplitPublish}).
   */
  private void recover() throws IOException {
    Set<String> decided = new HashSet<>();
    for (PublishTxns.Tx tx : txns.txs()) {
      if (tx.committed() && tx.intentKey().length > 0) {
        decided.add(new String(tx.intentKey(), StandardCharsets.UTF_8));
      }
      if (table.beginPublish(tx.dirId())) {
        heldByRecovery.add(tx.dirId());
      }
      if (tx.committed()) {
        table.holdWalks(tx.dirId()); // decided, not every participant told: readers wait for the rest
      }
    }
    Set<Path> keep = new HashSet<>();
    for (PublishTxns.Part part : txns.parts()) {
      table.beginPublish(part.dirId());
      table.holdWalks(part.dirId());
      for (String f : new String[] {part.intent().file(), part.intent().namesFile()}) {
        if (!f.isEmpty()) {
          keep.add(Path.of(f));
        }
      }
      LOG.info("A share of a split publish ({}) was prepared before the restart: directory {} waits for its home's "
          + "decision", part.txid(), format(part.dirId()));
    }
    List<byte[][]> pending = new ArrayList<>();
    try (RocksIterator it = ctx.ns().store().iterator(ctx.ns().store().meta(), null)) {
      for (it.seek(INTENT); it.isValid() && Bytes.startsWith(it.key(), INTENT); it.next()) {
        pending.add(new byte[][] {it.key(), it.value()});
      }
    }
    for (byte[][] p : pending) {
      Intent intent = Intent.decode(p[1]);
      boolean ingested = ingested(intent);
      if (!ingested && decided.contains(new String(p[0], StandardCharsets.UTF_8))) {
        LOG.info("Ingesting the home's part of a split publish decided before the restart ({})", intent.file());
        commit(intent, (batch, none) -> {
          try {
            batch.delete(ctx.ns().store().meta(), p[0]);
          } catch (RocksDBException e) {
            throw new IOException(e);
          }
        });
        ctx.ns().forgetDirectories(new HashSet<>(intent.newDirs()));
      } else if (ingested) {
        if (decided.contains(new String(p[0], StandardCharsets.UTF_8))) {
          dropCopy(intent);
        }
        LOG.info("Finishing a publish ingested before the restart ({})", intent.file());
        indexNames(shipNames(intent)); // before serving: no reader to hold off
        finish(p[0], intent);
      } else {
        LOG.info("Undoing a publish that was not ingested before the restart ({}): its client publishes again", intent.file());
        byte[] callKey = ctx.ns().store().get(ctx.ns().store().meta(), callKeyOf(p[0]));
        ctx.ns().mutate(batch -> {
          try {
            for (long dir : intent.newDirs()) {
              batch.delete(ctx.ns().store().meta(), Namespace.partitionKeyOf(dir));
            }
            batch.delete(ctx.ns().store().meta(), p[0]);
            if (callKey != null) {
              // Its call's mark said "landed": a resend now runs the publish again.
              batch.delete(ctx.ns().store().calls(), callKey);
              batch.delete(ctx.ns().store().meta(), callKeyOf(p[0]));
            }
          } catch (RocksDBException e) {
            throw new IOException(e);
          }
          return null;
        });
        ctx.ns().forgetDirectories(new HashSet<>(intent.newDirs()));
      }
      Files.deleteIfExists(Path.of(intent.file()));
    }
    // Files fetched or staged by publishes that died before their intent: nothing refers to them.
    try (var files = Files.list(staging)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (!keep.contains(f)) {
          Files.deleteIfExists(f);
        }
      }
    }
  }

  /** The durable record of a publish between staging and finishing. */
  record Intent(String file, byte[] sentinelKey, long sentinelId, List<Long> newDirs, List<String> objects,
      String namesFile) {
    /** The same, with its files in directory {@code dir} (a standby's staging directory). */
    Intent in(Path dir) {
      return new Intent(file.isEmpty() ? "" : dir.resolve(Path.of(file).getFileName()).toString(), sentinelKey,
          sentinelId, newDirs, objects, namesFile.isEmpty() ? "" : dir.resolve(Path.of(namesFile).getFileName()).toString());
    }

    byte[] encode() {
      byte[] f = file.getBytes(StandardCharsets.UTF_8);
      byte[] nf = namesFile.getBytes(StandardCharsets.UTF_8);
      int size = 4 + f.length + 4 + sentinelKey.length + 8 + 4 + 8 * newDirs.size() + 4 + 4 + nf.length;
      List<byte[]> names = new ArrayList<>();
      for (String o : objects) {
        byte[] b = o.getBytes(StandardCharsets.UTF_8);
        names.add(b);
        size += 4 + b.length;
      }
      ByteBuffer b = ByteBuffer.allocate(size);
      b.putInt(f.length).put(f).putInt(sentinelKey.length).put(sentinelKey).putLong(sentinelId).putInt(newDirs.size());
      newDirs.forEach(b::putLong);
      b.putInt(names.size());
      names.forEach(n -> b.putInt(n.length).put(n));
      b.putInt(nf.length).put(nf);
      return b.array();
    }

    static Intent decode(byte[] value) {
      ByteBuffer b = ByteBuffer.wrap(value);
      byte[] f = new byte[b.getInt()];
      b.get(f);
      byte[] sentinel = new byte[b.getInt()];
      b.get(sentinel);
      long id = b.getLong();
      List<Long> dirs = new ArrayList<>();
      for (int i = b.getInt(); i > 0; i--) {
        dirs.add(b.getLong());
      }
      List<String> objects = new ArrayList<>();
      for (int i = b.getInt(); i > 0; i--) {
        byte[] n = new byte[b.getInt()];
        b.get(n);
        objects.add(new String(n, StandardCharsets.UTF_8));
      }
      String namesFile = "";
      if (b.hasRemaining()) { // intents written before the name index have none
        byte[] nf = new byte[b.getInt()];
        b.get(nf);
        namesFile = new String(nf, StandardCharsets.UTF_8);
      }
      return new Intent(new String(f, StandardCharsets.UTF_8), sentinel, id, dirs, objects, namesFile);
    }
  }

  /** For messages. */
  static String format(long id) {
    return InodeIds.format(id);
  }
}
