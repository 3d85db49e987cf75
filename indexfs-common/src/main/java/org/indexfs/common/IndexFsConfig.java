package org.indexfs.common;

import java.util.List;

/**
 * Every IndexFS configuration key, declared once with its default and description. The same
 * names are read from Hadoop's {@code Configuration} by the adapter and from
 * {@code conf/indexfs-site.xml} by the server.
 */
public final class IndexFsConfig {
  private IndexFsConfig() {}

  public static final ConfigKey<String> ZOOKEEPER_QUORUM = ConfigKey.string(
      "indexfs.zookeeper.quorum", "127.0.0.1:2181",
      "ZooKeeper connect string used when no per-cluster quorum is set.");
  /** Per-cluster quorum: {@code indexfs.cluster.<name>.zookeeper}. */
  public static final String CLUSTER_ZOOKEEPER_PATTERN = "indexfs.cluster.%s.zookeeper";

  public static final ConfigKey<Integer> ZOOKEEPER_SESSION_TIMEOUT_MS = ConfigKey.integer(
      "indexfs.zookeeper.session-timeout-ms", 6_000,
      "ZooKeeper session of a server: a killed server's slot lease is free again (and a standby takes over) after this long.");
  public static final ConfigKey<Long> SLOT_LEASE_WAIT_MS = ConfigKey.longValue(
      "indexfs.slot.lease-wait-ms", 60_000,
      "How long a starting server waits for its slot's lease while another process holds it.");

  public static final ConfigKey<String> CLUSTER_NAME = ConfigKey.string(
      "indexfs.cluster.name", "local",
      "Name of the cluster a server belongs to: the authority of indexfs://<name>/ URIs.");
  public static final ConfigKey<String> SERVER_DIR = ConfigKey.string(
      "indexfs.server.dir", "",
      "Directory holding the server's RocksDB (required for a server).");
  public static final ConfigKey<String> SERVER_BIND_HOST = ConfigKey.string(
      "indexfs.server.bind-host", "127.0.0.1", "Address the metadata server listens on.");
  public static final ConfigKey<Integer> SERVER_PORT = ConfigKey.integer(
      "indexfs.server.port", 0, "Port the metadata server listens on; 0 picks a free one.");
  public static final ConfigKey<Integer> SERVER_SLOT = ConfigKey.integer(
      "indexfs.server.slot", 0, "The slot this server owns.");
  public static final ConfigKey<String> SERVER_SLOTS = ConfigKey.string(
      "indexfs.server.slots", "",
      "Several slots for one server process (a machine), comma-separated: each runs as its own server in the process,"
          + " its RocksDB in indexfs.server.dir/slot-K; a fixed indexfs.server.port or indexfs.http.port P gives the"
          + " i-th slot listed P+i. Empty: the one slot indexfs.server.slot.");
  public static final ConfigKey<Boolean> SERVER_STANDBY = ConfigKey.bool(
      "indexfs.server.standby", false,
      "Start as a standby of the slot (bin/indexfs server --standby): follow its journal and take it over when its"
          + " owner's lease ends, however long that takes; needs indexfs.journal.enabled.");
  public static final ConfigKey<String> SERVER_NAME = ConfigKey.string(
      "indexfs.server.name", "",
      "How this server names itself to operators (admin -report, admin -handover --to NAME); empty: its bind host.");
  public static final ConfigKey<Integer> SERVER_HANDLERS = ConfigKey.integer(
      "indexfs.server.handler-threads", 32,
      "Threads executing operations that may wait (peer calls, lease revocations, data-tier calls); the"
          + " rest run on the I/O threads. A full queue answers SERVER_BUSY.");
  public static final ConfigKey<Integer> SERVER_IO_THREADS = ConfigKey.integer(
      "indexfs.server.io-threads", 0,
      "Network I/O threads; calls that never wait (stat, list, create, mkdir, delete of a file, close)"
          + " run on them directly. 0: the number of cores, at least 2.");
  public static final ConfigKey<Integer> SERVER_CACHE_ENTRIES = ConfigKey.integer(
      "indexfs.server.cache-entries", 200_000,
      "Directory entries (and as many partition records / 4) the server keeps in memory, so a warm path"
          + " costs one RocksDB read for its last component.");
  public static final ConfigKey<Integer> SERVER_QUEUE = ConfigKey.integer(
      "indexfs.server.queue-size", 10_000, "Operations waiting for a handler before the server sheds load.");

