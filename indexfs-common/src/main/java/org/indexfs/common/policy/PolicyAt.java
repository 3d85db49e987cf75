package org.indexfs.common.policy;

/**
 * The policy in force at {@code path} and the directory that sets it ({@code definedAt}; null when
 * nothing above sets one and the default applies).
 */
public record PolicyAt(String path, SubtreePolicy policy, String definedAt) {
  @Override
  public String toString() {
    return path + "\t" + policy + "\t" + (definedAt == null ? "(default)" : "set at " + definedAt);
  }
}
