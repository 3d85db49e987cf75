package org.indexfs.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.indexfs.bench.replay.TraceGenerator;
import org.junit.jupiter.api.Test;

/**
 * The client hosts' program, spoken to as the bench speaks to it (two agents, commands on their
 * standard input, replies with encoded histograms and RPC counts), against a real NameNode
 * (MiniDFSCluster in this JVM, over loopback): no hosts, no root needed.
 */
class ClientAgentTest {
  @Test
  void twoAgentsRunOneMdtestTogetherAndATraceEachAndReportWhatTheyDid() throws Exception {
    Path work = Files.createTempDirectory(Files.createDirectories(
        Path.of(System.getProperty("test.build.data", "target/test-data"))), "agents");
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, work.resolve("hdfs").toString());
    conf.setInt("dfs.replication", 1);
    MiniDFSCluster hdfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    List<HostProgram> started = new ArrayList<>();
    try (FileSystem admin = hdfs.getFileSystem()) {
      hdfs.waitActive();
      admin.mkdirs(new org.apache.hadoop.fs.Path("/bench"));
      admin.setOwner(new org.apache.hadoop.fs.Path("/bench"), ClusterSettings.USER, null);
      Path log4j = JavaCommand.writeLogging(work);
      for (int k = 0; k < 2; k++) {
        started.add(HostProgram.start("agent" + k, List.of(), List.of(), Agents.command(log4j, "256m"),
            work.resolve("agent" + k), work.resolve("agent" + k + ".log")));
      }
      try (Agents agents = new Agents(started)) {
        agents.all("open name=nn uri=hdfs://localhost:" + hdfs.getNameNodePort() + " c.dfs.replication=1");
        agents.all(k -> "mdtest-prepare t=nn root=/bench/private threads=2 files=5 shared=false depth=1 client=" + k
            + " clients=2");
        List<Agents.Reply> created = agents.all("mdtest-phase t=nn root=/bench/private phase=create");
        assertThat(created).hasSize(2).allSatisfy(r -> {
          assertThat(r.ops()).isEqualTo(10);
          assertThat(r.errors()).isZero();
          assertThat(r.micros().getTotalCount()).isEqualTo(10);
          assertThat(r.seconds()).isPositive();
          assertThat(r.hadoopRpcs()).as("create and complete per file").isGreaterThanOrEqualTo(20);
        });
        assertThat(admin.listStatus(new org.apache.hadoop.fs.Path("/bench/private/d1"))).hasSize(4); // two threads each
        assertThat(agents.all("mdtest-phase t=nn root=/bench/private phase=delete"))
            .allSatisfy(r -> assertThat(r.errors()).isZero());

        Path trace = work.resolve("trace.log.gz");
        new TraceGenerator(1, 2, TraceGenerator.LINKEDIN_MIX).write(trace, 300);
        agents.all(k -> "trace-prepare t=nn trace=" + trace + " prefix=/bench/trace/c" + k + " threads=2 zone=UTC");
        List<Agents.Reply> replayed = agents.all("trace-run t=nn");
        assertThat(replayed).allSatisfy(r -> {
          assertThat(r.ops()).isPositive();
          assertThat(r.micros().getTotalCount()).isEqualTo(r.ops());
          assertThat(r.errors()).as("outcomes as the trace implies").isZero();
        });
        assertThat(admin.exists(new org.apache.hadoop.fs.Path("/bench/trace/c0"))).isTrue();
        assertThat(admin.exists(new org.apache.hadoop.fs.Path("/bench/trace/c1"))).isTrue();

        assertThatThrownBy(() -> agents.all("mdtest-phase t=nn root=/nowhere phase=create"))
            .isInstanceOf(IOException.class).hasMessageContaining("No mdtest prepared at /nowhere");
      }
      for (HostProgram p : started) {
        assertThat(p.waitFor(60_000)).isZero();
      }
    } finally {
      for (HostProgram p : started) {
        p.close();
      }
      hdfs.shutdown();
    }
  }
}
