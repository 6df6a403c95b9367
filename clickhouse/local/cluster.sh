#!/usr/bin/env bash
# The local ClickHouse cluster for cluster mode (OVERWATCH_CLICKHOUSE_CLUSTER):
# one ZooKeeper and four clickhouse-server processes, 2 shards x 2 replicas,
# cluster `overwatch` (shard 01 = node1 + node3, shard 02 = node2 + node4,
# macros {shard} 01/02 and {replica} r1/r2), with ON CLUSTER DDL.
#
#   clickhouse/local/cluster.sh up       start what is not running, wait until
#                                        every node answers and ON CLUSTER DDL works
#   clickhouse/local/cluster.sh down     stop the processes this script started
#   clickhouse/local/cluster.sh status   one line per process
#   clickhouse/local/cluster.sh url      the CLICKHOUSE_URL for the cluster
#   clickhouse/local/cluster.sh drop-tests
#                                        drop the test databases (ow_test_*)
#                                        on every node: each holds dozens of
#                                        replicated tables, which the nodes and
#                                        ZooKeeper keep until they are dropped
#
# Environment:
#   CLUSTER_DIR          data, logs and PID files (default .data/cluster in the
#                        repository); zk/ and node1..node4/ under it
#   CLUSTER_PORT_OFFSET  added to every port (default 0), so a test can run a
#                        private topology beside the default one
#   CLUSTER_DATABASE     the database `up` creates ON CLUSTER (default overwatch)
#   CLUSTER_WIPE=1       with `down`: also delete CLUSTER_DIR
#
# Ports (plus the offset): ClickHouse native 9101-9104, HTTP 8124-8127,
# interserver 9011-9014; ZooKeeper 2181. The PID of each process is in
# $CLUSTER_DIR/zk/pid and $CLUSTER_DIR/nodeN/pid (the chaos test kills them
# from there and runs `up` again to restart them). The shared single server of
# clickhouse/local/up.sh (:9000) is never touched. ZooKeeper comes from
# Debian's `zookeeper` package (installed when missing; never `zookeeperd`,
# which adds a system service), ClickHouse from clickhouse-server.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
templates="$root/clickhouse/local/cluster"
dir=${CLUSTER_DIR:-$root/.data/cluster}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
offset=${CLUSTER_PORT_OFFSET:-0}
database=${CLUSTER_DATABASE:-overwatch}
cluster=overwatch
zk_port=$((2181 + offset))
nodes=(1 2 3 4)

tcp_port() { echo $((9100 + $1 + offset)); }
http_port() { echo $((8123 + $1 + offset)); }
interserver_port() { echo $((9010 + $1 + offset)); }
shard_of() { printf '%02d' $(( ($1 - 1) % 2 + 1 )); }
replica_of() { echo "r$(( ($1 - 1) / 2 + 1 ))"; }

log() { echo "cluster: $*"; }
die() { echo "cluster: $*" >&2; exit 1; }

# ours PIDFILE PATTERN: the PID in PIDFILE is alive and its command line
# contains PATTERN (so a reused PID is never taken for ours).
ours() {
  local pid
  [ -f "$1" ] || return 1
  pid=$(cat "$1")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$2"
}

# started PIDFILE PATTERN: the process this script has just started is still
# running: ours (above), or not yet past the fork, when its command line is
# still this script's (under load that window can outlast the first check).
started() {
  local pid
  ours "$1" "$2" && return 0
  pid=$(cat "$1" 2>/dev/null) || return 1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
  [ "$(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null)" = "$(tr '\0' ' ' < "/proc/$$/cmdline")" ]
}

# port_busy PORT: something accepts connections on 127.0.0.1:PORT.
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

zk_ok() {
  local answer
  answer=$(timeout 3 bash -c "exec 3<>/dev/tcp/127.0.0.1/$zk_port && printf ruok >&3 && cat <&3" 2>/dev/null) || true
  [ "$answer" = imok ]
}

