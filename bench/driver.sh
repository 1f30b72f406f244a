#!/usr/bin/env bash
# bench/driver.sh — is the load generator ever the bottleneck?
#
# For MariaDB and PostgreSQL (WAREHOUSES TPC-C warehouses in $TPCC_DB, made by
# the script when missing), at every step of LADDER (terminals = threads):
#   1. benchpress tpcc run, STEP terminals for DURATION: client CPU per TPC-C
#      transaction (JSON driver.cpu_per_txn_us);
#   2. sysbench oltp_point_select, STEP threads for SB_TIME on its own tables
#      (database $SB_DB, SB_TABLES x SB_SIZE rows): client CPU per query
#      (getrusage of the process);
#   3. benchpress sysbench run oltp_point_select on the same tables, same
#      threads and time: client CPU per query;
# 1-3 interleaved over ROUNDS rounds (A/B/C/A/B/C: drift hits every tool),
# the server settled before each TPC-C run and before each point-select pair
# (bench/lib.sh settle: PostgreSQL VACUUM + CHECKPOINT, MariaDB waits for
# InnoDB's purge; the previous TPC-C run's writes otherwise land in the next
# run's figures; SETTLE=0 turns it off),
# then per step the medians and the ratios (3 rounds by default: one
# disturbed round does not move a median of three, and two rounds' median
# is their mean)
#   (benchpress CPU per TPC-C txn) / (sysbench CPU per query), target <= 24
#      (go-tpc is not on the Go module proxy; sysbench's query is the yardstick)
#   (benchpress CPU per point select) / (sysbench's), target <= 1.0
# and every round's ratios to show the noise, with the round's TPC-C CPU per
# transaction and the hypervisor's steal (the host's speed moves the TPC-C
# figure by up to 2x within half an hour, docs/benchmarks.md 2026-11-26 (15:00));
#   4. a BIG-terminal TPC-C run (default 2048, 5 s warm-up): start time,
#      peak RSS, the GC's share of the driver's CPU (driver.gc_cpu_pct),
#      connection errors (targets: start <= 10 s, RSS <= 256 MB, GC <= 5 %,
#      0 errors). On PostgreSQL the start is judged against a C peer instead
#      of the 10 s: pgbench (libpq, the server's own package) opening the same
#      number of connections, 64 threads connecting at once as benchpress
#      does, once before and once after benchpress's run; its "initial
#      connection time" (connections only) against benchpress's connect_s
#      (connections, prepared statements and terminals), target <= 1.0. The
#      server forks a backend per connection and its TLS handshake and start
#      take most of the two cores (docs/benchmarks.md 2026-11-27 (05:00)):
#      an absolute limit measures the host.
# The summary starts with the machine type (lscpu) and server versions.
#
# Installs sysbench from Debian apt if missing; builds benchpress into $OUT.
# Environment: LADDER ("1 2 8 32 128") DURATION (20s) SB_TIME (10) ROUNDS (3)
#   SB_TABLES (4) SB_SIZE (100000) SB_DB (sbtest) TPCC_DB (bp) WAREHOUSES (4)
#   BIG (2048) BIG_DURATION (20s) SERVERS ("mariadb postgres") SETTLE (1)
#   MYSQL_HOST MYSQL_PORT MYSQL_USER MYSQL_PASS (127.0.0.1 3306 bench bench)
#   PG_HOST PG_PORT PG_USER PG_PASS             (127.0.0.1 5432 bench bench)
#   OUT (/tmp/benchpress-driver)
set -euo pipefail
cd "$(dirname "$0")/.."

LADDER=${LADDER:-"1 2 8 32 128"} DURATION=${DURATION:-20s} SB_TIME=${SB_TIME:-10}
SB_TABLES=${SB_TABLES:-4} SB_SIZE=${SB_SIZE:-100000} SB_DB=${SB_DB:-sbtest} TPCC_DB=${TPCC_DB:-bp}
WAREHOUSES=${WAREHOUSES:-4} BIG=${BIG:-2048} BIG_DURATION=${BIG_DURATION:-20s} ROUNDS=${ROUNDS:-3}
MYSQL_HOST=${MYSQL_HOST:-127.0.0.1} MYSQL_PORT=${MYSQL_PORT:-3306} MYSQL_USER=${MYSQL_USER:-bench} MYSQL_PASS=${MYSQL_PASS:-bench}
PG_HOST=${PG_HOST:-127.0.0.1} PG_PORT=${PG_PORT:-5432} PG_USER=${PG_USER:-bench} PG_PASS=${PG_PASS:-bench}
SERVERS=${SERVERS:-"mariadb postgres"}
OUT=${OUT:-${TMPDIR:-/tmp}/benchpress-driver}
BIN=$OUT/benchpress
mkdir -p "$OUT"
export MYSQL_PWD=$MYSQL_PASS PGPASSWORD=$PG_PASS