  public static final ConfigKey<Boolean> WAL_SYNC = ConfigKey.bool(
      "indexfs.wal.sync", true,
      "true: a mutation returns only after its WAL record is fsynced (group commit); false: after it reached the OS.");
  public static final ConfigKey<Long> WAL_ASYNC_WINDOW_MS = ConfigKey.longValue(
      "indexfs.wal.async-window-ms", 200L,
      "Subtrees with durability async (admin -setPolicy): a mutation is acknowledged before its fsync, which follows"
          + " within this many ms; a crash of the machine loses at most this window of such mutations (with wal.sync=true).");

  public static final ConfigKey<Long> STORE_RESERVED_BYTES = ConfigKey.longValue(
      "indexfs.store.reserved-bytes", 100L << 20,
      "Free disk space kept for the server's RocksDB (HDFS: dfs.namenode.resource.du.reserved): below it, calls that"
          + " would grow the store answer NO_SPACE while deletes go on; writing resumes by itself once space is back.");

  public static final ConfigKey<Boolean> JOURNAL_ENABLED = ConfigKey.bool(
      "indexfs.journal.enabled", false,
      "Replicate every committed change of a slot to a journal on the data tier before it is acknowledged, with"
          + " checkpoints, so standbys can take the slot over (DESIGN §11); needs indexfs.data.uri.");
  public static final ConfigKey<Long> JOURNAL_SEGMENT_BYTES = ConfigKey.longValue(
      "indexfs.journal.segment-bytes", 64L << 20, "A journal segment is closed and a new one started past this size.");
  public static final ConfigKey<Long> JOURNAL_CHECKPOINT_RECORDS = ConfigKey.longValue(
      "indexfs.journal.checkpoint-records", 500_000,
      "A checkpoint of the slot's store is published on the data tier after this many journal records...");
  public static final ConfigKey<Long> JOURNAL_CHECKPOINT_INTERVAL_MS = ConfigKey.longValue(
      "indexfs.journal.checkpoint-interval-ms", 3_600_000,
      "... or after this long, whichever comes first; checkpoints bound replay and start new standbys.");
  public static final ConfigKey<Integer> JOURNAL_CHECKPOINTS_KEPT = ConfigKey.integer(
      "indexfs.journal.checkpoints-kept", 2,
      "Checkpoints kept on the data tier; the journal before the oldest of them is deleted.");

  public static final ConfigKey<String> DATA_URI = ConfigKey.string(
      "indexfs.data.uri", "",
      "Root of the underlying Hadoop FS holding large-file data objects (hdfs://nn/indexfs-data or file:///dir).");
  public static final ConfigKey<Integer> INLINE_MAX_BYTES = ConfigKey.integer(
      "indexfs.inline.max-bytes", 64 * 1024,
      "Files up to this size live inside their metadata entry; larger ones spill to a data object.");

  public static final ConfigKey<Long> LEASE_SOFT_LIMIT_MS = ConfigKey.longValue(
      "indexfs.lease.soft-limit-ms", 60_000,
      "A writer that has not renewed its lease for this long may be preempted by another writer (HDFS soft limit).");
  public static final ConfigKey<Long> LEASE_HARD_LIMIT_MS = ConfigKey.longValue(
      "indexfs.lease.hard-limit-ms", 20 * 60_000,
      "After this long without renewal the server recovers and closes the writer's files itself (HDFS hard limit).");
  public static final ConfigKey<Long> SCRUB_INTERVAL_MS = ConfigKey.longValue(
      "indexfs.scrub.interval-ms", 6 * 3_600_000,
      "How often the scrubber looks for data objects no entry refers to; 0 disables it.");
  public static final ConfigKey<Long> SCRUB_GRACE_MS = ConfigKey.longValue(
      "indexfs.scrub.grace-ms", 3_600_000,
      "The scrubber leaves alone objects modified within this period, whatever the namespace says.");

