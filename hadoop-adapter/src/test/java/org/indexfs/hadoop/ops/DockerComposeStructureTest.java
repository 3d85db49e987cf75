package org.indexfs.hadoop.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.indexfs.common.ConfigKey;
import org.indexfs.common.IndexFsConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * No Docker engine runs where the tests run, so {@code docker/compose.yaml} is checked for what it
 * names: every image is built here (docker/Dockerfile) or is an upstream image listed with its
 * documentation in {@code docker/upstream.properties}; every environment variable and env-file
 * entry is a documented setting of its image, a documented Hadoop key, or read by the launcher;
 * every bind mount exists in the project and every named volume is declared; every published port
 * is one the service listens on; the servers take all their settings from the config files in
 * docker/conf (only slot, directory and host on the command line), whose keys are all declared
 * IndexFS or Hadoop keys; and the Dockerfile copies only what docker/prepare lays out.
 */
class DockerComposeStructureTest {
  private static final Path DOCKER = Path.of("..", "docker");
  private static final String OUR_IMAGE = "indexfs:0.1.0-SNAPSHOT";
  private static Map<String, Object> compose;
  private static Map<String, Map<String, Object>> services;
  private static Properties upstream;
  private static Configuration hadoopDefaults;
  /** Every key core-default.xml and hdfs-default.xml document, with or without a default value. */
  private static final Set<String> HADOOP_KEYS = new HashSet<>();
  private static String launcher;

  @BeforeAll
  @SuppressWarnings("unchecked")
  static void read() throws IOException {
    try (Reader r = Files.newBufferedReader(DOCKER.resolve("compose.yaml"), StandardCharsets.UTF_8)) {
      compose = new Yaml().load(r);
    }
    services = (Map<String, Map<String, Object>>) compose.get("services");
    upstream = new Properties();
    try (Reader r = Files.newBufferedReader(DOCKER.resolve("upstream.properties"), StandardCharsets.UTF_8)) {
      upstream.load(r);
    }
    // Every key Hadoop documents: core-default.xml and hdfs-default.xml from Hadoop's own jars.
    hadoopDefaults = new Configuration(false);
    hadoopDefaults.addResource("core-default.xml");
    hadoopDefaults.addResource("hdfs-default.xml");
    for (String file : List.of("core-default.xml", "hdfs-default.xml")) {
      try (java.io.InputStream in = Configuration.class.getClassLoader().getResourceAsStream(file)) {
        Matcher m = Pattern.compile("<name>([^<]+)</name>").matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        while (m.find()) {
          HADOOP_KEYS.add(m.group(1).trim());
        }
      }
    }
    launcher = Files.readString(Path.of("..", "bin", "indexfs"), StandardCharsets.UTF_8);
  }

  /** The upstream family of an image name ({@code apache/hadoop:3.4.1} → {@code apache/hadoop}). */
  private static String family(String image) {
    return image.equals(OUR_IMAGE) ? "indexfs" : image.substring(0, image.indexOf(':'));
  }

  @Test
  void everyImageIsBuiltHereOrADocumentedUpstreamImage() throws IOException {
    for (Map.Entry<String, Map<String, Object>> s : services.entrySet()) {
      String image = (String) s.getValue().get("image");
      assertTrue(image != null, s.getKey() + " names no image");
      if (!image.equals(OUR_IMAGE)) {
        assertTrue(upstream.containsKey("image." + image), s.getKey() + ": image " + image
            + " is not in docker/upstream.properties");
      }
    }
    assertTrue(services.values().stream().anyMatch(s -> s.get("build") != null), "some service builds the image");
    String dockerfile = Files.readString(DOCKER.resolve("Dockerfile"), StandardCharsets.UTF_8);
    Matcher from = Pattern.compile("(?m)^FROM (\\S+)").matcher(dockerfile);
    assertTrue(from.find());
    assertTrue(upstream.containsKey("image." + from.group(1)), "base image " + from.group(1));
    String zookeeper = upstream.stringPropertyNames().stream().filter(k -> k.startsWith("image.zookeeper:"))
        .findFirst().orElseThrow();
    String pom = Files.readString(Path.of("..", "pom.xml"), StandardCharsets.UTF_8);
    assertTrue(pom.contains("<zookeeper.version>" + zookeeper.substring("image.zookeeper:".length())
        + "</zookeeper.version>"), "the ZooKeeper image is the version the project is built and tested with");
  }