# shellcheck source=bench/lib.sh
. bench/lib.sh
need_sysbench
build_benchpress "$BIN"

# pg_connect_peer N DB: pgbench's initial connection time in seconds for N
# connections to DB (64 connecting threads, libpq's default sslmode as
# benchpress's URL), or nan without pgbench.
pg_connect_peer() {
	local pgbench
	pgbench=$(command -v pgbench || ls /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | tail -1 || true)
	[ -x "$pgbench" ] || { echo nan; return; }
	local jobs=64
	[ "$1" -lt "$jobs" ] && jobs=$1
	echo 'SELECT 1;' >"$OUT/pg-connect.sql"
	PGPASSWORD=$PG_PASS "$pgbench" -h "$PG_HOST" -p "$PG_PORT" -U "$PG_USER" -n -c "$1" -j "$jobs" -t 1 \
		-f "$OUT/pg-connect.sql" "$2" >"$OUT/pg-connect.out" 2>&1 || true
	sed -n 's/^initial connection time = \([0-9.]*\) ms.*/\1/p' "$OUT/pg-connect.out" |
		python3 -c "import sys; v=sys.stdin.read().split(); print('%.3f' % (float(v[0])/1000) if v else 'nan')"
}

calc() { python3 -c "import sys; print('%.${1}f' % eval(sys.argv[1]))" "$2" 2>/dev/null || echo nan; }
verdict() { python3 -c "import sys; v,op,t=sys.argv[1],sys.argv[2],float(sys.argv[3]); v=float(v) if v!='nan' else float('nan'); print('OK' if (v<=t if op=='<=' else v>=t) else 'MISSED')" "$@"; }