client() { local n=$1; shift; clickhouse-client --host 127.0.0.1 --port "$(tcp_port "$n")" "$@"; }
node_ok() { client "$1" -q 'SELECT 1' >/dev/null 2>&1; }

install_packages() {
  local missing=""
  command -v clickhouse-server >/dev/null || missing="$missing clickhouse-server"
  command -v clickhouse-client >/dev/null || missing="$missing clickhouse-client"
  [ -f /usr/share/java/zookeeper.jar ] || missing="$missing zookeeper"
  command -v java >/dev/null || missing="$missing default-jre-headless"
  [ -z "$missing" ] && return 0
  log "installing$missing from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  # shellcheck disable=SC2086
  if ! apt-get install -y -q $missing >/dev/null; then
    apt-get update -q >/dev/null
    apt-get install -y -q $missing >/dev/null
  fi
}

start_zk() {
  local d="$dir/zk" cp
  if ours "$d/pid" "$d/zoo.cfg"; then
    log "reusing ZooKeeper on 127.0.0.1:$zk_port (pid $(cat "$d/pid"))"
  else
    port_busy "$zk_port" && die "127.0.0.1:$zk_port is taken by a process this script did not start (set CLUSTER_PORT_OFFSET)"
    mkdir -p "$d/data"
    sed -e "s#@DIR@#$d#g" -e "s#@ZK_PORT@#$zk_port#g" "$templates/zoo.cfg" > "$d/zoo.cfg"
    cp=/etc/zookeeper/conf:/usr/share/java/zookeeper.jar
    [ -f /usr/share/java/slf4j-simple.jar ] && cp="$cp:/usr/share/java/slf4j-simple.jar"
    log "starting ZooKeeper on 127.0.0.1:$zk_port"
    setsid java -Xms32m -Xmx256m -XX:+UseSerialGC \
      -Dzookeeper.admin.enableServer=false \
      -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
      -cp "$cp" org.apache.zookeeper.server.ZooKeeperServerMain "$d/zoo.cfg" \
      >> "$d/zk.log" 2>&1 < /dev/null &
    echo $! > "$d/pid"
  fi
  for _ in $(seq 1 120); do
    zk_ok && return 0
    started "$d/pid" "$d/zoo.cfg" || break
    sleep 0.5
  done
  tail -n 20 "$d/zk.log" >&2 || true
  die "ZooKeeper did not answer on 127.0.0.1:$zk_port; see $d/zk.log"
}

start_node() {
  local n=$1 d="$dir/node$1"
  if ours "$d/pid" "$d/config.xml"; then
    log "reusing node$n on 127.0.0.1:$(tcp_port "$n") (pid $(cat "$d/pid"))"
    return 0
  fi
  port_busy "$(tcp_port "$n")" && die "127.0.0.1:$(tcp_port "$n") is taken by a process this script did not start (set CLUSTER_PORT_OFFSET)"
  mkdir -p "$d/data" "$d/tmp" "$d/log" "$d/user_files" "$d/format_schemas"
  sed -e "s#@DIR@#$d#g" \
    -e "s#@TCP_PORT@#$(tcp_port "$n")#g" -e "s#@HTTP_PORT@#$(http_port "$n")#g" \
    -e "s#@INTERSERVER_PORT@#$(interserver_port "$n")#g" \
    -e "s#@TCP_PORT_1@#$(tcp_port 1)#g" -e "s#@TCP_PORT_2@#$(tcp_port 2)#g" \
    -e "s#@TCP_PORT_3@#$(tcp_port 3)#g" -e "s#@TCP_PORT_4@#$(tcp_port 4)#g" \
    -e "s#@ZK_PORT@#$zk_port#g" -e "s#@SHARD@#$(shard_of "$n")#g" -e "s#@REPLICA@#$(replica_of "$n")#g" \
    "$templates/config.xml" > "$d/config.xml"
  cp "$templates/users.xml" "$d/users.xml"
  log "starting node$n (shard $(shard_of "$n") replica $(replica_of "$n")) on 127.0.0.1:$(tcp_port "$n")"
  # In the foreground (not --daemon, which changes directory and hides
  # errors), detached into its own session so that it outlives this script.
  (cd "$d" && exec setsid clickhouse-server --config-file="$d/config.xml" >> "$d/log/stderr.log" 2>&1 < /dev/null) &
  echo $! > "$d/pid"
}