  @Test
  void dockerfileCopiesOnlyWhatPrepareLaysOut() throws IOException {
    String dockerfile = Files.readString(DOCKER.resolve("Dockerfile"), StandardCharsets.UTF_8);
    String prepare = Files.readString(DOCKER.resolve("prepare"), StandardCharsets.UTF_8);
    Matcher copy = Pattern.compile("(?m)^COPY (\\S+) (\\S+)").matcher(dockerfile);
    int copies = 0;
    while (copy.find()) {
      copies++;
      String src = copy.group(1);
      if (src.startsWith("target/")) {
        assertTrue(prepare.contains("OUT=$HERE/" + src.replaceAll("/$", "")), src + " is what docker/prepare writes");
      } else {
        assertTrue(Files.exists(DOCKER.resolve(src)), "docker/" + src + " exists");
      }
    }
    assertTrue(copies > 0);
    Matcher modules = Pattern.compile("MODULES=\\(([^)]*)\\)").matcher(prepare);
    assertTrue(modules.find());
    for (String module : modules.group(1).trim().split("\\s+")) {
      assertTrue(Files.isDirectory(Path.of("..", module)), "module " + module);
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void everyEnvironmentSettingIsDocumented() throws IOException {
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, Map<String, Object>> s : services.entrySet()) {
      String family = family((String) s.getValue().get("image"));
      Map<String, Object> env = (Map<String, Object>) s.getValue().getOrDefault("environment", Map.of());
      for (String name : env.keySet()) {
        if (!upstream.containsKey("env." + family + "." + name) && !launcherReads(family, name)) {
          problems.add(s.getKey() + ": environment " + name);
        }
      }
      for (Object file : (List<Object>) s.getValue().getOrDefault("env_file", List.of())) {
        for (String line : Files.readAllLines(DOCKER.resolve((String) file), StandardCharsets.UTF_8)) {
          if (!line.isBlank() && !line.startsWith("#") && !documentedEnvToConf(family, line)) {
            problems.add(s.getKey() + ": " + file + ": " + line);
          }
        }
      }
    }
    assertEquals(List.of(), problems, "settings that are neither documented upstream nor the project's own");
  }

  /** Our image: a variable the launcher (bin/indexfs) or the client script reads. */
  private static boolean launcherReads(String family, String name) throws IOException {
    if (!family.equals("indexfs")) {
      return false;
    }
    String demo = Files.readString(DOCKER.resolve("client-demo.sh"), StandardCharsets.UTF_8);
    return launcher.contains("${" + name) || launcher.contains("$" + name) || demo.contains("${" + name);
  }

  /** {@code CORE-SITE.XML_fs.defaultFS=...}: a file the image's envtoconf writes, and a key Hadoop documents. */
  private static boolean documentedEnvToConf(String family, String line) {
    String files = upstream.getProperty("envtoconf." + family, "");
    int underscore = line.indexOf('_');
    int eq = line.indexOf('=');
    if (underscore < 0 || eq < underscore) {
      return false;
    }
    return Set.of(files.split(",")).contains(line.substring(0, underscore))
        && HADOOP_KEYS.contains(line.substring(underscore + 1, eq));
  }

  @Test
  @SuppressWarnings("unchecked")
  void everyVolumeExistsOrIsDeclaredAndEveryPortIsListenedOn() throws IOException {
    Set<String> declared = ((Map<String, Object>) compose.getOrDefault("volumes", Map.of())).keySet();
    Set<String> used = new HashSet<>();
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, Map<String, Object>> s : services.entrySet()) {
      String family = family((String) s.getValue().get("image"));
      for (Object v : (List<Object>) s.getValue().getOrDefault("volumes", List.of())) {
        String[] parts = ((String) v).split(":");
        if (parts[0].startsWith("./")) {
          if (!Files.exists(DOCKER.resolve(parts[0]))) {
            problems.add(s.getKey() + ": bind mount " + parts[0] + " does not exist in docker/");
          }
        } else {
          used.add(parts[0]);
          if (!declared.contains(parts[0])) {
            problems.add(s.getKey() + ": volume " + parts[0] + " is not declared");
          }
          String documented = upstream.getProperty("volume." + family);
          if (documented != null && !List.of(documented.split(",")).contains(parts[1])) {
            problems.add(s.getKey() + ": " + parts[1] + " is not a data directory of " + family);
          }
          if (family.equals("indexfs") && !parts[1].equals("/data")) {
            problems.add(s.getKey() + ": our image keeps its data in /data, not " + parts[1]);
          }
        }
      }
      for (Object p : (List<Object>) s.getValue().getOrDefault("ports", List.of())) {
        int container = Integer.parseInt(((String) p).substring(((String) p).lastIndexOf(':') + 1));
        if (!listensOn(family, container)) {
          problems.add(s.getKey() + ": nothing listens on port " + container);
        }
      }
    }
    assertEquals(List.of(), problems);
    assertEquals(declared, used, "every declared volume is used");
  }

  private static boolean listensOn(String family, int port) throws IOException {
    return switch (family) {
      // The NameNode's web UI (dfs.namenode.http-address, documented in hdfs-default.xml).
      case "apache/hadoop" -> hadoopDefaults.get("dfs.namenode.http-address").endsWith(":" + port);
      case "indexfs" -> {
        Map<String, String> site = siteKeys(DOCKER.resolve("conf/indexfs-site.xml"));
        yield String.valueOf(port).equals(site.get(IndexFsConfig.HTTP_PORT.name()))
            || String.valueOf(port).equals(site.get(IndexFsConfig.SERVER_PORT.name()));
      }
      default -> false;
    };
  }

