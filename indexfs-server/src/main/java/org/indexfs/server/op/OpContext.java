package org.indexfs.server.op;

import org.indexfs.server.data.DataTier;
import org.indexfs.server.data.Reclaimer;
import org.indexfs.server.filelease.LeaseRecovery;
import org.indexfs.server.filelease.LeaseTable;
import org.indexfs.server.lease.EntryLeases;
import org.indexfs.server.ns.AccessChecker;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.ns.PathResolver;
import org.indexfs.server.peer.Peers;
import org.indexfs.server.placement.HomeSync;
import org.indexfs.server.placement.Placement;
import org.indexfs.server.quota.QuotaShares;
import org.indexfs.server.split.Partitions;
import org.indexfs.server.split.SplitManager;

/**
 * What the operations share: the namespace, path walking, permission checks, reclamation and
 * limits, for the data path the write leases, their recovery and the data tier, and for
 * directories spread over slots the peer servers, home syncing and placement; this slot's shares
 * of directory quotas.
 */
public record OpContext(
    Namespace ns,
    PathResolver resolver,
    AccessChecker access,
    Reclaimer reclaimer,
    String dataUri,
    int inlineMaxBytes,
    int listPageSize,
    LeaseTable leases,
    LeaseRecovery recovery,
    DataTier data,
    Peers peers,
    HomeSync homes,
    Placement placement,
    EntryLeases entryLeases,
    Partitions partitions,
    SplitManager splits,
    QuotaShares quotas) {}