SUMMARY=$OUT/summary.txt
echo "# machine: $(machine_type); $(date -u +%Y-%m-%dT%H:%MZ); ladder $LADDER; $ROUNDS interleaved rounds; TPC-C $DURATION, $WAREHOUSES wh; point selects ${SB_TIME}s on $SB_TABLES x $SB_SIZE rows" | tee "$SUMMARY"
median() { python3 -c "import statistics,sys; v=[float(x) for x in sys.argv[1:] if x!='nan']; print('%.2f' % statistics.median(v) if v else 'nan')" "$@"; }
for srv in $SERVERS; do
	f=$OUT/$srv
	echo "== $srv: $(server_version "$srv")" | tee -a "$SUMMARY"
	create_db "$srv" "$SB_DB"
	# shellcheck disable=SC2046
	if ! sysbench oltp_point_select $(sb_args "$srv" "$SB_DB") --tables="$SB_TABLES" --table-size="$SB_SIZE" --threads=1 --time=1 run >/dev/null 2>&1; then
		echo "[$srv] sysbench prepare: $SB_TABLES x $SB_SIZE rows in $SB_DB ..." >&2
		# shellcheck disable=SC2046
		sysbench oltp_common $(sb_args "$srv" "$SB_DB") --tables="$SB_TABLES" --table-size="$SB_SIZE" cleanup >/dev/null 2>&1 || true
		# shellcheck disable=SC2046
		sysbench oltp_common $(sb_args "$srv" "$SB_DB") --tables="$SB_TABLES" --table-size="$SB_SIZE" --threads="$SB_TABLES" prepare >"$f-sb-prepare.log" 2>&1
	fi
	tpcc_url=$(bp_url "$srv" "$TPCC_DB")
	# The TPC-C data set: a one-second run tells whether WAREHOUSES are
	# prepared in TPCC_DB (a fresh machine has none: every TPC-C figure
	# would be nan); if not, it is made here.
	if ! "$BIN" tpcc run --target "$tpcc_url" --warehouses "$WAREHOUSES" --terminals 1 \
		--duration 1s --report-interval 0 --no-watch >"$f-tpcc-probe.out" 2>&1; then
		echo "[$srv] benchpress tpcc prepare: $WAREHOUSES warehouses in $TPCC_DB ($(tail -n 1 "$f-tpcc-probe.out")) ..." >&2
		create_db "$srv" "$TPCC_DB"
		"$BIN" tpcc cleanup --target "$tpcc_url" >/dev/null 2>&1 || true
		"$BIN" tpcc prepare --target "$tpcc_url" --warehouses "$WAREHOUSES" >"$f-tpcc-prepare.log" 2>&1
	fi
	echo "  step | TPC-C us/txn | sysbench us/query | benchpress us/query | txn/query (<= 24) | query/query (<= 1.0) | per round txn/query,query/query(TPC-C us per txn,steal s)" | tee -a "$SUMMARY"
	for step in $LADDER; do
		txn_us_all=() q_us_all=() bq_us_all=() rounds_txt=
		for round in $(seq 1 "$ROUNDS"); do
			settle "$srv" "$TPCC_DB"
			echo "[$srv] $step, round $round: benchpress tpcc run, $DURATION ..." >&2
			rm -f "$f-tpcc.json"
			measure "$f-tpcc" "$BIN" tpcc run --target "$tpcc_url" --warehouses "$WAREHOUSES" \
				--terminals "$step" --warmup 5s --duration "$DURATION" --report-interval 0 --json "$f-tpcc.json" || true
			txn_us_all+=("$(jq -r '.driver.cpu_per_txn_us // "nan"' "$f-tpcc.json" 2>/dev/null || echo nan)")
			# The two point-select runs alternate their order by round
			# (A/B, B/A): neither always comes straight after TPC-C; the
			# TPC-C database is settled too (PostgreSQL: its dead rows
			# vacuumed now, not by autovacuum during the next runs).
			settle "$srv" "$TPCC_DB"
			order="sysbench benchpress"
			[ $((round % 2)) = 0 ] && order="benchpress sysbench"
			for tool in $order; do
				settle "$srv" "$SB_DB"
				if [ "$tool" = sysbench ]; then
					echo "[$srv] $step, round $round: sysbench oltp_point_select, ${SB_TIME}s ..." >&2
					# shellcheck disable=SC2046
					measure "$f-sysbench" sysbench oltp_point_select $(sb_args "$srv" "$SB_DB") --tables="$SB_TABLES" --table-size="$SB_SIZE" \
						--threads="$step" --time="$SB_TIME" --report-interval=0 run || true
				else
					echo "[$srv] $step, round $round: benchpress sysbench run oltp_point_select, ${SB_TIME}s ..." >&2
					rm -f "$f-bpsb.json"
					measure "$f-bpsb" "$BIN" sysbench run oltp_point_select --target "$(bp_url "$srv" "$SB_DB")" \
						--tables "$SB_TABLES" --table-size "$SB_SIZE" --threads "$step" --time "$SB_TIME" --report-interval 0 --json "$f-bpsb.json" || true
				fi
			done
			sb_q=$(sed -n 's/^ *queries: *\([0-9]*\) .*/\1/p' "$f-sysbench.out")
			q_us_all+=("$(calc 2 "$(cut -d' ' -f1 "$f-sysbench.cpu")/${sb_q:-0}*1e6")")
			bp_q=$(jq -r '.extra.queries.total // empty' "$f-bpsb.json" 2>/dev/null || true)
			bq_us_all+=("$(calc 2 "$(cut -d' ' -f1 "$f-bpsb.cpu")/${bp_q:-0}*1e6")")
			# the round's ratios, then its TPC-C us per transaction and the
			# hypervisor's steal over the three runs (s): a slow quarter hour
			# of the host shows here rather than only in the ratio
			steal=$(calc 2 "$(steal_of "$f-tpcc")+$(steal_of "$f-sysbench")+$(steal_of "$f-bpsb")")
			rounds_txt="$rounds_txt $(calc 1 "${txn_us_all[-1]}/${q_us_all[-1]}"),$(calc 2 "${bq_us_all[-1]}/${q_us_all[-1]}")($(calc 0 "${txn_us_all[-1]}")us,st$steal)"
		done
		txn_us=$(median "${txn_us_all[@]}") sb_q_us=$(median "${q_us_all[@]}") bp_q_us=$(median "${bq_us_all[@]}")
		# Judged unrounded (1.004 is not 1.00), printed rounded.
		raw_txn=$(calc 6 "$txn_us/$sb_q_us") raw_q=$(calc 6 "$bp_q_us/$sb_q_us")
		r_txn=$(calc 1 "$raw_txn") r_q=$(calc 3 "$raw_q")
		printf '  %4s | %12s | %17s | %19s | %17s | %20s |%s\n' "$step" "$(calc 0 "$txn_us")" "$sb_q_us" "$bp_q_us" \
			"$r_txn $(verdict "$raw_txn" '<=' 24)" "$r_q $(verdict "$raw_q" '<=' 1.0)" "$rounds_txt" | tee -a "$SUMMARY"
	done

	settle "$srv" "$TPCC_DB"
	peer_a=nan peer_b=nan
	if [ "$srv" = postgres ]; then
		echo "[$srv] pgbench: $BIG connections ..." >&2
		peer_a=$(pg_connect_peer "$BIG" "$TPCC_DB")
		settle "$srv" "$TPCC_DB"
	fi
	echo "[$srv] benchpress tpcc run: $BIG terminals, $BIG_DURATION ..." >&2
	rm -f "$f-big.json"
	rc=0
	measure "$f-big" "$BIN" tpcc run --target "$tpcc_url" --warehouses "$WAREHOUSES" \
		--terminals "$BIG" --warmup 5s --duration "$BIG_DURATION" --report-interval 0 --json "$f-big.json" || rc=$?
	read -r _ big_rss _ <"$f-big.cpu"
	if [ -s "$f-big.json" ]; then
		# connect_s: opening every session and making every terminal, before
		# the warm-up starts (the run's own measurement).
		start_s=$(jq -r '.connect_s // "nan"' "$f-big.json")
		conn_errs=$(jq -r '[(.errors_by_class // {}) | to_entries[] | select(.key|test("connect|lost"))| .value] | add // 0' "$f-big.json" 2>/dev/null || echo "?")
		conn_errs="$conn_errs (reconnects $(jq -r .reconnects "$f-big.json"), all errors $(jq -r .summary.errors "$f-big.json"))"
		json_rss=$(jq -r .driver.peak_rss_mb "$f-big.json")
		gc_pct=$(jq -r '.driver.gc_cpu_pct // "nan"' "$f-big.json")
		gc_cycles=$(jq -r '.driver.gc_cycles // "?"' "$f-big.json")
	else
		start_s=nan conn_errs="run failed (rc $rc): $(grep -m1 -i 'error\|fail' "$f-big.out" || true)" json_rss=nan gc_pct=nan
	fi
	if [ "$srv" = postgres ]; then
		settle "$srv" "$TPCC_DB"
		echo "[$srv] pgbench: $BIG connections ..." >&2
		peer_b=$(pg_connect_peer "$BIG" "$TPCC_DB")
	fi
	peer=$(median "$peer_a" "$peer_b")
	if [ "$peer" != nan ]; then
		r_start=$(calc 2 "$start_s/$peer")
		start_txt="start ${start_s} s (pgbench's $BIG connections $peer_a and $peer_b s, ratio $r_start; target <= 1.0: $(verdict "$r_start" '<=' 1.0))"
	else
		start_txt="start ${start_s} s (target <= 10: $(verdict "$start_s" '<=' 10))"
	fi
	{
		echo "  $BIG terminals: $start_txt, peak RSS $(calc 0 "$big_rss") MB (driver report $(calc 0 "$json_rss") MB; target <= 256: $(verdict "$big_rss" '<=' 256)), GC $(calc 1 "$gc_pct") % of the driver's CPU over $gc_cycles cycle(s) in the window (target <= 5: $(verdict "$gc_pct" '<=' 5)), connection errors: $conn_errs"
	} | tee -a "$SUMMARY"
done
if [ "${SETTLE:-1}" = 0 ]; then
	echo "# runs not settled (SETTLE=0)" | tee -a "$SUMMARY"
else
	echo "# before every TPC-C run and point-select pair: PostgreSQL VACUUM + CHECKPOINT, MariaDB purge caught up${SETTLE_NOTE:+ ($SETTLE_NOTE)}" | tee -a "$SUMMARY"
fi
echo "outputs in $OUT/, summary in $SUMMARY" >&2