  public static final ConfigKey<String> LEASE_POLICY = ConfigKey.string(
      "indexfs.lease.policy", "rate",
      "How long clients may cache a directory entry: fixed, depth (max/depth) or rate (max * reads/(reads+writes)).");
  public static final ConfigKey<Long> LEASE_FIXED_MS = ConfigKey.longValue(
      "indexfs.lease.fixed-ms", 1_000, "Directory-entry lease length of the fixed policy.");
  public static final ConfigKey<Long> LEASE_MAX_MS = ConfigKey.longValue(
      "indexfs.lease.max-ms", 1_000,
      "Longest directory-entry lease of the depth and rate policies: the most a chmod or rename of a directory waits.");
  public static final ConfigKey<Long> SECURITY_RESOLUTION_GRACE_MS = ConfigKey.longValue(
      "indexfs.security.resolution-grace-ms", 2_000,
      "How long past its lease (and at least) a sealed ancestor a server handed out is accepted back: the hop to the next slot and clock skew between servers.");
  public static final ConfigKey<Long> SECURITY_KEY_ROTATION_MS = ConfigKey.longValue(
      "indexfs.security.key-rotation-ms", 24L * 3600 * 1000,
      "Age after which a server adds a new resolution-sealing key in ZooKeeper; older keys are kept for one more period, then dropped.");
  public static final ConfigKey<String> SECURITY_ZOOKEEPER_DIGEST = ConfigKey.string(
      "indexfs.security.zookeeper.digest", "",
      "user:password the servers authenticate to ZooKeeper with (digest): every node they write is theirs alone to change,"
          + " their secrets theirs alone to read, and it is the secret servers prove themselves to each other with in simple"
          + " mode. Required in simple mode (bin/indexfs local makes one); keep it off clients.");
  public static final ConfigKey<String> SECURITY_ADDRESS_PROXY_USERS = ConfigKey.string(
      "indexfs.security.address-proxy-users", "",
      "Users (short names, comma-separated) whose calls may name the client they act for, as the NameNode-protocol gateway's user does: the audit log and messages then show that client's address, not the proxy's (HDFS: dfs.namenode.ip-proxy-users).");
  public static final ConfigKey<String> SECURITY_ZOOKEEPER_AUTH = ConfigKey.string(
      "indexfs.security.zookeeper.auth", "",
      "How servers authenticate to ZooKeeper: digest (indexfs.security.zookeeper.digest) or sasl (Kerberos, as the"
          + " servers' principal; ZooKeeper must map it to its short name). Empty: sasl with Kerberos, digest otherwise.");
  public static final ConfigKey<String> SECURITY_ZOOKEEPER_SERVER_PRINCIPAL = ConfigKey.string(
      "indexfs.security.zookeeper.server-principal", "",
      "With indexfs.security.zookeeper.auth=sasl: ZooKeeper's own principal (ZooKeeper's zookeeper.server.principal);"
          + " empty: ZooKeeper's default, zookeeper/<its host>.");
  public static final ConfigKey<String> SECURITY_ZOOKEEPER_SERVER_ID = ConfigKey.string(
      "indexfs.security.zookeeper.server-id", "",
      "For clients: the ZooKeeper identity the servers write with (digest:user:hash, as bin/indexfs format prints it, or"
          + " sasl:name); a slot record anyone else could have written is refused. Empty: any one authenticated identity.");
  public static final ConfigKey<Long> SNAPSHOT_HOLD_LIMIT_MS = ConfigKey.longValue(
      "indexfs.snapshot.hold-limit-ms", 30_000,
      "Longest a snapshot's barrier may keep a slot's mutations out, counted from its first HOLD (repeating it does"
          + " not extend it); a slot whose barrier ran out refuses new ones for as long again.");
  public static final ConfigKey<Long> SNAPSHOT_KEEP_LIMIT_MS = ConfigKey.longValue(
      "indexfs.snapshot.keep-limit-ms", 3_600_000,
      "Longest a slot keeps the RocksDB snapshot of a snapshot's barrier for its copy, if its coordinator never releases it.");
  public static final ConfigKey<Integer> SNAPSHOT_MAX_HELD = ConfigKey.integer(
      "indexfs.snapshot.max-held", 16,
      "RocksDB snapshots of barriers a slot keeps at once (snapshots being copied); past it new barriers are refused until one is released.");
  public static final ConfigKey<String> SERVER_KERBEROS_PRINCIPAL = ConfigKey.string(
      "indexfs.server.kerberos.principal", "",
      "With hadoop.security.authentication=kerberos: the servers' principal, e.g. indexfs/_HOST@EXAMPLE.COM (_HOST: each server's host name). Clients read it too.");
  public static final ConfigKey<String> SERVER_KEYTAB = ConfigKey.string(
      "indexfs.server.keytab.file", "",
      "With hadoop.security.authentication=kerberos: the keytab holding the server's principal.");
  public static final ConfigKey<Integer> LEASE_TABLE_ENTRIES = ConfigKey.integer(
      "indexfs.lease.table-entries", 1_000_000,
      "Entries whose latest lease expiry a server remembers; when all are unexpired, new lookups are answered uncacheable.");
  public static final ConfigKey<Integer> CLIENT_CACHE_ENTRIES = ConfigKey.integer(
      "indexfs.client.cache-entries", 100_000,
      "Directory entries a client process caches under leases (least recently used go first).");
  public static final ConfigKey<Integer> CLIENT_LIST_CONNECTIONS = ConfigKey.integer(
      "indexfs.client.list-connections", 2,
      "Connections per server a client process spreads listing pages over (by caller thread), so a server answers a busy process's listings on that many I/O threads; every other call uses one connection.");
  public static final ConfigKey<Long> CLIENT_CONNECTION_LINGER_MS = ConfigKey.longValue(
      "indexfs.client.connection-linger-ms", 10_000,
      "How long a process keeps its shared cluster connection (ZooKeeper session, server connections, settings)"
          + " after its last FileSystem closes, so the next one starts at once; as Hadoop's"
          + " ipc.client.connection.maxidletime. 0 closes it with the last FileSystem.");
  public static final ConfigKey<Boolean> CLIENT_PRIVATE_CONNECTION = ConfigKey.bool(
      "indexfs.client.private-connection", false,
      "true: a FileSystem opens its own connections and directory cache instead of sharing the process's (to act as separate client processes in one JVM).");
  public static final ConfigKey<Integer> SPLIT_THRESHOLD = ConfigKey.integer(
      "indexfs.split.threshold", 2_000,
      "A directory partition holding more entries than this splits in two (GIGA+), until the directory spans all slots; 0 never splits.");
  public static final ConfigKey<Long> METRICS_LOG_INTERVAL_MS = ConfigKey.longValue(
      "indexfs.metrics.log-interval-ms", 60_000,
      "How often a server logs its counters (operations served, redirects, splits, entries); they are also on JMX.");
  public static final ConfigKey<Long> METRICS_WINDOW_MS = ConfigKey.longValue(
      "indexfs.metrics.window-ms", 10_000,
      "Latency, queue-time and group-commit percentiles cover the last completed window of this length (metrics2, /prom, status page).");
  public static final ConfigKey<Integer> HTTP_PORT = ConfigKey.integer(
      "indexfs.http.port", 0,
      "Port of the server's status page and /prom metrics, on indexfs.server.bind-host; 0 picks a free one (published in ZooKeeper and shown by admin -report), -1 turns it off.");
  public static final ConfigKey<Long> HOME_SYNC_INTERVAL_MS = ConfigKey.longValue(
      "indexfs.placement.refresh-ms", 3_000,
      "How often a server publishes its entry count for placement and retries unfinished syncs with other slots.");

