#!/usr/bin/env bash
# The compose file's client: what a Hadoop user does against indexfs://prod/ — `hadoop fs`
# (Hadoop's FsShell), a MapReduce example (wordcount, local job runner) and an audit-log replay.
# It runs in the image (INDEXFS_HOME=/opt/indexfs, jars in lib/) and, unchanged, on the client host
# of the network-namespace cluster (integration-tests' ComposeHostsIT: INDEXFS_HOME = the source
# tree, jars from the modules' target/ directories).
set -euo pipefail
export INDEXFS_WORK=${INDEXFS_WORK:-/work}   # $INDEXFS_WORK/conf/core-site.xml: docker/conf
INDEXFS_HOME=${INDEXFS_HOME:-/opt/indexfs}
export INDEXFS_HOME
indexfs() { "$INDEXFS_HOME/bin/indexfs" "$@"; }
if [[ -d "$INDEXFS_HOME/lib" ]]; then
  CP="$INDEXFS_HOME/lib/*"
else
  # The source tree: integration-tests' runtime classpath holds the adapter and MapReduce's examples.
  CP="$(cat "$INDEXFS_HOME/integration-tests/target/classpath.txt")"
fi

indexfs fs -mkdir -p /demo/in /demo/big
indexfs fs -put -f "$INDEXFS_HOME/conf/log4j.properties" /demo/in/words.txt
examples=$(tr ':' '\n' <<<"$CP" | grep -E 'hadoop-mapreduce-examples-[^/]*\.jar$' | head -1 || true)
[[ -n "$examples" ]] || examples=$(ls "$INDEXFS_HOME"/lib/hadoop-mapreduce-examples-*.jar | head -1)
# A file past the inline limit: its bytes go to an object on the HDFS DataNodes.
indexfs fs -put -f "$examples" /demo/big/examples.jar
indexfs fs -ls -R /demo

java ${INDEXFS_JAVA_OPTS:-} -cp "$INDEXFS_WORK/conf:$INDEXFS_HOME/conf/client:$CP" org.apache.hadoop.util.RunJar \
  "$examples" wordcount /demo/in /demo/out
indexfs fs -cat /demo/out/part-r-00000 | head -5

indexfs replay --generate 2000 --target indexfs://prod/ --prefix /demo/replay --impersonation remote \
  --threads 4 --rounds 2 --min-round-seconds 0 --out "$INDEXFS_WORK/replay-report" --no-progress
indexfs admin -report | head -20
indexfs admin -fsck /
