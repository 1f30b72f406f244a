#!/usr/bin/env bash
# bench/sysbench-vs.sh — benchpress against sysbench 1.0.20 on the same tables,
# over a ladder of thread counts, the two tools interleaved.
#
# For every server (MariaDB, PostgreSQL), test (oltp_point_select,
# oltp_read_write) and ladder step (1 2 8 32 128 threads), the script runs
# ROUNDS rounds of both tools, alternating which goes first from round to
# round and, for each step's first round, from step to step (A/B, B/A: both
# tools see the same drift of a shared machine and of the server's state),
# TIME seconds each, on the same tables
# (TABLES x SIZE rows, prepared once by sysbench). Per run it reads TPS, p50
# and p99 latency (sysbench: from its --histogram; benchpress: --json) and the
# client's CPU (user+sys of the process, getrusage). Per step it prints the
# medians over the rounds, the ratios benchpress/sysbench of the medians, the
# spread of the per-round TPS ratios, sysbench's own p99 spread over its
# rounds (max/min: how far the machine moves a p99 between runs of the
# same tool, the floor under any p99 ratio), and a verdict against the
# targets:
#   TPS ratio  >= 0.95        p99 ratio  <= 1.1
# Both tools' TPS are the transactions over the run's TIME (sysbench's own
# figure divides by its longer total time). A step that misses is tested
# against the scatter of its rounds (one-sided exact paired permutation
# test of the rounds' ratios, bench/vs_summary.py): MISS when the rounds
# show it (p <= 0.05; never with fewer than 5 rounds), miss? with the
# p-value when they cannot tell it from noise.
# A run during which the hypervisor took more than STEAL_MAX CPU seconds
# from the machine (/proc/stat steal; each such stall stops a terminal or a
# server process mid-transaction, and shows in the maxima and in a saturated
# step's p99 for whichever tool it hits) is run again, at most RERUNS times;
# results.tsv keeps the last run's steal_s, reruns.tsv every discarded run.
# Before every run the server is settled (bench/lib.sh settle: PostgreSQL
# VACUUM + CHECKPOINT, MariaDB waits for InnoDB's purge), so each run starts
# from the same server state; SETTLE=0 turns that off.
# The client CPU per query (benchpress/sysbench) is printed as the yardstick
# bench/driver.sh uses, and each tool's median spread of the events per
# thread (stddev/mean, %: sysbench's "threads fairness" line, benchpress's
# terminals.stddev_pct; results.tsv spread_pct): how evenly the threads were
# served. The header records the machine (lscpu model name,
# cores) and the server versions: quote them next to any figure.
#
# Usage: bench/sysbench-vs.sh [--quick]
#   --quick   ladder "2 8", ROUNDS 2, TIME 5, TABLES 2, SIZE 10000 (about 3 minutes)
# Environment (defaults): LADDER ("1 2 8 32 128") ROUNDS (6; fewer than 5 can show no miss beyond the noise) TIME (10)
#   TABLES (4) SIZE (100000) DB (bp_sbvs)
#   SERVERS ("mariadb postgres") TESTS ("oltp_point_select oltp_read_write")
#   MYSQL_HOST MYSQL_PORT MYSQL_USER MYSQL_PASS (127.0.0.1 3306 bench bench)
#   PG_HOST PG_PORT PG_USER PG_PASS             (127.0.0.1 5432 bench bench)
#   SETTLE (1; 0 = no settling between runs)
#   SPLIT (0; 1 = the server under test pinned to the last CPU and both
#          clients to the others (taskset), as if the load machine were
#          apart from the database server; bench/lib.sh split_pin)
#   STEAL_MAX (0.05 s, about 0.25 % of a 10 s run on 2 cores) RERUNS (2)
#   CONTROL (0; 1 = an A/A run: sysbench against itself, the second tool's
#            column a second sysbench run labelled "control": how many
#            steps a tool at exact parity misses on this machine, the noise
#            floor under the verdicts)
#   BP_FLAGS (extra flags for benchpress sysbench run)
#   BP_ENV   (environment for benchpress, e.g. "GOMAXPROCS=8" to compare with
#            the runtime's default of one P per CPU)
#   OUT (/tmp/benchpress-sysbench-vs): the binary, every tool's output,
#   results.tsv (one line per run) and summary.txt.
# Idempotent: the database is created if missing and the tables re-prepared.
# Installs sysbench from Debian apt if missing and builds benchpress.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = --quick ]; then
	LADDER=${LADDER:-"2 8"} ROUNDS=${ROUNDS:-2} TIME=${TIME:-5} TABLES=${TABLES:-2} SIZE=${SIZE:-10000}
