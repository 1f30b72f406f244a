#!/usr/bin/env bash
# bench/floor.sh — where the PostgreSQL client floor is: benchpress against a
# C client and a Go client that do the least a client can, on the same
# point selects, the four interleaved.
#
# cfloor (bench/floor/cfloor.c) and gofloor (bench/floor/gofloor) send the
# same bytes per round trip (Bind/Execute/Sync on four prepared statements,
# sysbench's oltp_point_select: a uniform table, the id from sysbench's
# default "special" distribution as sysbench and benchpress draw it; until
# 2026-11-26 the floor clients drew ids uniformly) with a blocking
# write and read on plain TCP, nothing else: no histogram, no runner, no
# allocation. cfloor is C on pthreads; gofloor is Go with raw system calls
# on blocking sockets (as benchpress's sockio), GOMAXPROCS terminals+4 by
# default (GOFLOOR_FLAGS below for the other configurations). The
# script runs sysbench, cfloor, gofloor and benchpress (all without TLS)
# ROUNDS times per ladder step, rotating the order every round, and prints
# per step the medians of TPS, p50, p99 and client CPU per query (user+sys
# of the process, getrusage) and every tool's ratios to cfloor: sysbench
# against cfloor shows the C floor is sysbench's; gofloor against cfloor is
# what the Go runtime costs; benchpress against gofloor is benchpress's own
# cost.
#
# Usage: bench/floor.sh
# Environment (defaults): LADDER ("2 8") ROUNDS (4) TIME (6) DB (bp_sbvs,
#   4 x 100000 rows, prepared by sysbench if missing)
#   PG_HOST PG_PORT PG_USER PG_PASS (127.0.0.1 5432 bench bench)
#   GOFLOOR_FLAGS (e.g. "-yield 5ms": a P per session, yields as benchpress
#   does for PostgreSQL; "-lock": a thread per session) GOFLOOR_ENV (e.g.
#   "GOMAXPROCS=9")
#   OUT (/tmp/benchpress-floor): binaries, outputs, results.tsv.
# Installs sysbench, gcc and libpq-dev from Debian apt if missing.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -n "${1:-}" ] && { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
LADDER=${LADDER:-"2 8"} ROUNDS=${ROUNDS:-4} TIME=${TIME:-6} DB=${DB:-bp_sbvs}
PG_HOST=${PG_HOST:-127.0.0.1} PG_PORT=${PG_PORT:-5432} PG_USER=${PG_USER:-bench} PG_PASS=${PG_PASS:-bench}
GOFLOOR_FLAGS=${GOFLOOR_FLAGS:-} GOFLOOR_ENV=${GOFLOOR_ENV:-}
OUT=${OUT:-${TMPDIR:-/tmp}/benchpress-floor}
mkdir -p "$OUT"
export PGPASSWORD=$PG_PASS PGSSLMODE=disable
# shellcheck source=bench/lib.sh
. bench/lib.sh
need_sysbench
if ! command -v gcc >/dev/null || [ ! -e /usr/include/postgresql/libpq-fe.h ]; then
	# shellcheck source=scripts/lib/apt.sh
	. scripts/lib/apt.sh
	apt_install gcc libpq-dev
fi
gcc -O2 -Wall -o "$OUT/cfloor" bench/floor/cfloor.c -I/usr/include/postgresql -lpq -lpthread
go build -o "$OUT/gofloor" ./bench/floor/gofloor
build_benchpress "$OUT/benchpress"

create_db postgres "$DB"
if ! pg_sql "$DB" -tAc "SELECT count(*) FROM sbtest4" 2>/dev/null | grep -qx 100000; then
	echo "sysbench prepare: 4 x 100000 rows ..." >&2
	# shellcheck disable=SC2046
	sysbench oltp_common $(sb_args postgres "$DB") --tables=4 --table-size=100000 cleanup >/dev/null 2>&1 || true
	# shellcheck disable=SC2046
	sysbench oltp_common $(sb_args postgres "$DB") --tables=4 --table-size=100000 --threads=4 prepare >"$OUT/prepare.log" 2>&1
