#!/usr/bin/env bash
# The compose file's client: what a Hadoop user does against indexfs://prod/ — `hadoop fs`
# (Hadoop's FsShell), a MapReduce example (wordcount, local job runner) and an audit-log replay.
set -euo pipefail
export INDEXFS_WORK=${INDEXFS_WORK:-/work}   # $INDEXFS_WORK/conf/core-site.xml: docker/conf
LIB=$INDEXFS_HOME/lib

indexfs fs -mkdir -p /demo/in
indexfs fs -put -f /opt/indexfs/conf/log4j.properties /demo/in/words.txt
indexfs fs -ls -R /demo

examples=$(ls "$LIB"/hadoop-mapreduce-examples-*.jar | head -1)
java -cp "$INDEXFS_WORK/conf:$INDEXFS_HOME/conf/client:$LIB/*" org.apache.hadoop.util.RunJar \
  "$examples" wordcount /demo/in /demo/out
indexfs fs -cat /demo/out/part-r-00000 | head -5

indexfs replay --generate 2000 --target indexfs://prod/ --prefix /demo/replay
indexfs admin -report | head -20
indexfs admin -fsck /
