#!/usr/bin/env bash
# exporters-setup.sh — install (from Debian packages, when missing) and start
# Prometheus node_exporter and process-exporter on 127.0.0.1 only, for
# benchpress's host/process watching tests (`--watch NAME=URL`, plan `hosts:`).
# Idempotent: safe to run again while they are up.
#
#   node_exporter     http://127.0.0.1:9100/metrics
#   process-exporter  http://127.0.0.1:9256/metrics  (groups: mariadbd,
#                     postgres, java (a proxy such as ShardingSphere), benchpress)
#
# A package-started instance listening on the wildcard address is stopped
# first: nothing benchpress starts listens beyond 127.0.0.1. Waits at most
# 30 s for each exporter to answer.
set -euo pipefail

log() { printf '[exporters-setup] %s\n' "$*" >&2; }
if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
NODE_ADDR=${BP_NODE_EXPORTER_ADDR:-127.0.0.1:9100}
PROC_ADDR=${BP_PROCESS_EXPORTER_ADDR:-127.0.0.1:9256}
STATE=/tmp/benchpress-exporters
mkdir -p "$STATE"

# shellcheck source=scripts/lib/apt.sh
. "$(dirname "$0")/lib/apt.sh"

NODE_BIN=/usr/bin/prometheus-node-exporter
PROC_BIN=/usr/bin/prometheus-process-exporter
missing=()
[ -x $NODE_BIN ] || missing+=(prometheus-node-exporter)
[ -x $PROC_BIN ] || missing+=(prometheus-process-exporter)
# --no-start: the packages would start them on their wildcard addresses.
[ ${#missing[@]} -eq 0 ] || apt_install --no-start "${missing[@]}"
# Nor at the next boot: the packages enable their units, which listen on
# every interface (:9100, :9256) until this script runs again.
if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
  $SUDO systemctl disable --quiet prometheus-node-exporter prometheus-process-exporter 2>/dev/null || true
fi

# stop_wildcard PORT: stop a service instance listening on *:PORT or 0.0.0.0:PORT.
stop_wildcard() {
  local port=$1 pids
  pids=$(ss -Hltnp "( sport = :$port )" 2>/dev/null | awk '$4 !~ /^127\.0\.0\.1:/' | grep -o 'pid=[0-9]*' | cut -d= -f2 | sort -u || true)
  for pid in $pids; do
    log "stopping pid $pid listening beyond 127.0.0.1 on port $port"
    $SUDO kill "$pid" 2>/dev/null || true
  done
}
for svc in prometheus-node-exporter prometheus-process-exporter; do
  $SUDO service "$svc" stop >/dev/null 2>&1 || true
done
stop_wildcard "${NODE_ADDR##*:}"
stop_wildcard "${PROC_ADDR##*:}"

up() { curl -fsS --max-time 2 "http://$1/metrics" >/dev/null 2>&1; }

# wait_up ADDR NAME: bounded wait (30 s) until ADDR answers.
wait_up() {
  for _ in $(seq 1 60); do up "$1" && return 0; sleep 0.5; done
  log "$2 did not answer on $1"; tail -20 "$STATE/$2.log" 2>/dev/null || true
  return 1
}

# start_exporter NAME ADDR CMD...: start CMD in the background unless an
# instance this script started with the same command line already answers;
# one started with other arguments is stopped first (by its recorded pid).
start_exporter() {
  local name=$1 addr=$2; shift 2
  local args="$*"
  if [ -f "$STATE/$name.pid" ] && [ "$(cat "$STATE/$name.args" 2>/dev/null)" != "$args" ]; then
    log "restarting $name with new arguments"
    # Only the exporter this script started: a pid reused since (by a
    # database server) is left alone.
    local pid; pid=$(cat "$STATE/$name.pid")
    if tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "$1"; then
      kill "$pid" 2>/dev/null || true
    fi
    rm -f "$STATE/$name.pid"
    for _ in $(seq 1 20); do up "$addr" || break; sleep 0.25; done
  fi
  up "$addr" && return 0
  log "starting $name on $addr"
  (cd / && nohup "$@" >"$STATE/$name.log" 2>&1 & echo $! >"$STATE/$name.pid")
  echo "$args" >"$STATE/$name.args"
  wait_up "$addr" "$name"
}

# Loopback is kept (node_exporter leaves lo out by default): with the
# database on the load machine, the benchmark's traffic runs over it.
start_exporter node_exporter "$NODE_ADDR" $NODE_BIN --web.listen-address="$NODE_ADDR" --collector.netdev.device-exclude='^$'

cat >"$STATE/process-exporter.yml" <<'YML'
process_names:
  - name: "{{.Comm}}"
    comm:
      - mariadbd
      - mysqld
      - postgres
      - java
      - benchpress
YML
start_exporter process-exporter "$PROC_ADDR" $PROC_BIN -web.listen-address="$PROC_ADDR" -config.path "$STATE/process-exporter.yml"
log "node_exporter http://$NODE_ADDR/metrics, process-exporter http://$PROC_ADDR/metrics"