  public static final ConfigKey<Integer> RPC_MAX_FRAME_BYTES = ConfigKey.integer(
      "indexfs.rpc.max-frame-bytes", 4 * 1024 * 1024,
      "Largest request or response frame; a bigger frame closes the connection.");
  public static final ConfigKey<Integer> RPC_IDLE_TIMEOUT_SECONDS = ConfigKey.integer(
      "indexfs.rpc.idle-timeout-seconds", 600,
      "A server closes a connection that sent nothing for this long (also ends half-sent frames); clients reconnect.");
  public static final ConfigKey<Integer> RPC_MAX_IN_FLIGHT = ConfigKey.integer(
      "indexfs.rpc.max-in-flight-per-connection", 1_000,
      "Calls one connection may have in flight; past it the server stops reading that connection until half are answered (back-pressure, not SERVER_BUSY).");
  public static final ConfigKey<Long> RPC_MAX_BUFFERED_BYTES = ConfigKey.longValue(
      "indexfs.rpc.max-buffered-bytes", 128L * 1024 * 1024,
      "Bytes of half-received frames over 64 KiB a server holds for all connections together; the connection that would exceed it is closed.");
  public static final ConfigKey<Long> RPC_MAX_BUFFERED_BYTES_PER_CLIENT = ConfigKey.longValue(
      "indexfs.rpc.max-buffered-bytes-per-client", 16L * 1024 * 1024,
      "Of indexfs.rpc.max-buffered-bytes, what the connections of one client address may hold together; the connection that would exceed it is closed.");
  public static final ConfigKey<Integer> RPC_MAX_CONNECTIONS = ConfigKey.integer(
      "indexfs.rpc.max-connections", 0,
      "Connections the servers of one process keep in all; a new one past it is closed at once (HDFS ipc.server.max.connections); 0: half the process's file-descriptor limit.");
  public static final ConfigKey<Integer> RPC_MAX_CONNECTIONS_PER_CLIENT = ConfigKey.integer(
      "indexfs.rpc.max-connections-per-client", 1_000,
      "Connections a server keeps from one client address; a new one past it is closed at once.");
  public static final ConfigKey<Integer> RPC_IDLE_THRESHOLD = ConfigKey.integer(
      "indexfs.rpc.idle-threshold", 4_000,
      "While a server holds more connections than this, those idle for over indexfs.rpc.max-idle-ms are closed (HDFS ipc.client.idlethreshold).");
  public static final ConfigKey<Long> RPC_MAX_IDLE_MS = ConfigKey.longValue(
      "indexfs.rpc.max-idle-ms", 20_000,
      "How long a connection with no call in flight and nothing received counts as not idle, when there are many (HDFS: 2 x ipc.client.connection.maxidletime).");
  public static final ConfigKey<Long> RPC_FRAME_DEADLINE_MS = ConfigKey.longValue(
      "indexfs.rpc.frame-deadline-ms", 30_000,
      "Time a frame may take to arrive once its first byte did; a slower one closes the connection.");
  public static final ConfigKey<Long> RPC_TIMEOUT_MS = ConfigKey.longValue(
      "indexfs.rpc.timeout-ms", 120_000, "How long a client waits for one reply.");
  public static final ConfigKey<Long> CLIENT_FAILOVER_WAIT_MS = ConfigKey.longValue(
      "indexfs.client.failover-wait-ms", 60_000,
      "How long a client keeps retrying a call whose slot is unreachable, failing over or busy (backoff from 50 ms"
          + " doubling to 2 s) before the error reaches the application; retried mutations get their first answer.");
  public static final ConfigKey<Long> RETRY_CACHE_EXPIRY_MS = ConfigKey.longValue(
      "indexfs.retry-cache.expiry-ms", 600_000,
      "How long a server remembers the outcome of a non-idempotent call for a client that retries it"
          + " (HDFS: dfs.namenode.retrycache.expirytime.millis).");
  public static final ConfigKey<Integer> RETRY_CACHE_ENTRIES = ConfigKey.integer(
      "indexfs.retry-cache.entries", 100_000,
      "Call outcomes a server keeps in memory for retries (older ones are read back from its store).");
  public static final ConfigKey<Integer> LIST_PAGE_SIZE = ConfigKey.integer(
      "indexfs.list.page-size", 1000, "Entries per listStatus page (HDFS: dfs.ls.limit).");

