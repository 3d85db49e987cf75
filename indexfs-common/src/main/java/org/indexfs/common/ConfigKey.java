package org.indexfs.common;

import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/** One configuration key: its name, default, and a one-line description. Declared in {@link IndexFsConfig}. */
public final class ConfigKey<T> {
  private final String name;
  private final T defaultValue;
  private final String description;
  private final Function<String, T> parser;

  private ConfigKey(String name, T defaultValue, String description, Function<String, T> parser) {
    this.name = name;
    this.defaultValue = defaultValue;
    this.description = description;
    this.parser = parser;
  }

  static ConfigKey<String> string(String name, String def, String description) {
    return new ConfigKey<>(name, def, description, s -> s);
  }

  static ConfigKey<Integer> integer(String name, int def, String description) {
    return new ConfigKey<>(name, def, description, s -> Integer.parseInt(s.trim()));
  }

  static ConfigKey<Long> longValue(String name, long def, String description) {
    return new ConfigKey<>(name, def, description, s -> Long.parseLong(s.trim()));
  }

  static ConfigKey<Boolean> bool(String name, boolean def, String description) {
    return new ConfigKey<>(name, def, description, s -> Boolean.parseBoolean(s.trim()));
  }

  public String name() {
    return name;
  }

  public T defaultValue() {
    return defaultValue;
  }

  public String description() {
    return description;
  }

  /** The value in {@code props}, or the default when absent or blank. */
  public T get(Map<String, String> props) {
    String raw = props.get(name);
    if (raw == null || raw.isBlank()) {
      return defaultValue;
    }
    try {
      return parser.apply(raw);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("Bad value for " + name + ": '" + raw + "'", e);
    }
  }

  @Override
  public String toString() {
    return name + "=" + Objects.toString(defaultValue, "");
  }
}
