package org.indexfs.it.hosts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.indexfs.client.NetHosts;
import org.indexfs.it.hosts.ComposeFile.Service;

/**
 * The deployment of {@code docker/compose.yaml} without Docker: every service on a host of its own
 * (a network namespace with its own IP on a bridge, {@link NetHosts}), started from the compose file
 * and {@code docker/conf/} as the images would start it:
 * <ul>
 *   <li>{@code zookeeper} image: ZooKeeper's {@code QuorumPeerMain} (from the jars on the class path)
 *       with the {@code zoo.cfg} the image's entrypoint writes from {@code ZOO_MY_ID}/{@code ZOO_SERVERS};</li>
 *   <li>{@code apache/hadoop} image: HDFS's {@code NameNode}/{@code DataNode} with the
 *       {@code core-site.xml}/{@code hdfs-site.xml} the image's envtoconf writes from
 *       {@code docker/conf/hadoop.env} (the NameNode formatted first when {@code ENSURE_NAMENODE_DIR} is
 *       missing); as the image, the daemons act as user {@code hadoop} (HDFS's superuser);</li>
 *   <li>our image: {@code bin/indexfs} with the service's command line (its entrypoint), the
 *       client's entrypoint script {@code docker/client-demo.sh} as it is.</li>
 * </ul>
 * Host names resolve per host as in Docker: each host gets its own {@code /etc/hosts} naming every
 * service (and the machine's host name as the host's own address, as a container's), so every
 * setting keeps its host names ({@code zk1:2181}, {@code hdfs://namenode:8020}, bind host
 * {@code slot0}). Paths inside a container map to: a bind mount's source in {@code docker/}, a named
 * volume's directory under the cluster's work directory, {@code /opt/indexfs} to the source tree, any
 * other path to the host's own directory. The test's own JVM sits on the bridge outside every host:
 * it gets the same client settings with host names replaced by the hosts' IPs ({@link #clientConf}).
 */
public final class ComposeHosts implements AutoCloseable {
  static final String JVM = "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.net.preferIPv4Stack=true";
  private static final String IMAGE_HOME = "/opt/indexfs";

  final ComposeFile compose;
  final Path repo;
  final Path work;
  final NetHosts hosts;
  private final Map<String, Integer> hostOf = new LinkedHashMap<>();
  private final Map<String, HostProcess> running = new ConcurrentHashMap<>();
  private final Map<String, String> imageEnv;
  /** Data directories mounted as small file systems ({@link #smallDisks}), unmounted at close. */
  private final List<Path> mounted = new ArrayList<>();
  /** {@code -D key=value} arguments every slot server (active or standby) starts with, beyond docker/conf. */
  private final List<String> serverSettings = new ArrayList<>();
  private final String machineName;

  /** Builds the hosts (one per service) and their {@code /etc/hosts}; {@link #start} runs the services. */
  public ComposeHosts(Path repo, Path work) throws IOException, InterruptedException {
    this.repo = repo.toAbsolutePath().normalize();
    this.work = work;
    this.compose = new ComposeFile(this.repo.resolve("docker/compose.yaml"));
    this.imageEnv = dockerfileEnv(this.repo.resolve("docker/Dockerfile"));
    this.machineName = java.net.InetAddress.getLocalHost().getHostName();
    this.hosts = new NetHosts(compose.services.size());
    try {
      for (Service s : compose.services) {
        hostOf.put(s.name(), hostOf.size());
      }
      for (Service s : compose.services) {
        StringBuilder etc = new StringBuilder("127.0.0.1 localhost\n");
        etc.append(ip(s.name())).append(' ').append(machineName).append('\n');
        for (Service o : compose.services) {
          etc.append(ip(o.name())).append(' ').append(o.hostname())
              .append(o.hostname().equals(o.name()) ? "" : " " + o.name()).append('\n');
        }
        hosts.hostsFile(hostOf.get(s.name()), etc.toString());
      }
      Files.writeString(work.resolve("log4j-hosts.properties"), """
          log4j.rootLogger=INFO,console
          log4j.appender.console=org.apache.log4j.ConsoleAppender
          log4j.appender.console.layout=org.apache.log4j.PatternLayout
          log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %-5p %c{1} - %m%n
          log4j.logger.BlockStateChange=WARN
          log4j.logger.org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit=WARN
          log4j.logger.org.apache.hadoop.hdfs.server.datanode.DataNode.clienttrace=WARN
          """);
    } catch (IOException | RuntimeException e) {
      hosts.close();
      throw e;
    }
  }