  public static final ConfigKey<String> SUPERUSER = ConfigKey.string(
      "indexfs.permissions.superuser", "",
      "The superuser; empty means the user running the server (as in HDFS).");
  public static final ConfigKey<String> SUPERGROUP = ConfigKey.string(
      "indexfs.permissions.superusergroup", "supergroup", "Members of this group are superusers.");
  public static final ConfigKey<Boolean> PERMISSIONS_ENABLED = ConfigKey.bool(
      "indexfs.permissions.enabled", true, "Check permissions like HDFS (dfs.permissions.enabled).");
  public static final ConfigKey<Integer> MAX_COMPONENT_LENGTH = ConfigKey.integer(
      "indexfs.fs-limits.max-component-length", 255,
      "Longest path component in UTF-8 bytes (HDFS dfs.namenode.fs-limits.max-component-length).");

  public static final ConfigKey<Boolean> XATTRS_ENABLED = ConfigKey.bool(
      "indexfs.xattrs.enabled", true,
      "Extended attributes may be set and read (HDFS dfs.namenode.xattrs.enabled).");
  public static final ConfigKey<Integer> MAX_XATTRS_PER_INODE = ConfigKey.integer(
      "indexfs.fs-limits.max-xattrs-per-inode", 32,
      "Most user-visible (user. and trusted.) extended attributes one entry may have (HDFS dfs.namenode.fs-limits.max-xattrs-per-inode).");
  public static final ConfigKey<Integer> MAX_XATTR_SIZE = ConfigKey.integer(
      "indexfs.fs-limits.max-xattr-size", 16_384,
      "Largest combined size in bytes of an extended attribute's name and value (HDFS dfs.namenode.fs-limits.max-xattr-size).");
  public static final ConfigKey<Boolean> ACLS_ENABLED = ConfigKey.bool(
      "indexfs.acls.enabled", true,
      "ACLs may be set and are enforced (HDFS dfs.namenode.acls.enabled).");
  public static final ConfigKey<Long> MIN_BLOCK_SIZE = ConfigKey.longValue(
      "indexfs.fs-limits.min-block-size", 1024 * 1024,
      "Smallest block size a create may ask for; smaller ones are refused at create (HDFS dfs.namenode.fs-limits.min-block-size).");
  public static final ConfigKey<Long> ACCESS_TIME_PRECISION_MS = ConfigKey.longValue(
      "indexfs.accesstime.precision-ms", 3_600_000,
      "Reading a file updates its access time when it is older than this; 0 turns access times off (HDFS dfs.namenode.accesstime.precision).");

