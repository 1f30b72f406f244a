#!/usr/bin/env bash
# proxy-setup.sh — install (when missing) and start ShardingSphere-Proxy 5.1.0
# on 127.0.0.1 as a sharding-proxy test target for benchpress. Idempotent: a
# proxy already answering on the port is reused, unless its logical databases
# cannot reach their backends or scripts/proxy changed since it started
# (then the proxy this script started is restarted).
#
#   bash scripts/proxy-setup.sh          # after scripts/db-setup.sh
#   bash scripts/proxy-setup.sh stop     # stop the proxy this script started
#
# 1. installs a JDK and Maven from Debian when `java`/`javac`/`mvn` are missing;
# 2. fetches org.apache.shardingsphere:shardingsphere-proxy-bootstrap:5.1.0,
#    its runtime dependencies and MySQL Connector/J 8.0.22 from Maven Central
#    into $BP_PROXY_CACHE (default ~/.cache/benchpress/ss-5.1.0; reused);
# 3. compiles scripts/proxy/LoopbackProxy.java, which starts the proxy bound to
#    127.0.0.1 (5.1.0's own Bootstrap binds the wildcard address);
# 4. creates the backend databases on MariaDB (bp_ss_tpcc_0/1, bp_ss_sbtest_0/1,
#    bp_ss_ycsb_0/1) and writes the configuration from scripts/proxy/conf:
#    logical databases bp_sharded_tpcc (TPC-C sharded by warehouse, MOD 2 on
#    the *_w_id columns, ITEM broadcast), bp_sharded_sbtest (sbtest1..8 by id)
#    and bp_sharded_ycsb (usertable by a hash of the key); unsharded, bp_proxy
#    (MariaDB's bp, for direct-vs-proxy overhead) and bp_proxy_wire
#    (bp_ss_wire, for the protocol client's tests);
# 5. starts the proxy (MySQL protocol) on 127.0.0.1:$BP_PROXY_PORT (13307) and
#    waits for it at most $BP_PROXY_WAIT seconds (120); on failure prints the
#    end of the log ($BP_PROXY_CACHE/run/proxy.log) and exits 1.
#
# The tests find it at mysql://bench:bench@127.0.0.1:13307/ (BP_TEST_PROXY).
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=5.1.0
CACHE=${BP_PROXY_CACHE:-$HOME/.cache/benchpress/ss-$VERSION}
PORT=${BP_PROXY_PORT:-13307}
WAIT=${BP_PROXY_WAIT:-120}
DB_HOST=127.0.0.1 DB_PORT=3306 DB_USER=bench DB_PASSWORD=bench PREFIX=bp_ss_
RUN=$CACHE/run
PIDFILE=$RUN/proxy.pid

log() { printf '[proxy-setup] %s\n' "$*" >&2; }

proxy_up() { # the proxy (not some other server) serves every logical database of scripts/proxy/conf
  local have want
  have=$(mariadb -h127.0.0.1 -P"$PORT" -u"$DB_USER" -p"$DB_PASSWORD" --connect-timeout=3 \
    -N -e 'SHOW DATABASES' 2>/dev/null) || return 1
  for want in $(sed -n 's/^schemaName: //p' scripts/proxy/conf/config-*.yaml); do
    grep -qx "$want" <<<"$have" || return 1
  done
}

proxy_serves() { # every logical database answers a query that needs a backend connection
  local db
  for db in $(sed -n 's/^schemaName: //p' scripts/proxy/conf/config-*.yaml); do
    timeout 10 mariadb -h127.0.0.1 -P"$PORT" -u"$DB_USER" -p"$DB_PASSWORD" --connect-timeout=3 \
      -N -e 'SELECT 1' "$db" >/dev/null 2>&1 || return 1
  done
}

# ours: the pid file names a live proxy this script started (its command
# line is LoopbackProxy's: a pid reused since by another process, a
# database server, is never signalled).
ours() {
  local pid
  [ -f "$PIDFILE" ] && pid=$(cat "$PIDFILE") && kill -0 "$pid" 2>/dev/null &&
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q LoopbackProxy
}