  @Test
  @SuppressWarnings("unchecked")
  void serversTakeTheirSettingsFromTheSharedConfigFiles() throws IOException {
    Set<String> verbs = new HashSet<>();
    Matcher verb = Pattern.compile("(?m)^  ([a-z]+)\\)").matcher(launcher);
    while (verb.find()) {
      verbs.add(verb.group(1));
    }
    int slots = 0;
    int standbys = 0;
    for (Map.Entry<String, Map<String, Object>> s : services.entrySet()) {
      if (!family((String) s.getValue().get("image")).equals("indexfs") || s.getValue().get("command") == null) {
        continue;
      }
      List<String> cmd = (List<String>) s.getValue().get("command");
      assertTrue(verbs.contains(cmd.get(0)), s.getKey() + ": bin/indexfs has no verb " + cmd.get(0));
      if (!cmd.get(0).equals("server")) {
        continue;
      }
      if (cmd.contains("--standby")) {
        // A hot standby of a slot: the same command line plus --standby, named after its slot.
        standbys++;
        String slot = s.getKey().replaceAll("^slot(\\d+)-standby$", "$1");
        assertEquals(List.of("server", "--conf", "/opt/indexfs/docker/conf/indexfs-site.xml", "--slot", slot,
            "--dir", "/data/slot-" + slot, "--standby", "-D", "indexfs.server.bind-host=" + s.getKey()), cmd,
            s.getKey() + ": everything else comes from docker/conf");
        assertTrue(((List<Object>) s.getValue().get("volumes")).contains("./conf:/opt/indexfs/docker/conf:ro"));
        continue;
      }
      slots++;
      assertEquals(List.of("server", "--conf", "/opt/indexfs/docker/conf/indexfs-site.xml", "--slot",
          String.valueOf(slots - 1), "--dir", "/data/slot-" + (slots - 1), "-D",
          "indexfs.server.bind-host=" + s.getKey()), cmd, s.getKey() + ": everything else comes from docker/conf");
      assertTrue(((List<Object>) s.getValue().get("volumes")).contains("./conf:/opt/indexfs/docker/conf:ro"));
    }
    Matcher format = Pattern.compile("\"--slots\", \"(\\d+)\"").matcher(Files.readString(DOCKER.resolve("compose.yaml")));
    assertTrue(format.find());
    assertEquals(Integer.parseInt(format.group(1)), slots, "one server per formatted slot");
    assertEquals(slots, standbys, "one standby per slot");
    assertEquals("true", siteKeys(DOCKER.resolve("conf/indexfs-site.xml")).get(IndexFsConfig.JOURNAL_ENABLED.name()),
        "standbys follow the slots' journal");

    Set<String> ours = new HashSet<>();
    for (ConfigKey<?> k : IndexFsConfig.ALL) {
      ours.add(k.name());
    }
    for (String key : siteKeys(DOCKER.resolve("conf/indexfs-site.xml")).keySet()) {
      // The servers pass Hadoop keys on to their data-tier client (documented in hdfs-default.xml).
      assertTrue(ours.contains(key) || HADOOP_KEYS.contains(key),
          "docker/conf/indexfs-site.xml: " + key + " is neither an IndexFS nor a documented Hadoop key");
    }
    Map<String, String> client = siteKeys(DOCKER.resolve("conf/core-site.xml"));
    String cluster = siteKeys(DOCKER.resolve("conf/indexfs-site.xml")).get(IndexFsConfig.CLUSTER_NAME.name());
    assertEquals("indexfs://" + cluster + "/", client.get("fs.defaultFS"));
    for (String key : client.keySet()) {
      boolean known = ours.contains(key) || HADOOP_KEYS.contains(key)
          || key.equals(String.format(IndexFsConfig.CLUSTER_ZOOKEEPER_PATTERN, cluster))
          || key.equals("fs.AbstractFileSystem.indexfs.impl");
      assertTrue(known, "docker/conf/core-site.xml: " + key + " is neither an IndexFS nor a documented Hadoop key");
    }
    assertEquals(siteKeys(DOCKER.resolve("conf/indexfs-site.xml")).get(IndexFsConfig.ZOOKEEPER_QUORUM.name()),
        client.get(String.format(IndexFsConfig.CLUSTER_ZOOKEEPER_PATTERN, cluster)), "clients and servers share a quorum");
  }

  private static Map<String, String> siteKeys(Path xml) throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    Matcher m = Pattern.compile("<name>([^<]+)</name>\\s*<value>([^<]*)</value>")
        .matcher(Files.readString(xml, StandardCharsets.UTF_8));
    while (m.find()) {
      out.put(m.group(1), m.group(2));
    }
    if (out.isEmpty()) {
      fail(xml + " has no properties");
    }
    return out;
  }
}
