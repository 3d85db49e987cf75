package org.indexfs.client;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.indexfs.common.IndexFsException;
import org.indexfs.common.PathNames;
import org.indexfs.common.policy.PolicyAt;
import org.indexfs.common.policy.SubtreePolicy;
import org.indexfs.proto.Code;
import org.indexfs.proto.DefinedPolicy;
import org.indexfs.proto.GetPolicyRequest;
import org.indexfs.proto.Request;
import org.indexfs.proto.Resolution;
import org.indexfs.proto.SetPolicyRequest;

/** The subtree-policy calls of {@link IndexFsClient} (issue 18): set, get, list, and the cached answer. */
final class SubtreePolicies {
  private final ClusterConnection cluster;
  private final FailoverSender sender;
  private final PathRouter router;

  SubtreePolicies(ClusterConnection cluster, FailoverSender sender, PathRouter router) {
    this.cluster = cluster;
    this.sender = sender;
    this.router = router;
  }

  /** See {@link IndexFsClient#cachedPolicy}. */
  SubtreePolicy cached(String path) throws IOException {
    List<String> names = PathNames.components(path, Integer.MAX_VALUE);
    Resolution known = cluster.resolutions().resolve(names, names.size());
    if (known.getAncestorsCount() < names.size()) {
      return null;
    }
    for (int i = known.getAncestorsCount() - 1; i >= 0; i--) {
      SubtreePolicy p = SubtreePolicy.fromFlags(known.getAncestors(i).getFlags());
      if (p != null) {
        return p;
      }
    }
    return SubtreePolicy.DEFAULT;
  }

  void set(String path, SubtreePolicy policy) throws IOException {
    SetPolicyRequest.Builder req = SetPolicyRequest.newBuilder().setPath(path);
    if (policy == null) {
      req.setClear(true);
    } else {
      req.setConsistency(SubtreePolicy.nameOf(policy.consistency()))
          .setDurability(SubtreePolicy.nameOf(policy.durability()));
    }
    router.route(Request.newBuilder().setSetPolicy(req), path, false, 0, null);
  }

  PolicyAt get(String path) throws IOException {
    DefinedPolicy d = router.route(Request.newBuilder().setGetPolicy(GetPolicyRequest.newBuilder().setPath(path)),
        path, false, 0, null).response().getPolicies().getPolicies(0);
    return policyAt(d);
  }

  /** See {@link IndexFsClient#listPolicies}. */
  List<PolicyAt> list() throws IOException {
    TreeMap<String, PolicyAt> out = new TreeMap<>();
    for (int slot = 0; slot < cluster.slotCount(); slot++) {
      for (DefinedPolicy d : sender.call(slot, Request.newBuilder().setGetPolicy(GetPolicyRequest.newBuilder()
          .setList(true))).getPolicies().getPoliciesList()) {
        PolicyAt now;
        try {
          now = get(d.getPath());
        } catch (IndexFsException e) {
          if (e.code() == Code.FILE_NOT_FOUND) {
            continue; // deleted since its policy was set
          }
          throw e;
        }
        if (d.getPath().equals(now.definedAt())) {
          out.put(d.getPath(), now);
        }
      }
    }
    return new ArrayList<>(out.values());
  }

  private static PolicyAt policyAt(DefinedPolicy d) {
    return new PolicyAt(d.getPath(), new SubtreePolicy(SubtreePolicy.consistency(d.getConsistency()),
        SubtreePolicy.durability(d.getDurability())), d.getDefinedAt().isEmpty() ? null : d.getDefinedAt());
  }
}
