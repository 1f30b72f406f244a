# bench/lib.sh — helpers shared by the bench/ scripts that compare benchpress
# with sysbench. Source it after setting MYSQL_HOST MYSQL_PORT MYSQL_USER
# MYSQL_PASS PG_HOST PG_PORT PG_USER PG_PASS.

# need_sysbench installs sysbench from Debian apt when it is missing.
need_sysbench() {
	command -v sysbench >/dev/null && return 0
	# shellcheck source=scripts/lib/apt.sh
	. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib/apt.sh"
	apt_install sysbench
}

# build_benchpress BIN builds the binary under test.
build_benchpress() {
	echo "building benchpress ..." >&2
	go build -o "$1" ./cmd/benchpress
}

# measure FILE CMD...: runs CMD (output to FILE.out); writes "cpu_s maxrss_mb
# steal_s" to FILE.cpu: the process's user+sys CPU seconds and peak RSS, and
# the CPU seconds the hypervisor took from the machine meanwhile (the steal
# column of /proc/stat, all cores; 0 off Linux or on bare metal).
measure() {
	local f=$1; shift
	python3 - "$f" "$@" <<'PY'
import os, resource, subprocess, sys
def steal():
    try:
        with open("/proc/stat") as fh:
            for line in fh:
                v = line.split()
                if v and v[0] == "cpu":
                    return int(v[8]) if len(v) > 8 else 0
    except OSError:
        pass
    return 0
f = sys.argv[1]
s0 = steal()
with open(f + ".out", "w") as out:
    rc = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.STDOUT).returncode
stolen = (steal() - s0) / os.sysconf("SC_CLK_TCK")
r = resource.getrusage(resource.RUSAGE_CHILDREN)
open(f + ".cpu", "w").write("%.3f %.1f %.2f\n" % (r.ru_utime + r.ru_stime, r.ru_maxrss / 1024, stolen))
sys.exit(rc)
PY
}

# steal_of FILE: the steal seconds measure wrote to FILE.cpu (0 if none).
steal_of() {
	local s
	s=$(cut -d' ' -f3 "$1.cpu" 2>/dev/null || true)
	echo "${s:-0}"
}

# spread_of FILE TOOL: how unevenly the run served its threads, stddev / mean
# of the events per thread in % (sysbench's "threads fairness" line in
# FILE.out; benchpress's terminals.stddev_pct in FILE.json); nan if none.
spread_of() {
	local v
	if [ "$2" = benchpress ]; then
		v=$(jq -r '.terminals.stddev_pct // empty' "$1.json" 2>/dev/null || true)
	else
		v=$(awk -F'[:/]' '/events \(avg\/stddev\)/ { gsub(/ /, ""); if ($3 > 0) printf "%.1f", 100 * $4 / $3 }' "$1.out" 2>/dev/null || true)
	fi
	echo "${v:-nan}"
}

# sb_args SERVER DB: sysbench connection options.
sb_args() {
	case $1 in
	mariadb) echo "--db-driver=mysql --mysql-host=$MYSQL_HOST --mysql-port=$MYSQL_PORT --mysql-user=$MYSQL_USER --mysql-password=$MYSQL_PASS --mysql-db=$2" ;;
	postgres) echo "--db-driver=pgsql --pgsql-host=$PG_HOST --pgsql-port=$PG_PORT --pgsql-user=$PG_USER --pgsql-password=$PG_PASS --pgsql-db=$2" ;;
	esac
}

# bp_url SERVER DB: the benchpress target URL (password from the environment).
bp_url() {
	case $1 in
	mariadb) echo "mysql://$MYSQL_USER@$MYSQL_HOST:$MYSQL_PORT/$2" ;;
	postgres) echo "postgres://$PG_USER@$PG_HOST:$PG_PORT/$2" ;;
	esac
}

# my_sql ARGS...: the mysql client on the MariaDB server under test.
my_sql() { MYSQL_PWD=$MYSQL_PASS mysql -h "$MYSQL_HOST" -P "$MYSQL_PORT" -u "$MYSQL_USER" "$@"; }