# conf_sum: what the running proxy was started from (its rules, pools,
# jars and launcher); a changed one restarts the proxy this script started.
conf_sum() {
  cat scripts/proxy/conf/* scripts/proxy/pom.xml scripts/proxy/LoopbackProxy.java | sha256sum | cut -d' ' -f1
}

if [ "${1:-}" = stop ]; then
  if ours; then
    kill "$(cat "$PIDFILE")" && log "stopped proxy (pid $(cat "$PIDFILE"))"
  fi
  rm -f "$PIDFILE"
  exit 0
fi

# A proxy that lists the databases but cannot reach its backends is not
# reused: after a run that exhausted its connection pool (HikariPool
# timeouts) ShardingSphere-Proxy 5.1.0 was seen keeping every backend
# connection, idle on MariaDB, so that each later query waited 30 s and
# failed.
why="its configuration is out of date"
if proxy_up; then
  if proxy_serves; then
    if [ "$(cat "$RUN/config.sha" 2>/dev/null)" = "$(conf_sum)" ]; then
      log "proxy already running on 127.0.0.1:$PORT"
      exit 0
    fi
    if ! ours; then
      log "warning: the proxy on 127.0.0.1:$PORT was not started by this script from scripts/proxy as it is now: reused as it is"
      exit 0
    fi
    why="scripts/proxy changed since it started (rules, pools, jars or launcher)"
  else
    why="a query waited for a backend connection (its pool is exhausted)"
    if ! ours; then
      log "the proxy on 127.0.0.1:$PORT cannot reach its backends ($why) and was not started by this script: stop it"
      exit 1
    fi
  fi
fi
if ours; then
  old=$(cat "$PIDFILE")
  log "restarting the proxy (pid $old): $why"
  kill "$old"
  # Until it has gone: the new one could not bind the port, and the old
  # one would still answer the readiness check below.
  for _ in $(seq 1 30); do kill -0 "$old" 2>/dev/null || break; sleep 1; done
  kill -9 "$old" 2>/dev/null || true
fi

# ------------------------------------------------------------ JDK, Maven
if ! command -v javac >/dev/null 2>&1 || ! command -v mvn >/dev/null 2>&1; then
  # shellcheck source=scripts/lib/apt.sh
  . scripts/lib/apt.sh
  apt_install default-jdk-headless maven
fi

# ------------------------------------------------- proxy jars (cached)
mkdir -p "$CACHE" "$RUN"
if [ ! -f "$CACHE/lib/.complete" ] || ! cmp -s scripts/proxy/pom.xml "$CACHE/pom.xml"; then
  log "fetching shardingsphere-proxy-bootstrap $VERSION and its dependencies (Maven Central)"
  rm -rf "$CACHE/lib"
  cp scripts/proxy/pom.xml "$CACHE/pom.xml"
  if ! mvn -q -B -f "$CACHE/pom.xml" dependency:copy-dependencies \
       -DoutputDirectory="$CACHE/lib" -DincludeScope=runtime >"$RUN/mvn.log" 2>&1; then
    log "Maven failed:"; tail -30 "$RUN/mvn.log" >&2; exit 1
  fi
  touch "$CACHE/lib/.complete"
fi

# ------------------------------------------------------ launcher class
if [ ! -f "$CACHE/classes/LoopbackProxy.class" ] || \
   [ scripts/proxy/LoopbackProxy.java -nt "$CACHE/classes/LoopbackProxy.class" ]; then
  log "compiling LoopbackProxy"
  mkdir -p "$CACHE/classes"
  javac -nowarn -cp "$CACHE/lib/*" -d "$CACHE/classes" scripts/proxy/LoopbackProxy.java
fi

# ---------------------------------------------- backend databases, conf
for db in tpcc_0 tpcc_1 sbtest_0 sbtest_1 ycsb_0 ycsb_1 wire; do
  echo "CREATE DATABASE IF NOT EXISTS $PREFIX$db;"
done | mariadb -h"$DB_HOST" -P"$DB_PORT" -u"$DB_USER" -p"$DB_PASSWORD"

JDBC_PARAMS='?serverTimezone=UTC\&useSSL=false\&allowPublicKeyRetrieval=true'
rm -rf "$RUN/conf" && mkdir -p "$RUN/conf"
for f in scripts/proxy/conf/*; do
  sed -e "s|@JDBC@|mysql|g; s|@HOST@|$DB_HOST|g; s|@PORT@|$DB_PORT|g; s|@PREFIX@|$PREFIX|g" \
      -e "s|@JDBC_PARAMS@|$JDBC_PARAMS|g" \
      -e "s|@USER@|$DB_USER|g; s|@PASSWORD@|$DB_PASSWORD|g" "$f" > "$RUN/conf/$(basename "$f")"
done

# ---------------------------------------------------------------- start
log "starting ShardingSphere-Proxy $VERSION on 127.0.0.1:$PORT"
# In $RUN: the proxy's transaction manager writes logs/ into its working
# directory. exec keeps $! the JVM's pid.
# shellcheck disable=SC2086
(cd "$RUN" && exec nohup java ${BP_PROXY_JAVA_OPTS:--Xms256m -Xmx768m -XX:+UseSerialGC} -Djava.net.preferIPv4Stack=true \
  -cp "$RUN/conf:$CACHE/classes:$CACHE/lib/*" LoopbackProxy "$PORT" "$RUN/conf" 127.0.0.1 \
  </dev/null >"$RUN/proxy.log" 2>&1) &
echo $! >"$PIDFILE"
conf_sum >"$RUN/config.sha"
for _ in $(seq 1 "$WAIT"); do
  proxy_up && break
  kill -0 "$(cat "$PIDFILE")" 2>/dev/null || break
  sleep 1
done
if ! proxy_up || ! proxy_serves; then
  log "the proxy did not start (waited at most ${WAIT}s); end of $RUN/proxy.log:"
  tail -40 "$RUN/proxy.log" >&2
  kill "$(cat "$PIDFILE")" 2>/dev/null || true
  exit 1
fi
if ss -ltn "sport = :$PORT" | awk 'NR>1 {print $4}' | grep -qv '^127\.0\.0\.1:'; then
  log "the proxy listens beyond 127.0.0.1:"; ss -ltnp "sport = :$PORT" >&2
  kill "$(cat "$PIDFILE")"; exit 1
fi
log "ShardingSphere-Proxy ready: mysql://$DB_USER:$DB_PASSWORD@127.0.0.1:$PORT/bp_sharded_tpcc (pid $(cat "$PIDFILE"))"