  /** The image's ENV lines (INDEXFS_HOME, INDEXFS_LOG_DIR, PATH): what its processes find in their environment. */
  private static Map<String, String> dockerfileEnv(Path dockerfile) throws IOException {
    Map<String, String> env = new LinkedHashMap<>();
    Matcher block = Pattern.compile("(?m)^ENV ((?:[^\\n]*\\\\\\n)*[^\\n]*)").matcher(Files.readString(dockerfile));
    while (block.find()) {
      Matcher kv = Pattern.compile("(\\w+)=(\\S+)").matcher(block.group(1));
      while (kv.find()) {
        env.put(kv.group(1), kv.group(2));
      }
    }
    return env;
  }

  public String ip(String service) {
    return hosts.host(hostOf.get(service));
  }

  public int host(String service) {
    return hostOf.get(service);
  }

  public List<Service> services(String family) {
    return compose.services.stream().filter(s -> s.family().equals(family)).toList();
  }

  HostProcess process(String service) {
    return running.get(service);
  }

  /** Starts every service but the client, in the compose file's order of dependencies, and waits until each is up. */
  public void start() throws Exception {
    for (Service s : services("zookeeper")) {
      startZooKeeper(s);
    }
    for (Service s : services("apache/hadoop")) {
      startHadoop(s);
    }
    for (Service s : services("indexfs")) {
      if (!s.isSlotServer() && !s.command().isEmpty()) {
        runToCompletion(s, 120_000);   // format: "restart: on-failure" until the ensemble answers
      }
    }
    awaitHdfs(300_000);
    // Actives first, then their standbys (depends_on), each batch started together.
    for (boolean standby : new boolean[] {false, true}) {
      List<Service> batch = services("indexfs").stream()
          .filter(s -> s.isSlotServer() && s.isStandby() == standby).toList();
      for (Service s : batch) {
        startServer(s);
      }
      for (Service s : batch) {
        awaitServer(s.name(), 0, 180_000);
      }
    }
  }

  /** Waits until the server of {@code service} serves (an active) or follows (a standby), from log line {@code from}. */
  int awaitServer(String service, int from, long timeoutMs) throws IOException, InterruptedException {
    return running.get(service).await(l -> l.startsWith("INDEXFS_SERVER_READY ") || l.startsWith("INDEXFS_STANDBY_READY "),
        from, timeoutMs);
  }

  private Path hostDir(Service s) throws IOException {
    return Files.createDirectories(work.resolve("hosts").resolve(s.name()));
  }

  /** Where a path inside {@code s}'s container lives here (see the class comment). */
  String hostPath(Service s, String path) throws IOException {
    for (String v : s.volumes()) {
      String[] parts = v.split(":");
      if (path.equals(parts[1]) || path.startsWith(parts[1] + "/")) {
        Path source = parts[0].startsWith("./") ? compose.dir.resolve(parts[0].substring(2)).normalize()
            : Files.createDirectories(work.resolve("volumes").resolve(parts[0]));
        return source + path.substring(parts[1].length());
      }
    }
    if (path.equals(IMAGE_HOME) || path.startsWith(IMAGE_HOME + "/")) {
      return repo + path.substring(IMAGE_HOME.length());
    }
    return hostDir(s).resolve("root").toString() + path;
  }

  private String translate(Service s, String value) throws IOException {
    if (!value.startsWith("/")) {
      return value;
    }
    List<String> out = new ArrayList<>();
    for (String p : value.split(":")) {
      out.add(p.startsWith("/") ? hostPath(s, p) : p);
    }
    return String.join(":", out);
  }

  private HostProcess launch(Service s, List<String> command, Map<String, String> env) throws IOException {
    List<String> full = new ArrayList<>(hosts.exec(hostOf.get(s.name())));
    full.addAll(command);
    HostProcess p = HostProcess.start(s.name(), full, env, hostDir(s), work.resolve(s.name() + ".log"));
    running.put(s.name(), p);
    return p;
  }

