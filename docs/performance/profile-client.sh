#!/usr/bin/env bash
# client-side CPU profile of mdtest create against a local server in its own process
set -e
HOME_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
AP=${ASYNC_PROFILER:-/tmp/ap/linux-x64/libasyncProfiler.so}  # from Maven tools.profiler:async-profiler
WORK=$(mktemp -d /tmp/indexfs-prof-XXXX)
export INDEXFS_WORK=$WORK
INDEXFS_JAVA_OPTS="-Xmx1g" $HOME_DIR/bin/indexfs local -D indexfs.wal.sync=true > $WORK/server.out 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do [[ -f "$WORK/conf/core-site.xml" ]] && break; sleep 1; done
$HOME_DIR/bin/indexfs fs -mkdir -p /bench
$HOME_DIR/bin/indexfs fs -chown bench /bench
INDEXFS_BENCH_JAVA_OPTS="-Xmx2g -agentpath:$AP=start,event=cpu,interval=500us,file=$WORK/client.collapsed,collapsed,threads" \
  $HOME_DIR/bin/indexfs bench mdtest --target indexfs://local/ --user bench --phases create,delete,create,delete,create --threads 16 --files 1000 2>$WORK/client.err
echo "work $WORK"