elif [ -n "${1:-}" ]; then
	sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
fi
LADDER=${LADDER:-"1 2 8 32 128"} ROUNDS=${ROUNDS:-6} TIME=${TIME:-10}
TABLES=${TABLES:-4} SIZE=${SIZE:-100000} DB=${DB:-bp_sbvs}
MYSQL_HOST=${MYSQL_HOST:-127.0.0.1} MYSQL_PORT=${MYSQL_PORT:-3306} MYSQL_USER=${MYSQL_USER:-bench} MYSQL_PASS=${MYSQL_PASS:-bench}
PG_HOST=${PG_HOST:-127.0.0.1} PG_PORT=${PG_PORT:-5432} PG_USER=${PG_USER:-bench} PG_PASS=${PG_PASS:-bench}
SERVERS=${SERVERS:-"mariadb postgres"}
TESTS=${TESTS:-"oltp_point_select oltp_read_write"}
BP_FLAGS=${BP_FLAGS:-} BP_ENV=${BP_ENV:-}
STEAL_MAX=${STEAL_MAX:-0.05} RERUNS=${RERUNS:-2}
SECOND=benchpress
[ "${CONTROL:-0}" = 1 ] && SECOND=control

OUT=${OUT:-${TMPDIR:-/tmp}/benchpress-sysbench-vs}
BIN=$OUT/benchpress
mkdir -p "$OUT"
export MYSQL_PWD=$MYSQL_PASS PGPASSWORD=$PG_PASS

# shellcheck source=bench/lib.sh
. bench/lib.sh
trap split_unpin EXIT
need_sysbench
build_benchpress "$BIN"

RESULTS=$OUT/results.tsv SUMMARY=$OUT/summary.txt
printf 'server\ttest\tthreads\tround\ttool\ttps\tp50_ms\tp99_ms\tcpu_s\tqueries\tsteal_s\tspread_pct\n' >"$RESULTS"
printf 'server\ttest\tthreads\tround\ttool\tsteal_s\n' >"$OUT/reruns.tsv"
{
	echo "# benchpress vs sysbench $(sysbench --version | awk '{print $2}'), $(date -u +%Y-%m-%dT%H:%MZ)"
	echo "# machine: $(machine_type); benchpress env: ${BP_ENV:-default}, flags: ${BP_FLAGS:-none}; ladder: $LADDER; rounds: $ROUNDS; ${TIME}s per run; $TABLES x $SIZE rows, rand-type special"
	echo "# targets per step: TPS ratio benchpress/sysbench >= 0.95, p99 ratio <= 1.1 (medians over the rounds)"
	if [ "${SPLIT:-0}" = 1 ]; then
		echo "# SPLIT topology: the server under test on CPU $(($(nproc) - 1)), both clients on CPUs 0-$(($(nproc) - 2)) (taskset)"
	fi
	if [ "$SECOND" = control ]; then
		echo "# A/A CONTROL run: the bp columns are a second sysbench run, not benchpress"
	fi
} | tee "$SUMMARY"