  public static final ConfigKey<Boolean> AUDIT_ENABLED = ConfigKey.bool(
      "indexfs.audit.enabled", true,
      "Write an HDFS-format audit record per client call to logger org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit.");
  public static final ConfigKey<Integer> AUDIT_QUEUE = ConfigKey.integer(
      "indexfs.audit.queue-size", 65_536,
      "Audit records waiting for the asynchronous writer; a full queue slows handlers, it never drops records.");

  public static final ConfigKey<Long> LOCALIZE_LEASE_MS = ConfigKey.longValue(
      "indexfs.localize.lease-ms", 30_000,
      "Bulk insertion: how long a LOCALIZE lease on a subtree holds between renewals; a holder that stops renewing loses its unpublished work after this.");
  public static final ConfigKey<Long> LOCALIZE_YIELD_MS = ConfigKey.longValue(
      "indexfs.localize.yield-ms", 5_000,
      "Bulk insertion: after another client's change inside a localized subtree was refused, nobody else may localize that directory or one above it for this long, so the waiting client gets its turn.");
  public static final ConfigKey<Integer> LOCALIZE_MAX_ID_BLOCK = ConfigKey.integer(
      "indexfs.localize.max-id-block", 1 << 20,
      "Bulk insertion: the most inode ids one LOCALIZE grant or renewal reserves for its holder.");
  public static final ConfigKey<String> CLIENT_LOCALIZE_PATTERNS = ConfigKey.string(
      "indexfs.client.localize.patterns", "",
      "Comma-separated glob patterns of directories a client localizes when it creates them (bulk insertion for unmodified jobs), e.g. /checkpoints/*; a pattern ending in :shared uses SHARED_LOCALIZE.");
  public static final ConfigKey<Integer> CLIENT_LOCALIZE_BUFFER_ENTRIES = ConfigKey.integer(
      "indexfs.client.localize.buffer-entries", 262_144,
      "Bulk insertion: unpublished entries a client keeps in memory; past this many it publishes them (and goes on localized).");
  public static final ConfigKey<Long> CLIENT_LOCALIZE_DATA_LIMIT_BYTES = ConfigKey.longValue(
      "indexfs.client.localize.data-limit-bytes", 256L << 20,
      "Bulk insertion: after this many bytes written to data objects in a localized subtree the client publishes and gives the lease up (bulk insertion helps metadata, not data).");
  public static final ConfigKey<String> CLIENT_LOCALIZE_STORE = ConfigKey.string(
      "indexfs.client.localize.store", "buffer",
      "Bulk insertion: where a client keeps a localized subtree's entries: buffer (sorted in memory, spilled as SST runs) or rocksdb (an embedded RocksDB).");

  public static final ConfigKey<Boolean> CLIENT_LOCALIZE_TASK_ATTEMPTS = ConfigKey.bool(
      "indexfs.client.localize.task-attempts", false,
      "Bulk insertion for unmodified MapReduce and Spark jobs: a task attempt directory of FileOutputCommitter (_temporary/<n>/_temporary/attempt_*) is localized when the task makes its first file there, so its files cost no RPC each and the task commit publishes them.");