# pg_sql DB ARGS...: psql on database DB of the PostgreSQL server under test.
pg_sql() { local db=$1; shift; PGPASSWORD=$PG_PASS psql -h "$PG_HOST" -p "$PG_PORT" -U "$PG_USER" -d "$db" "$@"; }

# create_db SERVER DB creates the database if it does not exist.
create_db() {
	case $1 in
	mariadb) my_sql -e "CREATE DATABASE IF NOT EXISTS $2" ;;
	postgres)
		if ! pg_sql postgres -tAc "SELECT 1 FROM pg_database WHERE datname='$2'" | grep -q 1; then
			pg_sql postgres -qc "CREATE DATABASE $2"
		fi ;;
	esac
}

# settle SERVER DB: bring the server to the same state before a measured run,
# so that where a run falls in the sequence does not decide its figures.
# PostgreSQL: VACUUM the database (the dead rows oltp_read_write leaves would
# otherwise be vacuumed by autovacuum in the middle of some later run) and
# CHECKPOINT (every run then starts with the same full-page-write burden
# instead of wherever the 5-minute checkpoint cycle happens to be); CHECKPOINT
# needs a superuser or pg_checkpoint, without it only VACUUM runs. MariaDB:
# wait up to 30 s until InnoDB's purge has caught up (history list length
# below 1000). Sets SETTLE_NOTE to what it could not do. SETTLE=0 turns it off.
SETTLE_NOTE=
settle() {
	[ "${SETTLE:-1}" = 0 ] && return 0
	case $1 in
	postgres)
		pg_sql "$2" -qc VACUUM >/dev/null 2>&1 ||
			SETTLE_NOTE="VACUUM failed"
		if ! pg_sql "$2" -qc CHECKPOINT >/dev/null 2>&1; then
			SETTLE_NOTE="CHECKPOINT not permitted to $PG_USER (needs superuser or pg_checkpoint): VACUUM only"
		fi ;;
	mariadb)
		local i len
		for i in $(seq 1 60); do
			len=$(my_sql -NBe "SHOW GLOBAL STATUS LIKE 'Innodb_history_list_length'" 2>/dev/null | awk '{print $2}')
			[ -z "$len" ] && { SETTLE_NOTE="no Innodb_history_list_length: no purge wait"; return 0; }
			[ "$len" -lt 1000 ] && return 0
			sleep 0.5
		done
		SETTLE_NOTE="InnoDB purge still behind after 30 s (history list length $len)" ;;
	esac
}

# machine_type: the CPU model (lscpu) and core count, to quote next to figures.
machine_type() {
	local m
	m=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
	echo "${m:-unknown CPU}, $(nproc) cores, $(free -g | awk '/^Mem:/{print $2}') GiB"
}

# server_version SERVER: the server's version string.
server_version() {
	case $1 in
	mariadb) my_sql -NBe "SELECT VERSION()" 2>/dev/null || echo "?" ;;
	postgres) pg_sql postgres -tAc "SHOW server_version" 2>/dev/null || echo "?" ;;
	esac
}

# sb_line FILE [WINDOW_S]: "tps p50_ms p99_ms cpu_s queries" (tab-separated)
# of a sysbench run measured into FILE.out / FILE.cpu; p50 and p99 come from
# --histogram=on (sysbench's log buckets, about 1.5 % wide). nan for what is
# missing. With WINDOW_S (the run's --time), tps is the transactions over
# that window, as benchpress's summary.tps is (transactions started in the
# window, those finished after its end included, over the window): sysbench's
# own "per sec." divides by its total time, which also holds the wait for
# the threads after the deadline (1-6 % longer than --time at 128 threads
# on 2026-11-29), and would flatter whichever tool it is compared with.
sb_line() {
	python3 - "$1" "${2:-}" <<'PY'
import re, sys
f = sys.argv[1]
window = float(sys.argv[2]) if sys.argv[2] else None
try:
    out = open(f + ".out").read()
except OSError:
    out = ""
def num(pat):
    m = re.search(pat, out)
    return float(m.group(1)) if m else float("nan")
hist = [(float(v), int(c)) for v, c in re.findall(r"^\s+([0-9.]+) \|[* ]*\s(\d+)$", out, re.M)]
def pct(q):
    total = sum(c for _, c in hist)
    if not total:
        return float("nan")
    need, acc = q * total, 0
    for v, c in hist:
        acc += c
        if acc >= need:
            return v
    return hist[-1][0]
try:
    cpu = float(open(f + ".cpu").read().split()[0])
except (OSError, IndexError, ValueError):
    cpu = float("nan")
tps = num(r"transactions:\s+(\d+)\s+\(") / window if window else num(r"transactions:\s+\d+\s+\(([0-9.]+) per sec")
print("%.2f\t%.4f\t%.4f\t%.3f\t%.0f" % (tps, pct(0.50), pct(0.99), cpu, num(r"queries:\s+(\d+) ")))
PY
}

