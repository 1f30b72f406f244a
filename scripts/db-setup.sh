#!/usr/bin/env bash
# db-setup.sh — install (from Debian packages, when missing) and start MariaDB
# and PostgreSQL on 127.0.0.1 for benchpress's integration tests and benches.
# Idempotent: safe to run again while the servers are up.
#
# Creates user bench/bench with full rights on databases bp and bp_test
# (MariaDB) and bp, bp_test (PostgreSQL, owner bench).
# Raises connection limits so 2048-terminal runs work. A second MariaDB at
# stock settings listens on 127.0.0.1:3307 (see below).
set -euo pipefail

log() { printf '[db-setup] %s\n' "$*" >&2; }
if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
# as USER CMD...: run a command as another system user.
as() { local u=$1; shift; if [ -z "$SUDO" ]; then runuser -u "$u" -- "$@"; else sudo -u "$u" "$@"; fi; }

# shellcheck source=scripts/lib/apt.sh
. "$(dirname "$0")/lib/apt.sh"

# ---------------------------------------------------------------- MariaDB
if ! command -v mariadbd >/dev/null 2>&1 && ! [ -x /usr/sbin/mariadbd ]; then
  apt_install mariadb-server mariadb-client
fi

cat > /tmp/benchpress-mariadb.cnf <<'CNF'
[mysqld]
bind-address = 127.0.0.1
port = 3306
max_connections = 4200
max_prepared_stmt_count = 1048576
local_infile = 1
innodb_buffer_pool_size = 1G
innodb_log_file_size = 512M
innodb_flush_log_at_trx_commit = 2
skip-name-resolve
CNF
$SUDO cp /tmp/benchpress-mariadb.cnf /etc/mysql/mariadb.conf.d/99-benchpress.cnf

mariadb_up() { mariadb-admin --protocol=socket -uroot ping >/dev/null 2>&1; }
if ! mariadb_up; then
  log "starting MariaDB"
  $SUDO mkdir -p /run/mysqld && $SUDO chown mysql:mysql /run/mysqld
  if ! { $SUDO service mariadb start >/dev/null 2>&1 && mariadb_up; }; then
    # The subshell's own output to /dev/null: no shell stays behind
    # holding the caller's stdout (`db-setup.sh | tee` would never end).
    (cd / && as mysql nohup /usr/sbin/mariadbd >/tmp/mariadbd.log 2>&1 &) >/dev/null 2>&1 || true
  fi
  for _ in $(seq 1 60); do mariadb_up && break; sleep 1; done
  mariadb_up || { log "MariaDB did not start"; tail -20 /tmp/mariadbd.log 2>/dev/null; exit 1; }
fi
$SUDO mariadb --protocol=socket -uroot <<'SQL'
CREATE DATABASE IF NOT EXISTS bp;
CREATE DATABASE IF NOT EXISTS bp_test;
CREATE USER IF NOT EXISTS 'bench'@'127.0.0.1' IDENTIFIED BY 'bench';
CREATE USER IF NOT EXISTS 'bench'@'localhost' IDENTIFIED BY 'bench';
GRANT ALL PRIVILEGES ON *.* TO 'bench'@'127.0.0.1';
GRANT ALL PRIVILEGES ON *.* TO 'bench'@'localhost';
SET GLOBAL max_connections = 4200;
SET GLOBAL local_infile = 1;
SET GLOBAL max_prepared_stmt_count = 1048576;
SET GLOBAL innodb_flush_log_at_trx_commit = 2;
SET GLOBAL innodb_buffer_pool_size = 1073741824;
FLUSH PRIVILEGES;
SQL
log "MariaDB ready: mysql://bench:bench@127.0.0.1:3306/bp"

# ----------------------------------- MariaDB at stock settings (port 3307)
# A second instance with the server's DEFAULT settings (max_prepared_stmt_count
# 16382, 128M buffer pool...), for tests of what a user meets on a stock
# server. Only bind-address, port and max_connections are set (and the
# process's open-files limit, which a service manager would raise: every
# session is a file descriptor). Tests reach it
# through BP_TEST_MYSQL_DEFAULTS (default mysql://bench:bench@127.0.0.1:3307/bp_test).
# bench may grant here (tests create a read-only user).
DEF_DIR=/var/lib/benchpress-mariadb-defaults
DEF_RUN=/run/benchpress-mariadb-defaults
DEF_SOCK=$DEF_RUN/mysqld.sock
defaults_up() { mariadb-admin --protocol=socket -S "$DEF_SOCK" -uroot ping >/dev/null 2>&1; }
$SUDO mkdir -p "$DEF_RUN" && $SUDO chown mysql:mysql "$DEF_RUN"
# A data directory counts as initialised by its marker, written after
# mariadb-install-db succeeded: an install that was interrupted leaves a
# mysql/ directory the server cannot start from, and is done again.
DEF_MARK=$DEF_DIR/.benchpress-initialised
init_defaults() {
  log "initialising the stock-settings MariaDB in $DEF_DIR"
  $SUDO rm -rf "$DEF_DIR" && $SUDO mkdir -p "$DEF_DIR" && $SUDO chown mysql:mysql "$DEF_DIR"
  if ! as mysql mariadb-install-db --no-defaults --datadir="$DEF_DIR" --auth-root-authentication-method=socket \
    --skip-test-db >/tmp/benchpress-mariadb-defaults-install.log 2>&1; then
    log "mariadb-install-db failed:"; tail -20 /tmp/benchpress-mariadb-defaults-install.log; exit 1
  fi
  $SUDO touch "$DEF_MARK"
}
start_defaults() {
  log "starting the stock-settings MariaDB on 127.0.0.1:3307"
  # Started as root with --user=mysql (as mysqld_safe does) so that it can
  # raise its own open-files limit.
  (cd / && $SUDO nohup /usr/sbin/mariadbd --no-defaults --user=mysql --datadir="$DEF_DIR" --socket="$DEF_SOCK" \
    --pid-file="$DEF_RUN/mysqld.pid" --bind-address=127.0.0.1 --port=3307 --max-connections=4200 \
    --open-files-limit=20000 </dev/null >/tmp/benchpress-mariadb-defaults.log 2>&1 &) >/dev/null 2>&1 || true
  for _ in $(seq 1 60); do
    defaults_up && return 0
    sleep 1
    pgrep -f -- "--datadir=$DEF_DIR" >/dev/null || return 1 # it died: no use waiting
  done
  return 1
}
[ -d "$DEF_DIR/mysql" ] || init_defaults
if ! defaults_up && ! start_defaults; then
  # Initialised again only when the directory has no marker and the server
  # said its system tables are missing (what an interrupted
  # mariadb-install-db leaves); a slow start (crash recovery) is not that.
  if [ -e "$DEF_MARK" ] || ! grep -qE "Can't open and lock privilege tables|Table 'mysql\.[a-z_]+' doesn't exist" /tmp/benchpress-mariadb-defaults.log; then
    log "stock-settings MariaDB did not start"; tail -20 /tmp/benchpress-mariadb-defaults.log; exit 1
  fi
  log "stock-settings MariaDB found its system tables missing (an interrupted initialisation): initialising again"
  $SUDO pkill -f -- "--datadir=$DEF_DIR" 2>/dev/null || true
  for _ in $(seq 1 30); do pgrep -f -- "--datadir=$DEF_DIR" >/dev/null || break; sleep 1; done
  init_defaults
  start_defaults || { log "stock-settings MariaDB did not start"; tail -20 /tmp/benchpress-mariadb-defaults.log; exit 1; }