  public static final ConfigKey<Integer> STORE_BLOB_MIN_BYTES = ConfigKey.integer(
      "indexfs.store.blob-min-bytes", 0,
      "Column-style storage (IndexFS §II-C): entry values of at least this many bytes (small files' inline bytes) go to RocksDB blob files, so compactions move only attribute records; 0 keeps every value in the LSM tree.");

  public static final ConfigKey<Boolean> SERVER_GATEWAY_ENABLED = ConfigKey.bool(
      "indexfs.server.gateway.enabled", false,
      "Also run a NameNode-protocol gateway (hdfs://) inside this server process, beside its slots, set by the indexfs.gateway.* keys; it needs the gateway module on the process's classpath, which bin/indexfs server gives it.");
  public static final ConfigKey<String> GATEWAY_BIND_HOST = ConfigKey.string(
      "indexfs.gateway.bind-host", "0.0.0.0",
      "Address the NameNode-protocol gateway (bin/indexfs gateway) listens on for hdfs:// clients.");
  public static final ConfigKey<Integer> GATEWAY_PORT = ConfigKey.integer(
      "indexfs.gateway.port", 8020,
      "Port of the gateway's ClientProtocol RPC server (the NameNode's default, 8020); 0 picks a free one.");
  public static final ConfigKey<Integer> GATEWAY_HANDLERS = ConfigKey.integer(
      "indexfs.gateway.handlers", 32,
      "RPC handler threads of the gateway (HDFS: dfs.namenode.handler.count); each waits on IndexFS or the data tier for its call.");
  public static final ConfigKey<String> GATEWAY_INLINE_COPIES_DIR = ConfigKey.string(
      "indexfs.gateway.inline-copies.dir", "",
      "Directory on the data tier (a path, no scheme) where gateways keep read copies of inline files for hdfs:// readers, private to the gateway's user; empty: <path of indexfs.data.uri>/gateway-copies.");
  public static final ConfigKey<Long> GATEWAY_INLINE_COPIES_KEEP_MS = ConfigKey.longValue(
      "indexfs.gateway.inline-copies.keep-ms", 86_400_000L,
      "A read copy of an inline file not read for this long (the data tier's access time) is deleted; a later reader makes it again.");
  public static final ConfigKey<String> GATEWAY_KERBEROS_PRINCIPAL = ConfigKey.string(
      "indexfs.gateway.kerberos.principal", "",
      "With hadoop.security.authentication=kerberos: the gateway's principal (_HOST is its bind host), e.g. gateway/_HOST@REALM; hdfs:// clients name it in dfs.namenode.kerberos.principal, and IndexFS's servers and the data tier must let it act for others (hadoop.proxyuser.<it>.*).");
  public static final ConfigKey<String> GATEWAY_KEYTAB = ConfigKey.string(
      "indexfs.gateway.keytab.file", "",
      "With Kerberos: the keytab holding the gateway's principal.");
  public static final ConfigKey<Long> GATEWAY_TOKEN_MAX_LIFETIME_MS = ConfigKey.longValue(
      "indexfs.gateway.delegation-token.max-lifetime-ms", 7L * 24 * 3_600_000,
      "Longest life of an HDFS delegation token the gateways issue, however often renewed (HDFS: dfs.namenode.delegation.token.max-lifetime).");
  public static final ConfigKey<Long> GATEWAY_TOKEN_RENEW_INTERVAL_MS = ConfigKey.longValue(
      "indexfs.gateway.delegation-token.renew-interval-ms", 24L * 3_600_000,
      "How long a gateway delegation token lives between renewals (HDFS: dfs.namenode.delegation.token.renew-interval).");
  public static final ConfigKey<Long> GATEWAY_TOKEN_KEY_UPDATE_INTERVAL_MS = ConfigKey.longValue(
      "indexfs.gateway.delegation-token.key-update-interval-ms", 24L * 3_600_000,
      "How often the gateways' token signing key (kept in ZooKeeper, shared by every gateway) is replaced (HDFS: dfs.namenode.delegation.key.update-interval).");

