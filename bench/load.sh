#!/usr/bin/env bash
# bench/load.sh — how close is `benchpress tpcc prepare` to the servers' own
# ingest speed?
#
# For MariaDB and PostgreSQL: load W warehouses (default 4) into an empty
# database with benchpress (--threads 2) and time it; then write the same
# data as CSV (tpcc prepare --output csv, the encoder of the bulk path) and time the
# stock clients loading those files with the same parallelism (2 streams:
# `mariadb --local-infile=1 -e "LOAD DATA LOCAL INFILE ..."`, psql `\copy`)
# into the same empty schema without secondary indexes. Prints per server
# benchpress s/warehouse (total and row load only), ingest-limit
# s/warehouse, their ratio (target <= 1.15), and the generator's CPU-s per
# warehouse measured by bench/gencsv -discard (target <= 0.45).
#
# Usage: bench/load.sh [warehouses]
#   MYSQL_URL (default mysql://bench:bench@127.0.0.1:3306), PG_URL
#   (default postgres://bench:bench@127.0.0.1:5432), DB (default bp_bench_load).
set -euo pipefail
cd "$(dirname "$0")/.."
W=${1:-4}
DB=${DB:-bp_bench_load}
MYSQL_URL=${MYSQL_URL:-mysql://bench:bench@127.0.0.1:3306}
PG_URL=${PG_URL:-postgres://bench:bench@127.0.0.1:5432}
WORK=$(mktemp -d /tmp/bp-loadbench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
BIN=$WORK/benchpress
go build -o "$BIN" ./cmd/benchpress
go build -o "$WORK/gencsv" ./bench/gencsv

# url -> user password host port
parse() { # $1 url
	local rest=${1#*://}
	local cred=${rest%@*} hp=${rest#*@}
	U=${cred%%:*} P=${cred#*:} H=${hp%:*} PORT=${hp##*:}
}
now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.2f\", $* }"; }

TABLES="item warehouse stock district customer history orders new_order order_line"

# run_streams CMD_PREFIX FILES... : load the files in 2 parallel streams,
# each stream one client process running its statements in sequence.
mysql_stream() { # files...
	local sql=""
	for f in "$@"; do
		local t
		t=$(basename "$f"); t=${t%%.*}
		sql+="LOAD DATA LOCAL INFILE '$f' INTO TABLE $t FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"' LINES TERMINATED BY '\n';"
	done
	MYSQL_PWD=$P mariadb --local-infile=1 -h "$H" -P "$PORT" -u "$U" "$DB" -e "$sql"
}
pg_stream() { # files...
	local script=$WORK/pg.$$.$RANDOM.sql
	: >"$script"
	for f in "$@"; do
		local t
		t=$(basename "$f"); t=${t%%.*}
		echo "\\copy $t FROM '$f' WITH (FORMAT csv)" >>"$script"
	done
	PGPASSWORD=$P psql -q -X -v ON_ERROR_STOP=1 -h "$H" -p "$PORT" -U "$U" -d "$DB" -f "$script"
}

# split the CSV files of $1 into two lists, balanced by size, big first.
two_streams() { # dir stream_fn
	local dir=$1 fn=$2 a=() b=() sa=0 sb=0
	while read -r size f; do
		if ((sa <= sb)); then a+=("$f"); sa=$((sa + size)); else b+=("$f"); sb=$((sb + size)); fi
	done < <(find "$dir" -name '*.csv' -printf '%s %p\n' | sort -rn)
	$fn "${a[@]}" &
	local pa=$!
	$fn "${b[@]}" &
	local pb=$!
	wait $pa && wait $pb
}

report() { # server bp_total bp_load ingest
	local per=$(calc "$2 / $W") perload=$(calc "$3 / $W") lim=$(calc "$4 / $W")
	printf '%-9s benchpress %6.2f s/wh (row load %5.2f s/wh)  ingest limit %5.2f s/wh  ratio %.2f (load only %.2f)\n' \
		"$1" "$per" "$perload" "$lim" "$(calc "$2 / $4")" "$(calc "$3 / $4")"
}

RESULTS=()
# settle: before each timed phase, the server writes out what the previous
# phase left dirty, so that neither phase pays for the other's buffers:
# PostgreSQL an immediate CHECKPOINT (nor meets the 5-minute timed one by
# chance), MariaDB is waited for until its dirty pages are flushed (at most
# 60 s; InnoDB flushes them when idle). The phases run once each, benchpress
# first: not interleaved.
settle() { # kind
	if [ "$1" = postgres ]; then
		PGPASSWORD=$P psql -q -X -h "$H" -p "$PORT" -U "$U" -d "$DB" -c "CHECKPOINT" >/dev/null 2>&1 || true
		return 0
	fi
	local i dirty
	for i in $(seq 1 60); do
		dirty=$(MYSQL_PWD=$P mariadb -h "$H" -P "$PORT" -u "$U" -NBe "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'" 2>/dev/null | awk '{ print $2 }')
		[ "${dirty:-0}" -le 100 ] && return 0
		sleep 1
	done
	echo "   (MariaDB still had ${dirty} dirty pages after 60 s)" >&2
}

# go_seconds DURATION: a Go duration as printed (850ms, 4.2s, 1m5.2s) in seconds.
go_seconds() {
	python3 -c '
import re, sys
units = {"h": 3600, "m": 60, "s": 1, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}
parts = re.findall(r"([0-9.]+)(ms|us|µs|ns|h|m|s)", sys.argv[1])
print("%.3f" % sum(float(v) * units[u] for v, u in parts) if parts else "nan")' "$1"
}

bench_server() { # kind url stream_fn
	local kind=$1 url=$2 fn=$3
	parse "$url"
	echo "== $kind: $W warehouse(s) into $DB"
	if [ "$kind" = mariadb ]; then
		MYSQL_PWD=$P mariadb -h "$H" -P "$PORT" -u "$U" -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB"
	else
		PGPASSWORD=$P psql -q -X -h "$H" -p "$PORT" -U "$U" -d postgres -c "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
	fi
	local t0 t1 out
	settle "$kind"
	t0=$(now)
	out=$("$BIN" tpcc prepare --target "$url/$DB" --warehouses "$W" --threads 2 2>/dev/null)
	t1=$(now)
	echo "$out" | sed 's/^/   /'
	local bp_total bp_load
	bp_total=$(calc "$t1 - $t0")
	bp_load=$(go_seconds "$(echo "$out" | sed -n 's/^  load \([0-9.hmsuµn]*\).*/\1/p')")
	# The same schema, emptied, without the secondary indexes.
	if [ "$kind" = mariadb ]; then
		local sql="DROP INDEX customer_idx_name ON customer; DROP INDEX orders_idx_cust ON orders;"
		for t in $TABLES; do sql+="TRUNCATE TABLE $t;"; done
		MYSQL_PWD=$P mariadb -h "$H" -P "$PORT" -u "$U" "$DB" -e "$sql"
	else
		PGPASSWORD=$P psql -q -X -h "$H" -p "$PORT" -U "$U" -d "$DB" \
			-c "DROP INDEX customer_idx_name; DROP INDEX orders_idx_cust; TRUNCATE ${TABLES// /, }"
	fi
	local csv=$WORK/csv-$kind
	mkdir -p "$csv"
	"$BIN" tpcc prepare --target "$url/$DB" --output csv --dir "$csv" --warehouses "$W" --threads 2 >/dev/null
	settle "$kind"
	t0=$(now)
	two_streams "$csv" "$fn"
	t1=$(now)
	local ingest
	ingest=$(calc "$t1 - $t0")
	rm -rf "$csv"
	RESULTS+=("$(report "$kind" "$bp_total" "$bp_load" "$ingest")")
}

bench_server mariadb "$MYSQL_URL" mysql_stream
bench_server postgres "$PG_URL" pg_stream

echo
echo "== results ($W warehouses, 2 loader streams, $(nproc) CPUs shared by client and server)"
printf '%s\n' "${RESULTS[@]}"
"$WORK/gencsv" -warehouses "$W" -discard | sed 's/^/generator: /'
echo "targets: ratio <= 1.15, generator <= 0.45 CPU-s per warehouse"
