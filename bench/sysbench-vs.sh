#!/usr/bin/env bash
# bench/sysbench-vs.sh — benchpress against sysbench 1.0.20 on the same tables.
#
# For MariaDB and PostgreSQL: sysbench prepares TABLES x SIZE rows once in a
# dedicated database (default bp_sbvs), then each test runs THREADS threads for
# TIME seconds, first with sysbench, then with benchpress. The script reads each
# tool's TPS/QPS from its own output (benchpress: --json) and its client CPU
# (user+sys of the process, from getrusage), and prints per server and test:
#   TPS ratio benchpress/sysbench           target >= 0.95
#   CPU per query ratio benchpress/sysbench target <= 1.0 (oltp_point_select)
#
# Idempotent: the database is created if missing and the tables are re-prepared
# on every invocation. Installs sysbench from Debian apt if missing and builds
# benchpress into $OUT (default /tmp/benchpress-sysbench-vs/),
# where the tools' outputs and summary.txt go too.
#
# Environment: THREADS (8) TIME (30) TABLES (4) SIZE (100000) DB (bp_sbvs)
#   MYSQL_HOST MYSQL_PORT MYSQL_USER MYSQL_PASS (127.0.0.1 3306 bench bench)
#   PG_HOST PG_PORT PG_USER PG_PASS             (127.0.0.1 5432 bench bench)
#   OUT (/tmp/benchpress-sysbench-vs)
#   SERVERS ("mariadb postgres") TESTS ("oltp_point_select oltp_read_write")
set -euo pipefail
cd "$(dirname "$0")/.."

THREADS=${THREADS:-8} TIME=${TIME:-30} TABLES=${TABLES:-4} SIZE=${SIZE:-100000} DB=${DB:-bp_sbvs}
MYSQL_HOST=${MYSQL_HOST:-127.0.0.1} MYSQL_PORT=${MYSQL_PORT:-3306} MYSQL_USER=${MYSQL_USER:-bench} MYSQL_PASS=${MYSQL_PASS:-bench}
PG_HOST=${PG_HOST:-127.0.0.1} PG_PORT=${PG_PORT:-5432} PG_USER=${PG_USER:-bench} PG_PASS=${PG_PASS:-bench}
SERVERS=${SERVERS:-"mariadb postgres"}
TESTS=${TESTS:-"oltp_point_select oltp_read_write"}

OUT=${OUT:-${TMPDIR:-/tmp}/benchpress-sysbench-vs}
BIN=$OUT/benchpress
mkdir -p "$OUT"

# shellcheck source=bench/lib.sh
. bench/lib.sh
need_sysbench
build_benchpress "$BIN"

ratio() { python3 -c "import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print('%.3f' % (a/b if b else float('nan')))" "$1" "$2"; }
verdict() { python3 -c "import sys; v,op,t=float(sys.argv[1]),sys.argv[2],float(sys.argv[3]); print('OK' if (v>=t if op=='>=' else v<=t) else 'BELOW TARGET')" "$@"; }

SUMMARY=$OUT/summary.txt
: >"$SUMMARY"
for srv in $SERVERS; do
	create_db "$srv" "$DB"
	# shellcheck disable=SC2046
	sysbench oltp_common $(sb_args "$srv" "$DB") --tables="$TABLES" --table-size="$SIZE" cleanup >/dev/null 2>&1 || true
	echo "[$srv] sysbench prepare: $TABLES x $SIZE rows ..." >&2
	# shellcheck disable=SC2046
	sysbench oltp_common $(sb_args "$srv" "$DB") --tables="$TABLES" --table-size="$SIZE" --threads="$TABLES" prepare >"$OUT/$srv-prepare.log" 2>&1
	for test in $TESTS; do
		f=$OUT/$srv-$test
		echo "[$srv] $test: sysbench, $THREADS threads, ${TIME}s ..." >&2
		# shellcheck disable=SC2046
		measure "$f-sysbench" sysbench "$test" $(sb_args "$srv" "$DB") --tables="$TABLES" --table-size="$SIZE" \
			--threads="$THREADS" --time="$TIME" --report-interval=0 run
		sb_tps=$(sed -n 's/.*transactions: *[0-9]* *(\([0-9.]*\) per sec.*/\1/p' "$f-sysbench.out")
		sb_qps=$(sed -n 's/.*queries: *[0-9]* *(\([0-9.]*\) per sec.*/\1/p' "$f-sysbench.out")
		sb_q=$(sed -n 's/^ *queries: *\([0-9]*\) .*/\1/p' "$f-sysbench.out")
		sb_cpu=$(cut -d' ' -f1 "$f-sysbench.cpu")

		echo "[$srv] $test: benchpress, $THREADS threads, ${TIME}s ..." >&2
		rm -f "$f-benchpress.json"
		PGPASSWORD=$PG_PASS MYSQL_PWD=$MYSQL_PASS measure "$f-benchpress" "$BIN" sysbench run "$test" --target "$(bp_url "$srv" "$DB")" \
			--tables "$TABLES" --table-size "$SIZE" --threads "$THREADS" --time "$TIME" --report-interval 0 --json "$f-benchpress.json"
		bp_tps=$(jq -r .summary.tps "$f-benchpress.json")
		bp_qps=$(jq -r .summary.qps "$f-benchpress.json")
		bp_q=$(jq -r .extra.queries.total "$f-benchpress.json")
		bp_cpu=$(cut -d' ' -f1 "$f-benchpress.cpu")

		tps_r=$(ratio "$bp_tps" "$sb_tps")
		cpuq_r=$(python3 -c "import sys; bc,bq,sc,sq=map(float,sys.argv[1:]); print('%.3f' % ((bc/bq)/(sc/sq)))" "$bp_cpu" "$bp_q" "$sb_cpu" "$sb_q")
		cpuq_us() { python3 -c "import sys; print('%.1f' % (float(sys.argv[1])/float(sys.argv[2])*1e6))" "$1" "$2"; }
		{
			echo "== $srv $test ($THREADS threads, ${TIME}s, $TABLES x $SIZE rows, rand-type special)"
			printf '  sysbench   tps %10.2f  qps %10.2f  client CPU %7.2f s  %6s us/query\n' "$sb_tps" "$sb_qps" "$sb_cpu" "$(cpuq_us "$sb_cpu" "$sb_q")"
			printf '  benchpress tps %10.2f  qps %10.2f  client CPU %7.2f s  %6s us/query\n' "$bp_tps" "$bp_qps" "$bp_cpu" "$(cpuq_us "$bp_cpu" "$bp_q")"
			echo "  TPS ratio benchpress/sysbench:          $tps_r  (target >= 0.95: $(verdict "$tps_r" '>=' 0.95))"
			if [ "$test" = oltp_point_select ]; then
				echo "  CPU/query ratio benchpress/sysbench:    $cpuq_r  (target <= 1.0: $(verdict "$cpuq_r" '<=' 1.0))"
			else
				echo "  CPU/query ratio benchpress/sysbench:    $cpuq_r"
			fi
		} | tee -a "$SUMMARY"
	done
done
echo "outputs in $OUT/, summary in $SUMMARY" >&2