wait_node() {
  local n=$1 d="$dir/node$1" tries=0
  for _ in $(seq 1 240); do
    node_ok "$n" && return 0
    if ! started "$d/pid" "$d/config.xml"; then
      # 18.16 can exit while it loads its replicated tables just after
      # ZooKeeper started (a Coordination exception): start it again, at
      # most three times.
      tries=$((tries + 1))
      [ "$tries" -le 3 ] || break
      log "node$n exited while starting; starting it again ($tries/3)"
      tail -n 3 "$d/log/error.log" 2>/dev/null || true
      sleep 2
      start_node "$n"
    fi
    sleep 0.5
  done
  tail -n 20 "$d/log/error.log" "$d/log/stderr.log" >&2 2>/dev/null || true
  die "node$n did not answer on 127.0.0.1:$(tcp_port "$n"); see $d/log/"
}

# ddl_ok: an ON CLUSTER statement completes on every node.
ddl_ok() {
  client 1 --distributed_ddl_task_timeout=20 \
    -q "CREATE DATABASE IF NOT EXISTS $database ON CLUSTER $cluster" >/dev/null 2>"$dir/ddl.err"
}

# dead_logs: the last log lines of every node that does not answer.
dead_logs() {
  for n in "${nodes[@]}"; do
    node_ok "$n" && continue
    echo "cluster: node$n does not answer; the end of its logs:" >&2
    tail -n 15 "$dir/node$n/log/error.log" "$dir/node$n/log/stderr.log" >&2 2>/dev/null || true
  done
}

# replicas_ok N: no replicated table of node N is read-only or has an expired
# ZooKeeper session (after a ZooKeeper or node restart they recover).
replicas_ok() {
  [ "$(client "$1" -q 'SELECT count() FROM system.replicas WHERE is_readonly OR is_session_expired' 2>/dev/null)" = 0 ]
}

up() {
  install_packages
  start_zk
  for n in "${nodes[@]}"; do start_node "$n"; done
  for n in "${nodes[@]}"; do wait_node "$n"; done
  local ok=""
  for _ in $(seq 1 60); do
    if ddl_ok; then ok=1; break; fi
    # A node that died since it answered (18.16 has crashed at start-up
    # while replaying its replication queue) is started again.
    for n in "${nodes[@]}"; do
      if ! ours "$dir/node$n/pid" "$dir/node$n/config.xml"; then
        log "node$n exited; starting it again"
        tail -n 5 "$dir/node$n/log/error.log" 2>/dev/null || true
        start_node "$n"
        wait_node "$n"
      fi
    done
    sleep 1
  done
  [ -n "$ok" ] || { cat "$dir/ddl.err" >&2; dead_logs; die "ON CLUSTER DDL did not complete within 60 s"; }
  for n in "${nodes[@]}"; do
    for _ in $(seq 1 60); do replicas_ok "$n" && break; sleep 1; done
    replicas_ok "$n" || { dead_logs; die "node$n still has read-only replicas after 60 s (SELECT * FROM system.replicas)"; }
  done
  log "ready: cluster $cluster, 2 shards x 2 replicas, database $database; CLICKHOUSE_URL=$(url)"
}

