#!/usr/bin/env bash
# scripts/test.sh — the whole benchpress test suite on a fresh Debian machine.
#
#   0. installs the tools it calls when missing (curl, jq, python3, iproute2's
#      ss, git);
#   1. installs (when missing) and starts MariaDB and PostgreSQL on 127.0.0.1
#      (scripts/db-setup.sh), Prometheus node_exporter and process-exporter
#      on 127.0.0.1:9100 and :9256 (scripts/exporters-setup.sh),
#      ShardingSphere-Proxy 5.1.0 over MariaDB on 127.0.0.1:13307
#      (scripts/proxy-setup.sh: a JDK and Maven from Debian, the proxy from
#      Maven Central, cached) and Chromium for the HTML report test;
#   2. installs staticcheck with `go install` (pinned: $STATICCHECK_VERSION);
#   3. runs the gofmt check, go vet, staticcheck;
#   4. runs `go test ./...` with BP_REQUIRE_DBS=1, so integration tests on
#      MariaDB, PostgreSQL, SQLite and through the sharding proxy fail instead
#      of skipping;
#   5. runs the README quickstart as a smoke test;
#   6. checks the bench/ scripts: bash -n, the unit tests of their Python
#      summary, and a one-step bench/sysbench-vs.sh (sysbench from apt)
#      against both servers that must produce figures for both tools.
# Ends with one summary line: "tests: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:$(go env GOPATH)/bin"
# Pinned: a new staticcheck release must not turn CI red with no change here.
STATICCHECK_VERSION=${STATICCHECK_VERSION:-v0.8.2}
GOBIN_DIR=$(go env GOBIN); [ -n "$GOBIN_DIR" ] && export PATH="$PATH:$GOBIN_DIR"
passed=0; failed=0; failures=(); current=
step() { # step NAME CMD...: run a step, count it
  local name=$1; shift
  current=$name
  echo "=== $name"
  if "$@"; then passed=$((passed+1)); echo "--- ok: $name"
  else failed=$((failed+1)); failures+=("$name"); echo "--- FAIL: $name"; fi
  current=
}
# Killed (CI's time limit, Ctrl-C): the summary line still ends the output,
# the step that was running counted as failed.
interrupted() {
  echo
  if [ -n "$current" ]; then echo "--- FAIL: $current (interrupted)"; failed=$((failed+1)); fi
  echo "tests: $passed passed, $failed failed (interrupted)"
  exit 130
}
trap interrupted INT TERM
# The set-up steps are bounded (SETUP_TIMEOUT seconds each, default 1200):
# a hung download or server start fails its step instead of the whole run.
SETUP_TIMEOUT=${SETUP_TIMEOUT:-1200}

setup_chromium() {
  command -v chromium >/dev/null 2>&1 && return 0
  # shellcheck source=scripts/lib/apt.sh
  . scripts/lib/apt.sh
  apt_install chromium fonts-dejavu-core
}

# The tools the scripts and tests call (curl: the exporters' wait; jq and
# python3: the bench smoke; ss: the "listens on 127.0.0.1 only" checks;
# git: the gofmt file list), present on most images, not on a bare Debian.
setup_tools() {
  local missing=() c p
  for c in curl:curl jq:jq python3:python3 ss:iproute2 git:git; do
    command -v "${c%%:*}" >/dev/null 2>&1 || missing+=("${c#*:}")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  # shellcheck source=scripts/lib/apt.sh
  . scripts/lib/apt.sh
  apt_install "${missing[@]}"
}

step "tools (curl, jq, python3, iproute2, git)" setup_tools
step "databases (MariaDB, PostgreSQL)" timeout --foreground -k 10 "$SETUP_TIMEOUT" bash scripts/db-setup.sh
step "exporters (node_exporter, process-exporter)" timeout --foreground -k 10 "$SETUP_TIMEOUT" bash scripts/exporters-setup.sh
step "sharding proxy (ShardingSphere-Proxy)" timeout --foreground -k 10 "$SETUP_TIMEOUT" bash scripts/proxy-setup.sh
step "chromium" setup_chromium
step "staticcheck install" timeout --foreground -k 10 "$SETUP_TIMEOUT" go install "honnef.co/go/tools/cmd/staticcheck@${STATICCHECK_VERSION}"

gofmt_check() {
  local files bad
  # The checkout's files; outside a git checkout (a source tarball) all of them.
  files=$(git ls-files '*.go' 2>/dev/null) || files=$(find . -name '*.go' -not -path './.git/*')
  [ -n "$files" ] || { echo "gofmt: no Go files found"; return 1; }
  # shellcheck disable=SC2086
  bad=$(gofmt -l $files); [ -z "$bad" ] || { echo "gofmt needed:"; echo "$bad"; return 1; }
}
step "gofmt" gofmt_check
step "go vet" go vet ./...
step "staticcheck" staticcheck ./...

gotest() {
  BP_REQUIRE_DBS=1 go test -count=1 -timeout 25m ./... 2>&1 | tee /tmp/benchpress-gotest.log
  local rc=${PIPESTATUS[0]}
  echo "go test packages: $(grep -c '^ok' /tmp/benchpress-gotest.log) ok, $(grep -c '^FAIL\s' /tmp/benchpress-gotest.log) FAIL"
  return "$rc"
}
step "go test ./..." gotest

quickstart() {
  local dir; dir=$(mktemp -d)
  go build -o "$dir/benchpress" ./cmd/benchpress || return 1
  (cd "$dir" && ./benchpress quickstart --duration 10s) > "$dir/out.txt" 2>&1
  local rc=$?
  tail -25 "$dir/out.txt"
  [ $rc = 0 ] && grep -q "quickstart passed" "$dir/out.txt"
}
step "quickstart smoke" quickstart

# bench_smoke: the bench/ scripts run end to end. One step (2 threads), two
# rounds of 2 s, on both servers and both sysbench tests (2 x 2 x 2 x 2 tools
# = 16 runs); every run must leave a TPS and a p99 in results.tsv and the
# summary its verdict line.
bench_smoke() {
  local f out
  for f in bench/*.sh; do bash -n "$f" || return 1; done
  PYTHONDONTWRITEBYTECODE=1 python3 -m unittest discover -s bench -p 'test_*.py' || return 1
  out=$(mktemp -d)
  OUT=$out LADDER=2 ROUNDS=2 TIME=2 TABLES=1 SIZE=1000 DB=bp_benchsmoke \
    bash bench/sysbench-vs.sh --quick > "$out/log" 2>&1 || { tail -20 "$out/log"; return 1; }
  cat "$out/summary.txt"
  grep -q "steps PASS" "$out/summary.txt" || return 1
  python3 - "$out/results.tsv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
bad = [r for r in rows if not (float(r["tps"]) > 0 and float(r["p99_ms"]) > 0)]
tools = {r["tool"] for r in rows}
print("bench smoke: %d runs, tools %s, %d without figures" % (len(rows), sorted(tools), len(bad)))
sys.exit(0 if len(rows) == 16 and tools == {"sysbench", "benchpress"} and not bad else 1)
PY
}
step "bench scripts smoke" bench_smoke

echo
[ ${#failures[@]} -eq 0 ] || printf 'failed step: %s\n' "${failures[@]}"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
