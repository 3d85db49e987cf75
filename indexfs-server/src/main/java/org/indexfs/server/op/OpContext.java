package org.indexfs.server.op;

import org.indexfs.server.data.DataTier;
import org.indexfs.server.data.Reclaimer;
import org.indexfs.server.filelease.LeaseRecovery;
import org.indexfs.server.filelease.LeaseTable;
import org.indexfs.server.ns.AccessChecker;
import org.indexfs.server.ns.Namespace;
import org.indexfs.server.ns.PathResolver;

/**
 * What the operations share: the namespace, path walking, permission checks, reclamation and
 * limits, and for the data path the write leases, their recovery and the data tier.
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
    DataTier data) {}
