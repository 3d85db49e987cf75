package org.indexfs.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which paths are FileOutputCommitter task attempt directories (MapReduce and Spark lay them out alike). */
class TaskAttemptDirsTest {
  private static final String MR = "/out/_temporary/1/_temporary/attempt_1700000000000_0001_m_000003_0";
  private static final String SPARK =
      "/t/.spark-staging-5f1c/_temporary/0/_temporary/attempt_202611261200081234567890123_0004_m_000001_5";

  @Test
  void anAttemptDirectoryIsFoundFromItselfAndFromAnythingBelowIt() {
    assertEquals(MR, TaskAttemptDirs.attemptDirOf(MR));
    assertEquals(MR, TaskAttemptDirs.attemptDirOf(MR + "/part-m-00003"));
    assertEquals(MR, TaskAttemptDirs.attemptDirOf(MR + "/side/f7-m-00003"));
    assertEquals(SPARK, TaskAttemptDirs.attemptDirOf(SPARK + "/day=3/part-00001-x.c000.snappy.parquet"));
    assertTrue(TaskAttemptDirs.isAttemptDir(MR));
    assertFalse(TaskAttemptDirs.isAttemptDir(MR + "/part-m-00003"));
  }

  @Test
  void otherTemporaryPathsAreNot() {
    assertNull(TaskAttemptDirs.attemptDirOf("/out/_temporary/1"));
    assertNull(TaskAttemptDirs.attemptDirOf("/out/_temporary/1/task_1700000000000_0001_m_000003"));
    assertNull(TaskAttemptDirs.attemptDirOf("/out/_temporary/1/_temporary"));
    assertNull(TaskAttemptDirs.attemptDirOf("/out/_temporary/x1/_temporary/attempt_1"));
    assertNull(TaskAttemptDirs.attemptDirOf("/out/_temporary//_temporary/attempt_1"));
    assertNull(TaskAttemptDirs.attemptDirOf("/out/attempt_1/part-0"));
    assertNull(TaskAttemptDirs.attemptDirOf("/out/part-r-00000"));
  }
}
