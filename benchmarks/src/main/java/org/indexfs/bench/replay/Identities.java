package org.indexfs.bench.replay;

import java.io.IOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The users a replay acts as on one target, each with its own FileSystem opened as that user and
 * closed by {@link #close}. Users the trace shows acting as superusers (they gave entries away)
 * act as the replaying user, the target's superuser.
 */
final class Identities implements AutoCloseable {
  /** One user's view of the target. */
  static final class Caller {
    final UserGroupInformation ugi;
    final FileSystem fs;

    Caller(UserGroupInformation ugi, URI uri, Configuration conf) throws IOException {
      this.ugi = ugi;
      this.fs = as(() -> FileSystem.newInstance(uri, conf));
    }

    <T> T as(PrivilegedExceptionAction<T> action) throws IOException {
      try {
        return ugi.doAs(action);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("Interrupted");
      }
    }
  }

  private final URI uri;
  private final Configuration conf;
  private final Impersonation mode;
  private final String singleUser;
  private final Set<String> superusers;
  private final UserGroupInformation login;
  private final ConcurrentHashMap<String, Caller> callers = new ConcurrentHashMap<>();
  private Caller loginCaller;

  Identities(URI uri, Configuration conf, Impersonation mode, String singleUser) throws IOException {
    this(uri, conf, mode, singleUser, Set.of());
  }

  Identities(URI uri, Configuration conf, Impersonation mode, String singleUser, Set<String> superusers)
      throws IOException {
    this.uri = uri;
    this.conf = conf;
    this.mode = mode;
    this.singleUser = singleUser;
    this.superusers = Set.copyOf(superusers);
    this.login = UserGroupInformation.getLoginUser();
  }

  /** The login user's short name. */
  String loginUser() {
    return login.getShortUserName();
  }

  URI uri() {
    return uri;
  }

  Impersonation mode() {
    return mode;
  }

  /** The caller for a trace user (opened on first use). */
  Caller forUser(String traceUser) throws IOException {
    if (mode != Impersonation.SINGLE && superusers.contains(traceUser)) {
      return superuser();
    }
    String user = mode == Impersonation.SINGLE ? singleUser : traceUser;
    Caller c = callers.get(user);
    if (c != null) {
      return c;
    }
    synchronized (callers) {
      c = callers.get(user);
      if (c == null) {
        c = new Caller(ugiFor(user), uri, conf);
        callers.put(user, c);
      }
      return c;
    }
  }

  /** The replaying (login) user itself, whatever the mode: makes the pre-created entries nobody owns. */
  synchronized Caller superuser() throws IOException {
    if (loginCaller == null) {
      loginCaller = new Caller(login, uri, conf);
    }
    return loginCaller;
  }

  private UserGroupInformation ugiFor(String user) {
    if (user.equals(login.getShortUserName())) {
      return login;
    }
    return mode == Impersonation.PROXY ? UserGroupInformation.createProxyUser(user, login)
        : UserGroupInformation.createRemoteUser(user);
  }

  @Override
  public void close() throws IOException {
    IOException first = null;
    List<Caller> all = new ArrayList<>(callers.values());
    synchronized (this) {
      if (loginCaller != null) {
        all.add(loginCaller);
        loginCaller = null;
      }
    }
    for (Caller c : all) {
      try {
        c.fs.close();
      } catch (IOException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    callers.clear();
    if (first != null) {
      throw first;
    }
  }
}