fi
conninfo="host=$PG_HOST port=$PG_PORT user=$PG_USER password=$PG_PASS dbname=$DB sslmode=disable"
url="postgres://$PG_USER:$PG_PASS@$PG_HOST:$PG_PORT/$DB?sslmode=disable"

# run TOOL THREADS FILE: one measured run; prints "tps p50_ms p99_ms cpu_s
# queries" (tab-separated, as bench/lib.sh's sb_line and bp_line).
run() {
	local f=$3
	case $1 in
	sysbench)
		# shellcheck disable=SC2046
		measure "$f" sysbench oltp_point_select $(sb_args postgres "$DB") --tables=4 --table-size=100000 \
			--threads="$2" --time="$TIME" --report-interval=0 --histogram=on run || true
		sb_line "$f" "$TIME"
		;;
	cfloor | gofloor)
		if [ "$1" = cfloor ]; then
			measure "$f" "$OUT/cfloor" "$conninfo" "$2" "$TIME" || true
		else
			# shellcheck disable=SC2086
			measure "$f" env $GOFLOOR_ENV "$OUT/gofloor" $GOFLOOR_FLAGS "$url" "$2" "$TIME" || true
		fi
		python3 - "$f" "$TIME" <<'PY2'
import sys
f, secs = sys.argv[1], float(sys.argv[2])
try:
    d = dict(kv.split("=") for kv in open(f + ".out").read().split())
    cpu = float(open(f + ".cpu").read().split()[0])
    print("%s\t%s\t%s\t%.3f\t%.0f" % (d["tps"], d["p50"], d["p99"], cpu, float(d["tps"]) * secs))
except (OSError, KeyError, ValueError):
    print("nan\tnan\tnan\tnan\tnan")
PY2
		;;
	benchpress)
		rm -f "$f.json"
		measure "$f" "$OUT/benchpress" sysbench run oltp_point_select --target "$url" --tables 4 --table-size 100000 \
			--threads "$2" --time "$TIME" --report-interval 0 --json "$f.json" || true
		bp_line "$f"
		;;
	esac
}

tools=(sysbench cfloor gofloor benchpress)
printf 'threads\tround\ttool\ttps\tp50_ms\tp99_ms\tcpu_s\tqueries\n' >"$OUT/results.tsv"
echo "# client floor, PostgreSQL oltp_point_select without TLS; machine: $(machine_type); $(date -u +%Y-%m-%dT%H:%MZ); ${TIME}s x $ROUNDS rounds; gofloor: ${GOFLOOR_ENV:-} ${GOFLOOR_FLAGS:-default}"
for th in $LADDER; do
	for round in $(seq 1 "$ROUNDS"); do
		for k in 0 1 2 3; do
			tool=${tools[$(((k + round - 1) % 4))]}
			f=$OUT/$th-$round-$tool
			echo "[floor] $th threads, round $round: $tool ..." >&2
			settle postgres "$DB"
			printf '%s\t%s\t%s\t%s\n' "$th" "$round" "$tool" "$(run "$tool" "$th" "$f")" >>"$OUT/results.tsv"
		done
	done
done
python3 - "$OUT/results.tsv" <<'PY'
import collections, statistics as st, sys
d = collections.defaultdict(list)
for l in list(open(sys.argv[1]))[1:]:
    th, _, tool, tps, p50, p99, cpu, q = l.split("\t")
    d[(int(th), tool)].append((float(tps), float(p50), float(p99), float(cpu) / max(float(q), 1) * 1e6))
print("threads  tool        TPS      p50 ms  p99 ms  CPU us/query   TPS/cfloor  p99/cfloor  CPU/cfloor")
for th in sorted({k[0] for k in d}):
    med = {t: [st.median([x[i] for x in v if x[i] == x[i]] or [float("nan")]) for i in range(4)] for (n, t), v in d.items() if n == th}
    c = med.get("cfloor")
    for t in ("sysbench", "cfloor", "gofloor", "benchpress"):
        if t not in med: continue
        m = med[t]
        r = "  %10.2f  %10.2f  %10.2f" % (m[0] / c[0], m[2] / c[2], m[3] / c[3]) if c else ""
        print("%7d  %-10s %8.0f  %6.3f  %6.3f  %12.1f%s" % (th, t, m[0], m[1], m[2], m[3], r))
PY
