package org.indexfs.server.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.indexfs.common.ClusterPaths;
import org.indexfs.server.admin.AdminContext;
import org.indexfs.server.metrics.HadoopMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server's HTTP port ({@code indexfs.http.port}): the status page at {@code /}, its data at
 * {@code /status.json}, and {@code /prom}, the Prometheus endpoint Hadoop daemons serve when
 * {@code hadoop.prometheus.endpoint.enabled} is set (Hadoop's own sink writes it). The JDK's HTTP
 * server on one thread: a handful of operators' requests, not a web application. Its address is
 * published in ZooKeeper so every status page and {@code admin -report} can link to every other.
 */
public final class StatusServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StatusServer.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final StatusModel model;
  private final HttpServer server;
  private final ExecutorService executor;
  private String published;
  private CuratorFramework curator;

  private StatusServer(AdminContext admin, String host, int port) throws IOException {
    this.model = new StatusModel(admin, new LargestDirectories(admin.ops().ns(), admin.ops().partitions()));
    server = HttpServer.create(new InetSocketAddress(host, port), 16);
    executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "indexfs-http-" + admin.ops().ns().slot());
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    server.createContext("/", this::page);
    server.createContext("/status.json", this::json);
    server.createContext("/prom", this::prometheus);
    server.start();
  }

  /** Starts on {@code host:port} (0: a free port); null when {@code port} is -1 (off). */
  public static StatusServer start(AdminContext admin, String host, int port) throws IOException {
    return port < 0 ? null : new StatusServer(admin, host, port);
  }

  public InetSocketAddress address() {
    return server.getAddress();
  }

  public String hostPort() {
    return address().getHostString() + ":" + address().getPort();
  }

  /** Publishes this page's address for slot {@code slot} (an ephemeral node: gone with the session). */
  public void publish(CuratorFramework curator, String cluster, int slot) {
    String path = ClusterPaths.http(cluster, slot);
    byte[] data = hostPort().getBytes(StandardCharsets.UTF_8);
    try {
      try {
        curator.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path, data);
      } catch (KeeperException.NodeExistsException previous) {
        curator.setData().forPath(path, data);
      }
      this.curator = curator;
      this.published = path;
    } catch (Exception e) {
      LOG.warn("Status page of slot {} is not published in ZooKeeper: {}", slot, e.toString());
    }
  }

  private void page(HttpExchange ex) throws IOException {
    if (!ex.getRequestURI().getPath().equals("/")) {
      send(ex, 404, "text/plain", "Not found: " + ex.getRequestURI().getPath() + "\n");
      return;
    }
    String html;
    try {
      html = StatusPage.render(model.snapshot(true));
    } catch (IOException | RuntimeException e) {
      LOG.warn("Status page failed", e);
      send(ex, 500, "text/plain", "Status page failed: " + e + "\n");
      return;
    }
    send(ex, 200, "text/html; charset=utf-8", html);
  }

  private void json(HttpExchange ex) throws IOException {
    boolean dirs = String.valueOf(ex.getRequestURI().getQuery()).contains("directories=1");
    String body;
    try {
      body = JSON.writeValueAsString(model.snapshot(dirs));
    } catch (IOException | RuntimeException e) {
      LOG.warn("status.json failed", e);
      send(ex, 500, "text/plain", "status.json failed: " + e + "\n");
      return;
    }
    send(ex, 200, "application/json", body);
  }

  private void prometheus(HttpExchange ex) throws IOException {
    StringWriter out = new StringWriter();
    HadoopMetrics.writePrometheus(out);
    send(ex, 200, "text/plain; version=0.0.4; charset=utf-8", out.toString());
  }

  private static void send(HttpExchange ex, int status, String type, String body) throws IOException {
    try (ex) {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", type);
      ex.getResponseHeaders().set("Cache-Control", "no-store");
      ex.sendResponseHeaders(status, bytes.length);
      try (OutputStream os = ex.getResponseBody()) {
        os.write(bytes);
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("Status request {} failed: {}", ex.getRequestURI(), e.toString());
      throw e;
    }
  }

  @Override
  public void close() {
    if (published != null) {
      try {
        curator.delete().forPath(published);
      } catch (Exception e) {
        LOG.debug("Status page node {} already gone: {}", published, e.toString());
      }
    }
    server.stop(0);
    executor.shutdownNow();
  }
}