# bp_line FILE: the same figures from a benchpress run (FILE.json, FILE.cpu);
# tps, p50 and p99 nan when the run did not end ok (left out of the medians, and the
# summary says how many rounds were usable).
bp_line() {
	local cpu
	cpu=$(cut -d' ' -f1 "$1.cpu" 2>/dev/null || echo nan)
	jq -r --arg cpu "${cpu:-nan}" '(if .status == "ok" then [.summary.tps, .ops[0].latency_ms.p50, .ops[0].latency_ms.p99] else ["nan", "nan", "nan"] end) + [($cpu|tonumber? // "nan"), .extra.queries.total] | @tsv' "$1.json" 2>/dev/null ||
		printf 'nan\tnan\tnan\t%s\tnan\n' "${cpu:-nan}"
}

# Split topology (SPLIT=1): the server under test on the machine's last CPU,
# the client under measurement on the others, as if each had a machine of
# its own (a load machine apart from the database server, as users run
# them), instead of the two sharing every core. split_pin SERVER pins every
# thread of the server's processes: the one listening on its port and that
# process's children (PostgreSQL's postmaster and its backends; backends
# forked later inherit the postmaster's CPU). It sets CLIENT_PIN to the
# command prefix for the clients (taskset -c 0-N); split_unpin gives the
# server back the CPUs it had (the listening process's list before the
# pinning). Both are no-ops without SPLIT=1 or taskset, or on one CPU.
CLIENT_PIN= SPLIT_ROOT= SPLIT_CPUS=
split_pin() {
	[ "${SPLIT:-0}" = 1 ] && command -v taskset >/dev/null || return 0
	local n port
	n=$(nproc)
	[ "$n" -ge 2 ] || { echo "SPLIT=1 needs 2 CPUs or more: not split" >&2; return 0; }
	case $1 in mariadb) port=$MYSQL_PORT ;; postgres) port=$PG_PORT ;; esac
	SPLIT_ROOT=$(ss -Hltnp "sport = :$port" 2>/dev/null | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1)
	[ -n "$SPLIT_ROOT" ] || { echo "SPLIT=1 needs the server under test on this machine: no process here listens on port $port" >&2; return 1; }
	SPLIT_CPUS=$(taskset -pc "$SPLIT_ROOT" | sed 's/.*: *//')
	CLIENT_PIN="taskset -c 0-$((n - 2))"
	pin_tree "$SPLIT_ROOT" "$((n - 1))"
	echo "[$1] split: server pid $SPLIT_ROOT (and its children) on CPU $((n - 1)), clients on CPUs 0-$((n - 2))" >&2
}
split_unpin() {
	[ -n "$SPLIT_ROOT" ] || return 0
	pin_tree "$SPLIT_ROOT" "$SPLIT_CPUS"
	SPLIT_ROOT= CLIENT_PIN=
}

# pin_tree PID CPUS sets the CPU list of every thread of PID and of its
# children as they are now.
pin_tree() {
	local p
	for p in "$1" $(pgrep -P "$1" || true); do
		taskset -a -p -c "$2" "$p" >/dev/null 2>&1 || true
	done
}
