package org.indexfs.it.hosts;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/**
 * The services of {@code docker/compose.yaml}, as the network-namespace cluster starts them: each
 * one's host name, image, command, environment (its {@code environment} plus its {@code env_file}
 * lines) and volumes. Nothing here is a second copy of a setting: the cluster reads the same file.
 */
final class ComposeFile {
  /** One service of the compose file. */
  record Service(String name, String hostname, String image, List<String> command, List<String> entrypoint,
                 Map<String, String> environment, List<String> envFileLines, List<String> volumes) {
    /** The image's family: {@code zookeeper}, {@code apache/hadoop} or {@code indexfs}. */
    String family() {
      return image.startsWith("indexfs:") ? "indexfs" : image.substring(0, image.indexOf(':'));
    }

    boolean isSlotServer() {
      return family().equals("indexfs") && !command.isEmpty() && command.get(0).equals("server");
    }

    boolean isStandby() {
      return command.contains("--standby");
    }

    /** The slot a server's command line names ({@code --slot K}). */
    int slot() {
      return Integer.parseInt(command.get(command.indexOf("--slot") + 1));
    }
  }

  final Path dir;
  final List<Service> services = new ArrayList<>();

  @SuppressWarnings("unchecked")
  ComposeFile(Path file) throws IOException {
    this.dir = file.toAbsolutePath().getParent();
    Map<String, Object> compose;
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      compose = new Yaml().load(r);
    }
    Map<String, Map<String, Object>> s = (Map<String, Map<String, Object>>) compose.get("services");
    for (Map.Entry<String, Map<String, Object>> e : s.entrySet()) {
      Map<String, Object> v = e.getValue();
      Map<String, String> env = new LinkedHashMap<>();
      ((Map<String, Object>) v.getOrDefault("environment", Map.of())).forEach((k, x) -> env.put(k, String.valueOf(x)));
      List<String> envFile = new ArrayList<>();
      for (Object f : (List<Object>) v.getOrDefault("env_file", List.of())) {
        for (String line : Files.readAllLines(dir.resolve((String) f), StandardCharsets.UTF_8)) {
          if (!line.isBlank() && !line.startsWith("#")) {
            envFile.add(line);
          }
        }
      }
      services.add(new Service(e.getKey(), (String) v.getOrDefault("hostname", e.getKey()), (String) v.get("image"),
          strings(v.get("command")), strings(v.get("entrypoint")), env, envFile, strings(v.get("volumes"))));
    }
  }

  private static List<String> strings(Object o) {
    List<String> out = new ArrayList<>();
    if (o instanceof List<?> l) {
      for (Object x : l) {
        out.add(String.valueOf(x));
      }
    }
    return out;
  }

  Service service(String name) {
    return services.stream().filter(s -> s.name().equals(name)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no service " + name + " in the compose file"));
  }
}