# stop_all: TERM (KILL with CLUSTER_WIPE=1: the data goes anyway) to every
# node of ours at once, KILL to any still running after 30 s, then the same
# for ZooKeeper (which the nodes need while they shut down).
stop_all() {
  local sig=TERM pids=() n pid
  [ "${CLUSTER_WIPE:-0}" = 1 ] && sig=KILL
  for n in "${nodes[@]}"; do
    if ours "$dir/node$n/pid" "$dir/node$n/config.xml"; then
      pid=$(cat "$dir/node$n/pid")
      log "stopping node$n (pid $pid)"
      kill -s "$sig" "$pid" 2>/dev/null || true
      pids+=("$pid")
    fi
    rm -f "$dir/node$n/pid"
  done
  wait_pids "${pids[@]}"
  if ours "$dir/zk/pid" "$dir/zk/zoo.cfg"; then
    pid=$(cat "$dir/zk/pid")
    log "stopping ZooKeeper (pid $pid)"
    kill -s "$sig" "$pid" 2>/dev/null || true
    wait_pids "$pid"
  fi
  rm -f "$dir/zk/pid"
}

# wait_pids PID...: wait up to 30 s for the processes to exit, then KILL.
wait_pids() {
  local pid alive
  for _ in $(seq 1 60); do
    alive=""
    for pid in "$@"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ -z "$alive" ] && return 0
    sleep 0.5
  done
  for pid in "$@"; do kill -9 "$pid" 2>/dev/null || true; done
}

down() {
  stop_all
  if [ "${CLUSTER_WIPE:-0}" = 1 ]; then
    log "deleting $dir"
    rm -rf "$dir"
  fi
  log "down"
}

status() {
  local state
  if ours "$dir/zk/pid" "$dir/zk/zoo.cfg"; then state="pid $(cat "$dir/zk/pid")"; else state="not started here"; fi
  if zk_ok; then state="$state, up"; else state="$state, down"; fi
  echo "zookeeper  127.0.0.1:$zk_port  $state"
  for n in "${nodes[@]}"; do
    if ours "$dir/node$n/pid" "$dir/node$n/config.xml"; then state="pid $(cat "$dir/node$n/pid")"; else state="not started here"; fi
    if node_ok "$n"; then
      state="$state, up $(client "$n" -q "SELECT concat(toString(count()), ' replicated tables, ', toString(countIf(is_readonly)), ' read-only, queue ', toString(sum(queue_size))) FROM system.replicas" 2>/dev/null)"
    else
      state="$state, down"
    fi
    echo "node$n      127.0.0.1:$(tcp_port "$n") http $(http_port "$n")  shard $(shard_of "$n") replica $(replica_of "$n")  $state"
  done
}

# drop_tests: every test database (ow_test_*) of the nodes (a test run
# creates its databases afresh anyway), each node dropping its own, four
# at a time, the four nodes side by side: ON CLUSTER, one statement at a
# time through the nodes' DDL queues, took seconds a database. A node restarted with
# dozens of test databases on disk loads their replicated tables from
# ZooKeeper for minutes (18.16 gave up or aborted), so `make test` drops
# them before it stops the cluster.
drop_tests() {
  local n pids="" rc=0
  for n in "${nodes[@]}"; do
    node_ok "$n" || die "node$n does not answer: run $0 up first"
  done
  for n in "${nodes[@]}"; do
    client "$n" -q "SELECT name FROM system.databases WHERE substring(name, 1, 8) = 'ow_test_'" |
      xargs -r -P 4 -I '{}' clickhouse-client --host 127.0.0.1 --port "$(tcp_port "$n")" -q 'DROP DATABASE IF EXISTS {}' &
    pids="$pids $!"
  done
  for p in $pids; do wait "$p" || rc=1; done
  [ "$rc" -eq 0 ] || die "a test database could not be dropped"
  log "test databases dropped"
}

url() {
  local hosts=""
  for n in "${nodes[@]}"; do hosts="$hosts${hosts:+,}127.0.0.1:$(tcp_port "$n")"; done
  echo "clickhouse://$hosts/$database"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  url) url ;;
  drop-tests) drop_tests ;;
  *) echo "usage: $0 up|down|status|url|drop-tests" >&2; exit 2 ;;
esac