# run_sysbench SERVER TEST THREADS FILE and run_benchpress ...: one measured
# run of a tool, its output in FILE-<tool>.*.
run_sysbench() {
	# shellcheck disable=SC2046,SC2086
	measure "$4-${5:-sysbench}" $CLIENT_PIN sysbench "$2" $(sb_args "$1" "$DB") --tables="$TABLES" --table-size="$SIZE" \
		--threads="$3" --time="$TIME" --report-interval=0 --histogram=on run || true
}
run_control() { run_sysbench "$@" control; }
run_benchpress() {
	rm -f "$4-benchpress.json"
	# shellcheck disable=SC2086
	measure "$4-benchpress" $CLIENT_PIN env $BP_ENV "$BIN" sysbench run "$2" --target "$(bp_url "$1" "$DB")" \
		--tables "$TABLES" --table-size "$SIZE" --threads "$3" --time "$TIME" --report-interval 0 \
		--json "$4-benchpress.json" $BP_FLAGS || true
}

for srv in $SERVERS; do
	create_db "$srv" "$DB"
	echo "# $srv: $(server_version "$srv")" | tee -a "$SUMMARY"
	# shellcheck disable=SC2046
	sysbench oltp_common $(sb_args "$srv" "$DB") --tables="$TABLES" --table-size="$SIZE" cleanup >/dev/null 2>&1 || true
	echo "[$srv] sysbench prepare: $TABLES x $SIZE rows ..." >&2
	# shellcheck disable=SC2046
	sysbench oltp_common $(sb_args "$srv" "$DB") --tables="$TABLES" --table-size="$SIZE" --threads="$TABLES" prepare >"$OUT/$srv-prepare.log" 2>&1
	split_pin "$srv"
	for test in $TESTS; do
		for th in $LADDER; do
			step=$((${step:-0} + 1))
			for round in $(seq 1 "$ROUNDS"); do
				# Rounds alternate which tool runs first (A/B, B/A, ...):
				# a drift of the shared machine or the server's state
				# (purge, vacuum, checkpoints after read_write) does not
				# favour the tool that always goes second; and steps
				# alternate which tool opens them, so that the first run
				# of a step (after a new thread count, after prepare) is
				# not always the same tool's.
				if [ $(((round + step) % 2)) = 0 ]; then
					tools="sysbench $SECOND"
				else
					tools="$SECOND sysbench"
				fi
				for tool in $tools; do
					f=$OUT/$srv-$test-$th-$round
					for try in $(seq 0 "$RERUNS"); do
						echo "[$srv] $test $th threads, round $round: $tool ..." >&2
						settle "$srv" "$DB"
						run_$tool "$srv" "$test" "$th" "$f"
						st=$(steal_of "$f-$tool")
						awk -v s="$st" -v m="$STEAL_MAX" 'BEGIN { exit !(s > m) }' && [ "$try" -lt "$RERUNS" ] || break
						echo "[$srv] the hypervisor took ${st} s of CPU time (> ${STEAL_MAX} s): run again" >&2
						printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$srv" "$test" "$th" "$round" "$tool" "$st" >>"$OUT/reruns.tsv"
					done
					line=sb_line
					[ "$tool" = benchpress ] && line=bp_line
					printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$srv" "$test" "$th" "$round" "$tool" "$($line "$f-$tool" "$TIME")" "$st" "$(spread_of "$f-$tool" "$tool")" >>"$RESULTS"
				done
			done
		done
	done
	split_unpin
done
if [ "${SETTLE:-1}" = 0 ]; then
	echo "# runs not settled (SETTLE=0)" | tee -a "$SUMMARY"
else
	echo "# before every run: PostgreSQL VACUUM + CHECKPOINT, MariaDB purge caught up${SETTLE_NOTE:+ ($SETTLE_NOTE)}" | tee -a "$SUMMARY"
fi
reruns=$(($(wc -l <"$OUT/reruns.tsv") - 1))
kept=$(awk -F'\t' -v m="$STEAL_MAX" 'NR > 1 && $11 > m' "$RESULTS" | wc -l)
echo "# steal (the hypervisor's share of the machine): $reruns run(s) run again after more than ${STEAL_MAX} s, $kept kept with more (no reruns left)" | tee -a "$SUMMARY"
python3 bench/vs_summary.py "$RESULTS" | tee -a "$SUMMARY"
echo "outputs in $OUT/, one line per run in $RESULTS, summary in $SUMMARY" >&2
