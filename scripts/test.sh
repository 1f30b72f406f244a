#!/usr/bin/env bash
# scripts/test.sh — the whole benchpress test suite on a fresh Debian machine.
#
#   1. installs (when missing) and starts MariaDB and PostgreSQL on 127.0.0.1
#      (scripts/db-setup.sh), Prometheus node_exporter and process-exporter
#      on 127.0.0.1:9100 and :9256 (scripts/exporters-setup.sh),
#      ShardingSphere-Proxy 5.1.0 over MariaDB on 127.0.0.1:13307
#      (scripts/proxy-setup.sh: a JDK and Maven from Debian, the proxy from
#      Maven Central, cached) and Chromium for the HTML report test;
#   2. installs staticcheck with `go install`;
#   3. runs the gofmt check, go vet, staticcheck;
#   4. runs `go test ./...` with BP_REQUIRE_DBS=1, so integration tests on
#      MariaDB, PostgreSQL, SQLite and through the sharding proxy fail instead
#      of skipping;
#   5. runs the README quickstart as a smoke test.
# Ends with one summary line: "tests: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:$(go env GOPATH)/bin"
STATICCHECK_VERSION=${STATICCHECK_VERSION:-latest}
passed=0; failed=0; failures=()
step() { # step NAME CMD...: run a step, count it
  local name=$1; shift
  echo "=== $name"
  if "$@"; then passed=$((passed+1)); echo "--- ok: $name"
  else failed=$((failed+1)); failures+=("$name"); echo "--- FAIL: $name"; fi
}

setup_chromium() {
  command -v chromium >/dev/null 2>&1 && return 0
  local SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null &&
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
}

step "databases (MariaDB, PostgreSQL)" bash scripts/db-setup.sh
step "exporters (node_exporter, process-exporter)" bash scripts/exporters-setup.sh
step "sharding proxy (ShardingSphere-Proxy)" bash scripts/proxy-setup.sh
step "chromium" setup_chromium
step "staticcheck install" go install "honnef.co/go/tools/cmd/staticcheck@${STATICCHECK_VERSION}"

gofmt_check() { local bad; bad=$(gofmt -l $(git ls-files '*.go')); [ -z "$bad" ] || { echo "gofmt needed:"; echo "$bad"; return 1; }; }
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

echo
[ ${#failures[@]} -eq 0 ] || printf 'failed step: %s\n' "${failures[@]}"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