  public static final List<ConfigKey<?>> ALL = List.of(
      ZOOKEEPER_QUORUM, ZOOKEEPER_SESSION_TIMEOUT_MS, SLOT_LEASE_WAIT_MS, CLUSTER_NAME, SERVER_DIR,
      SERVER_BIND_HOST, SERVER_PORT, SERVER_SLOT, SERVER_SLOTS, SERVER_STANDBY, SERVER_NAME, SERVER_HANDLERS, SERVER_IO_THREADS, SERVER_CACHE_ENTRIES, SERVER_QUEUE, WAL_SYNC, WAL_ASYNC_WINDOW_MS, STORE_RESERVED_BYTES,
      JOURNAL_ENABLED, JOURNAL_SEGMENT_BYTES, JOURNAL_CHECKPOINT_RECORDS, JOURNAL_CHECKPOINT_INTERVAL_MS,
      JOURNAL_CHECKPOINTS_KEPT, DATA_URI,
      INLINE_MAX_BYTES, LEASE_SOFT_LIMIT_MS, LEASE_HARD_LIMIT_MS, SCRUB_INTERVAL_MS, SCRUB_GRACE_MS,
      RPC_MAX_FRAME_BYTES, RPC_IDLE_TIMEOUT_SECONDS, RPC_MAX_IN_FLIGHT, RPC_MAX_BUFFERED_BYTES,
      RPC_MAX_BUFFERED_BYTES_PER_CLIENT, RPC_MAX_CONNECTIONS, RPC_MAX_CONNECTIONS_PER_CLIENT, RPC_IDLE_THRESHOLD,
      RPC_MAX_IDLE_MS, RPC_FRAME_DEADLINE_MS, RPC_TIMEOUT_MS, CLIENT_FAILOVER_WAIT_MS, RETRY_CACHE_EXPIRY_MS,
      RETRY_CACHE_ENTRIES, LIST_PAGE_SIZE, SUPERUSER, SUPERGROUP,
      PERMISSIONS_ENABLED, MAX_COMPONENT_LENGTH, MIN_BLOCK_SIZE, ACCESS_TIME_PRECISION_MS, XATTRS_ENABLED,
      MAX_XATTRS_PER_INODE, MAX_XATTR_SIZE, ACLS_ENABLED, AUDIT_ENABLED, AUDIT_QUEUE, LEASE_POLICY, LEASE_FIXED_MS,
      LEASE_MAX_MS, SECURITY_RESOLUTION_GRACE_MS, SECURITY_KEY_ROTATION_MS, SECURITY_ZOOKEEPER_DIGEST,
      SECURITY_ZOOKEEPER_AUTH, SECURITY_ZOOKEEPER_SERVER_PRINCIPAL, SECURITY_ZOOKEEPER_SERVER_ID, SNAPSHOT_HOLD_LIMIT_MS,
      SNAPSHOT_KEEP_LIMIT_MS, SNAPSHOT_MAX_HELD,
      SECURITY_ADDRESS_PROXY_USERS, SERVER_KERBEROS_PRINCIPAL, SERVER_KEYTAB,
      LEASE_TABLE_ENTRIES, CLIENT_CACHE_ENTRIES, CLIENT_LIST_CONNECTIONS, CLIENT_CONNECTION_LINGER_MS, CLIENT_PRIVATE_CONNECTION, HOME_SYNC_INTERVAL_MS,
      METRICS_LOG_INTERVAL_MS, METRICS_WINDOW_MS, HTTP_PORT, SPLIT_THRESHOLD, LOCALIZE_LEASE_MS,
      LOCALIZE_YIELD_MS, LOCALIZE_MAX_ID_BLOCK, CLIENT_LOCALIZE_PATTERNS, CLIENT_LOCALIZE_BUFFER_ENTRIES, CLIENT_LOCALIZE_DATA_LIMIT_BYTES,
      CLIENT_LOCALIZE_STORE, CLIENT_LOCALIZE_TASK_ATTEMPTS, STORE_BLOB_MIN_BYTES,
      SERVER_GATEWAY_ENABLED, GATEWAY_BIND_HOST, GATEWAY_PORT, GATEWAY_HANDLERS, GATEWAY_INLINE_COPIES_DIR, GATEWAY_INLINE_COPIES_KEEP_MS,
      GATEWAY_KERBEROS_PRINCIPAL, GATEWAY_KEYTAB, GATEWAY_TOKEN_MAX_LIFETIME_MS, GATEWAY_TOKEN_RENEW_INTERVAL_MS,
      GATEWAY_TOKEN_KEY_UPDATE_INTERVAL_MS);
}
