package org.indexfs.common;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ConfigDocTest {
  @Test
  void shippedSiteFileListsEveryKeyWithItsDefault() throws Exception {
    Path site = Path.of("..", "conf", "indexfs-site.xml");
    assertEquals(ConfigDoc.render(), Files.readString(site, StandardCharsets.UTF_8),
        "conf/indexfs-site.xml is out of date: regenerate it with org.indexfs.common.ConfigDoc");
  }
}
