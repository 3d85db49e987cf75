package org.indexfs.client;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;

/** Collects what one logger (reload4j, behind slf4j) writes while a test runs. */
final class LogCapture extends AppenderSkeleton implements AutoCloseable {
  private final Logger logger;
  private final List<String> messages = new CopyOnWriteArrayList<>();

  private LogCapture(Logger logger) {
    this.logger = logger;
    logger.addAppender(this);
  }

  static LogCapture of(Class<?> loggingClass) {
    return new LogCapture(Logger.getLogger(loggingClass));
  }

  @Override
  protected void append(LoggingEvent event) {
    messages.add(event.getLevel() + " " + event.getRenderedMessage());
  }

  /** Waits up to 10 s for a message containing {@code text}: the server logs on its own threads. */
  boolean awaitMessageContaining(String text) throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    do {
      if (messages.stream().anyMatch(m -> m.contains(text))) {
        return true;
      }
      Thread.sleep(20);
    } while (System.nanoTime() < deadline);
    return false;
  }

  List<String> messages() {
    return List.copyOf(messages);
  }

  @Override
  public boolean requiresLayout() {
    return false;
  }

  @Override
  public void close() {
    logger.removeAppender(this);
  }
}