fi
# A directory initialised before the marker existed, and serving: mark it.
[ -e "$DEF_MARK" ] || $SUDO touch "$DEF_MARK"
$SUDO mariadb --protocol=socket -S "$DEF_SOCK" -uroot <<'SQL'
CREATE DATABASE IF NOT EXISTS bp;
CREATE DATABASE IF NOT EXISTS bp_test;
CREATE USER IF NOT EXISTS 'bench'@'127.0.0.1' IDENTIFIED BY 'bench';
CREATE USER IF NOT EXISTS 'bench'@'localhost' IDENTIFIED BY 'bench';
GRANT ALL PRIVILEGES ON *.* TO 'bench'@'127.0.0.1' WITH GRANT OPTION;
GRANT ALL PRIVILEGES ON *.* TO 'bench'@'localhost' WITH GRANT OPTION;
FLUSH PRIVILEGES;
-- Stock again after a test killed before its cleanup (one lowers it).
SET GLOBAL max_prepared_stmt_count = DEFAULT;
SQL
log "stock-settings MariaDB ready: mysql://bench:bench@127.0.0.1:3307/bp"

# ------------------------------------------------------------- PostgreSQL
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  apt_install postgresql postgresql-client
fi
# The newest version with a server (a client-only version has no bin/postgres).
PGVER=$(for d in /usr/lib/postgresql/*/bin/postgres; do basename "$(dirname "$(dirname "$d")")"; done | sort -n | tail -1)
PGCONF=/etc/postgresql/$PGVER/main
if [ ! -d "$PGCONF" ]; then
  $SUDO pg_createcluster "$PGVER" main >/dev/null
fi
$SUDO mkdir -p "$PGCONF/conf.d"
cat > /tmp/benchpress-pg.conf <<'CNF'
listen_addresses = '127.0.0.1'
port = 5432
max_connections = 2300
shared_buffers = 1GB
synchronous_commit = off
max_wal_size = 4GB
CNF
$SUDO cp /tmp/benchpress-pg.conf "$PGCONF/conf.d/99-benchpress.conf"
grep -q "^include_dir = 'conf.d'" "$PGCONF/postgresql.conf" || \
  echo "include_dir = 'conf.d'" | $SUDO tee -a "$PGCONF/postgresql.conf" >/dev/null
pg_up() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }
if ! pg_up; then
  log "starting PostgreSQL $PGVER"
  $SUDO pg_ctlcluster "$PGVER" main start || $SUDO pg_ctlcluster "$PGVER" main restart
  for _ in $(seq 1 60); do pg_up && break; sleep 1; done
  pg_up || { log "PostgreSQL did not start"; exit 1; }
fi
# A server started by the package's post-install runs with the defaults:
# restart it so that conf.d/99-benchpress.conf (max_connections...) applies.
if [ "$(as postgres psql -tAc 'SHOW max_connections' 2>/dev/null)" != "2300" ]; then
  log "restarting PostgreSQL $PGVER to apply benchpress settings"
  $SUDO pg_ctlcluster "$PGVER" main restart
  for _ in $(seq 1 60); do pg_up && break; sleep 1; done
  pg_up || { log "PostgreSQL did not restart"; exit 1; }
fi
as postgres psql -q -v ON_ERROR_STOP=1 <<'SQL' >/dev/null
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'bench') THEN
    CREATE ROLE bench LOGIN SUPERUSER PASSWORD 'bench';
  END IF;
END $$;
SQL
for db in bp bp_test; do
  as postgres psql -tAc "SELECT 1 FROM pg_database WHERE datname='$db'" | grep -q 1 || \
    as postgres createdb -O bench "$db"
done
log "PostgreSQL ready: postgres://bench:bench@127.0.0.1:5432/bp"
