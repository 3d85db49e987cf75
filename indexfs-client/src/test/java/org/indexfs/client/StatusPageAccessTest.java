package org.indexfs.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.indexfs.common.IndexFsConfig;
import org.indexfs.server.local.LocalCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 31, item 9: the status page answers anyone who reaches its port, without authentication,
 * and its largest directories showed paths inside 0700 directories ({@code /alice/private/TOPSECRET-…}).
 * It now shows a path only where an anonymous user of HDFS's web UI could list it.
 */
class StatusPageAccessTest {
  private static LocalCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = LocalCluster.builder(TestData.newDir("status-access")).clusterName("statusaccess")
        .set(IndexFsConfig.HTTP_PORT.name(), "0").start();
    try (IndexFsClient admin = TestData.client(cluster)) {
      admin.mkdirs("/alice", 0755);
      admin.setOwner("/alice", "alice", "alice");
      admin.mkdirs("/pub/shared", 0755);
      for (int i = 0; i < 12; i++) {
        TestData.createClosed(admin, "/pub/shared/f" + i);
      }
    }
    try (IndexFsClient alice = Slots.client(cluster, "alice", List.of("alice"))) {
      alice.mkdirs("/alice/private", 0700);
      alice.mkdirs("/alice/private/TOPSECRET-merger", 0755); // open itself, but inside a 0700 directory
      for (int i = 0; i < 20; i++) {
        TestData.createClosed(alice, "/alice/private/TOPSECRET-merger/draft-" + i);
      }
      for (int i = 0; i < 15; i++) {
        TestData.createClosed(alice, "/alice/private/plan-" + i);
      }
    }
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static String get(String path) throws IOException {
    HttpURLConnection c = (HttpURLConnection) URI.create("http://" + cluster.server().statusServer().hostPort() + path)
        .toURL().openConnection();
    assertEquals(200, c.getResponseCode(), path);
    try (InputStream in = c.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void anAnonymousVisitorSeesNoNameInsideADirectoryOthersCannotList() throws Exception {
    for (String page : List.of("/status.json?directories=1", "/")) {
      String body = get(page);
      assertFalse(body.contains("TOPSECRET"), page + " shows a name inside /alice/private:\n" + body);
      assertFalse(body.contains("/alice/private"), page + " shows a 0700 directory's path:\n" + body);
      assertTrue(body.contains("(not shown to anonymous users)"), page + ": the hidden rows are still counted:\n" + body);
      assertTrue(body.contains("/pub/shared"), page + ": what others may list is still shown:\n" + body);
    }
  }
}