  private List<String> java(String heap, Path confDir, String main) {
    List<String> c = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), heap));
    c.addAll(List.of(JVM.split(" ")));
    c.add("-Dlog4j.configuration=file:" + work.resolve("log4j-hosts.properties"));
    c.addAll(List.of("-cp", (confDir == null ? "" : confDir + ":") + System.getProperty("java.class.path"), main));
    return c;
  }

  // ZooKeeper: what the official image's docker-entrypoint.sh writes, from ZOO_MY_ID and ZOO_SERVERS.
  private void startZooKeeper(Service s) throws IOException {
    Path data = Files.createDirectories(Path.of(hostPath(s, "/data")));
    Path datalog = Files.createDirectories(Path.of(hostPath(s, "/datalog")));
    StringBuilder cfg = new StringBuilder()
        .append("dataDir=").append(data).append('\n')
        .append("dataLogDir=").append(datalog).append('\n')
        .append("tickTime=2000\ninitLimit=5\nsyncLimit=2\n")
        .append("autopurge.snapRetainCount=3\nautopurge.purgeInterval=0\nmaxClientCnxns=60\n")
        .append("standaloneEnabled=true\n")
        // The image turns the AdminServer (Jetty, port 8080) on; nothing here uses it.
        .append("admin.enableServer=false\n")
        .append("4lw.commands.whitelist=srvr,ruok\n");
    for (String server : s.environment().get("ZOO_SERVERS").trim().split("\\s+")) {
      cfg.append(server).append('\n');
    }
    Files.writeString(data.resolve("myid"), s.environment().get("ZOO_MY_ID") + "\n");
    Path conf = hostDir(s).resolve("zoo.cfg");
    Files.writeString(conf, cfg);
    List<String> cmd = java("-Xmx96m", null, "org.apache.zookeeper.server.quorum.QuorumPeerMain");
    cmd.add(conf.toString());
    launch(s, cmd, Map.of());
  }

  // HDFS: the apache/hadoop image's envtoconf turns <FILE>.XML_<key>=<value> into that file's property.
  private void startHadoop(Service s) throws Exception {
    Path etc = Files.createDirectories(hostDir(s).resolve("etc-hadoop"));
    Map<String, Map<String, String>> files = new LinkedHashMap<>();
    List<String> lines = new ArrayList<>(s.envFileLines());
    s.environment().forEach((k, v) -> lines.add(k + "=" + v));
    for (String line : lines) {
      int u = line.indexOf(".XML_");
      int eq = line.indexOf('=');
      if (u > 0 && eq > u) {
        files.computeIfAbsent(line.substring(0, u).toLowerCase() + ".xml", f -> new LinkedHashMap<>())
            .put(line.substring(u + 5, eq), line.substring(eq + 1));
      }
    }
    // The image's default hadoop.tmp.dir (/tmp/hadoop-${user.name}, here root's: ENSURE_NAMENODE_DIR
    // names it) is container-private; here it is the host's own directory.
    files.computeIfAbsent("core-site.xml", f -> new LinkedHashMap<>()).put("hadoop.tmp.dir", hostPath(s, "/tmp/hadoop-root"));
    for (Map.Entry<String, Map<String, String>> f : files.entrySet()) {
      StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
      f.getValue().forEach((k, v) -> xml.append("  <property><name>").append(k).append("</name><value>")
          .append(v).append("</value></property>\n"));
      Files.writeString(etc.resolve(f.getKey()), xml.append("</configuration>\n"));
    }
    Map<String, String> env = Map.of("HADOOP_USER_NAME", "hadoop");
    String role = s.command().get(1);
    String main = switch (role) {
      case "namenode" -> "org.apache.hadoop.hdfs.server.namenode.NameNode";
      case "datanode" -> "org.apache.hadoop.hdfs.server.datanode.DataNode";
      default -> throw new IllegalArgumentException(s.name() + ": hdfs " + role + " is not part of the topology");
    };
    String ensure = s.environment().get("ENSURE_NAMENODE_DIR");
    if (ensure != null && !Files.isDirectory(Path.of(hostPath(s, ensure)))) {
      List<String> format = java("-Xmx192m", etc, main);
      format.addAll(List.of("-format", "-force", "-nonInteractive"));
      HostProcess f = launch(s, format, env);
      if (f.waitFor(120_000) != 0) {
        throw new IOException("hdfs namenode -format failed; see " + f.log());
      }
    }
    launch(s, java("-Xmx256m", etc, main), env);
  }

  /** Our image's services: bin/indexfs with the service's command (the image's ENTRYPOINT), or its entrypoint script. */
  private HostProcess startOurs(Service s, List<String> extraEnv) throws IOException {
    return startOurs(s, extraEnv, List.of());
  }

  private HostProcess startOurs(Service s, List<String> extraEnv, List<String> extraArgs) throws IOException {
    List<String> cmd = new ArrayList<>();
    if (s.entrypoint().isEmpty()) {
      cmd.add(repo.resolve("bin/indexfs").toString());
    } else {
      for (String a : s.entrypoint()) {
        cmd.add(translate(s, a));
      }
    }
    for (String a : s.command()) {
      cmd.add(translate(s, a));
    }
    cmd.addAll(extraArgs);
    if (s.isSlotServer()) {
      cmd.addAll(serverSettings);
    }
    Map<String, String> env = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : imageEnv.entrySet()) {
      env.put(e.getKey(), translate(s, e.getValue()).replace("$PATH", System.getenv("PATH")));
    }
    for (Map.Entry<String, String> e : s.environment().entrySet()) {
      env.put(e.getKey(), translate(s, e.getValue()));
    }
    for (String kv : extraEnv) {
      env.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
    }
    env.putIfAbsent("INDEXFS_JAVA_OPTS", "-Xmx256m " + JVM);
    mountVolumes(s);
    for (String v : env.values()) {
      if (v.startsWith(work.toString())) {
        Files.createDirectories(Path.of(v));
      }
    }
    return launch(s, cmd, env);
  }

  /** Links each volume's container path under the host's directory to its source, so paths built from a translated parent find it. */
  private void mountVolumes(Service s) throws IOException {
    for (String v : s.volumes()) {
      String target = v.split(":")[1];
      if (target.startsWith(IMAGE_HOME)) {
        continue;
      }
      Path link = Path.of(hostDir(s).resolve("root").toString() + target);
      if (!Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        Files.createDirectories(link.getParent());
        Files.createSymbolicLink(link, Path.of(hostPath(s, target)));
      }
    }
  }

  /**
   * Gives every slot server's data volume ({@code /data}) a file system of its own of {@code mb}
   * MiB (tmpfs), so a test can fill one up ({@link #fillDisk}); call before {@link #start}.
   */
  void smallDisks(int mb) throws IOException, InterruptedException {
    for (Service s : services("indexfs")) {
      if (s.isSlotServer()) {
        Path dir = Path.of(hostPath(s, "/data"));
        Files.createDirectories(dir);
        command("mount", "-t", "tmpfs", "-o", "size=" + mb + "m", "tmpfs", dir.toString());
        mounted.add(dir);
      }
    }
  }

  private static void command(String... args) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IOException(String.join(" ", args) + " failed: " + out.trim());
    }
  }

  /** Fills {@code service}'s data volume to the last byte with a ballast file; returns the file. */
  Path fillDisk(String service) throws IOException {
    Path ballast = Path.of(hostPath(compose.service(service), "/data")).resolve("ballast");
    byte[] block = new byte[1 << 20];
    try (java.io.OutputStream out = Files.newOutputStream(ballast)) {
      while (true) {
        out.write(block);
      }
    } catch (IOException full) {
      if (!String.valueOf(full.getMessage()).contains("No space left")) {
        throw full;
      }
    }
    return ballast;
  }

  /** Slot servers started from now on also get {@code key=value} (a test's setting over docker/conf). */
  void serverSetting(String key, String value) {
    serverSettings.add("-D");
    serverSettings.add(key + "=" + value);
  }

  private void startServer(Service s) throws IOException {
    startOurs(s, List.of());
  }

  /**
   * Starts server {@code service} again after it was killed, with its directory kept, as a standby
   * ({@code --standby} added to its command: its slot has moved on meanwhile), as an operator or a
   * supervisor would; waits until it follows the slot.
   */
  void restartAsStandby(String service) throws IOException, InterruptedException {
    HostProcess p = startOurs(compose.service(service), List.of(), List.of("--standby"));
    p.await(l -> l.startsWith("INDEXFS_STANDBY_READY "), 0, 180_000);
  }

  /** Starts a killed ZooKeeper or HDFS service again on its own data. */
  void restartInfrastructure(String service) throws Exception {
    Service s = compose.service(service);
    if (s.family().equals("zookeeper")) {
      startZooKeeper(s);
    } else {
      startHadoop(s);
    }
  }

  /** The slot servers of {@code slot} (active and standby services). */
  List<String> serversOf(int slot) {
    return services("indexfs").stream().filter(s -> s.isSlotServer() && s.slot() == slot).map(Service::name).toList();
  }

  /** The service serving {@code slot} now: alive, and the last of its ready lines says it serves; null if none. */
  String activeOf(int slot) {
    for (String name : serversOf(slot)) {
      HostProcess p = running.get(name);
      if (p == null || !p.isAlive()) {
        continue;
      }
      List<String> lines = p.lines();
      for (int i = lines.size() - 1; i >= 0; i--) {
        if (lines.get(i).startsWith("INDEXFS_SERVER_READY ")) {
          return name;
        }
        if (lines.get(i).startsWith("INDEXFS_STANDBY_READY ")) {
          break;
        }
      }
    }
    return null;
  }

  /** The number of slots (servers that are not standbys). */
  int slotCount() {
    return (int) services("indexfs").stream().filter(s -> s.isSlotServer() && !s.isStandby()).count();
  }

  private void runToCompletion(Service s, long timeoutMs) throws Exception {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (true) {
      HostProcess p = startOurs(s, List.of());
      int rc = p.waitFor(timeoutMs);
      if (rc == 0) {
        return;
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IOException(s.name() + " failed with " + rc + "; see " + p.log());
      }
      Thread.sleep(1_000);
    }
  }

  /** Runs the client service (its entrypoint script) to completion; returns its exit status. */
  public HostProcess runClient(String service, long timeoutMs, String... extraEnv) throws Exception {
    HostProcess p = startOurs(compose.service(service), List.of(extraEnv));
    p.waitFor(timeoutMs);
    return p;
  }

  /** HDFS as the test's JVM reaches it (by IP). */
  public Configuration hdfsConf() {
    Configuration c = new Configuration();
    c.set("fs.defaultFS", "hdfs://" + ip("namenode") + ":8020");
    return c;
  }

  /** HDFS as user {@code hadoop}, the daemons' user and so HDFS's superuser (as in the image). */
  public org.apache.hadoop.fs.FileSystem hdfs(Configuration conf) throws IOException, InterruptedException {
    return asHadoop(org.apache.hadoop.fs.FileSystem.getDefaultUri(conf), conf);
  }

  /** A file system as user {@code hadoop}: the compose file's clients' HADOOP_USER_NAME. */
  public org.apache.hadoop.fs.FileSystem asHadoop(java.net.URI uri, Configuration conf)
      throws IOException, InterruptedException {
    return org.apache.hadoop.security.UserGroupInformation.createRemoteUser("hadoop")
        .doAs((java.security.PrivilegedExceptionAction<org.apache.hadoop.fs.FileSystem>)
            () -> org.apache.hadoop.fs.FileSystem.newInstance(uri, conf));
  }

  /** The ZooKeeper quorum of docker/conf/core-site.xml with the hosts' IPs for their names. */
  public String zookeeperByIp() throws IOException {
    Configuration site = new Configuration(false);
    site.addResource(new org.apache.hadoop.fs.Path(repo.resolve("docker/conf/core-site.xml").toUri()));
    String cluster = java.net.URI.create(site.get("fs.defaultFS")).getAuthority();
    String quorum = site.get("indexfs.cluster." + cluster + ".zookeeper");
    for (Service s : compose.services) {
      quorum = quorum.replaceAll("\\b" + Pattern.quote(s.hostname()) + ":", ip(s.name()) + ":");
    }
    return quorum;
  }

  /** The client settings of docker/conf/core-site.xml for the test's JVM (IPs for host names). */
  public Configuration clientConf() throws IOException {
    Configuration c = new Configuration();
    c.addResource(new org.apache.hadoop.fs.Path(repo.resolve("docker/conf/core-site.xml").toUri()));
    String cluster = java.net.URI.create(c.get("fs.defaultFS")).getAuthority();
    c.set("indexfs.cluster." + cluster + ".zookeeper", zookeeperByIp());
    return c;
  }

  /** Waits until HDFS is out of safe mode with every DataNode of the compose file live. */
  void awaitHdfs(long timeoutMs) throws Exception {
    int datanodes = (int) services("apache/hadoop").stream().filter(s -> s.command().contains("datanode")).count();
    long deadline = System.currentTimeMillis() + timeoutMs;
    Configuration c = hdfsConf();
    c.setInt("ipc.client.connect.max.retries", 1);
    Exception last = null;
    while (System.currentTimeMillis() < deadline) {
      try (DistributedFileSystem dfs = (DistributedFileSystem) hdfs(c)) {
        if (!dfs.isInSafeMode() && dfs.getDataNodeStats(DatanodeReportType.LIVE).length >= datanodes) {
          return;
        }
      } catch (IOException e) {
        last = e;
      }
      for (HostProcess p : running.values()) {
        if (!p.isAlive() && !p.name.startsWith("format") && p.name.contains("node")) {
          throw new IOException(p.name + " exited; see " + p.log());
        }
      }
      Thread.sleep(500);
    }
    throw new IOException("HDFS did not come up with " + datanodes + " live DataNodes", last);
  }

  @Override
  public void close() {
    boolean interrupted = Thread.interrupted();
    try {
      for (HostProcess p : running.values()) {
        try {
          p.kill();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      hosts.close();
      for (Path dir : mounted) {
        try {
          command("umount", "-l", dir.toString());
        } catch (IOException | InterruptedException e) {
          System.err.println("Could not unmount " + dir + ": " + e);
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
