#!/usr/bin/env bash
# audit.sh measures rep audit on a generated combined log, beside wc -l on
# the same file in the same run, and prints lines per CPU-second (one core:
# GOMAXPROCS=1) for: wc -l, parse only, the full audit without -verify (Go
# benchmark), and the rep audit command end to end.
#
# Usage: bench/audit.sh [SIZE]      SIZE of the generated log, default 1GB
#
# The log, the binaries and the robots.txt files live in a temporary
# directory that is deleted on exit. CPU time (user+sys) rather than wall
# time is the measure because the machine may be shared.
set -eu
SIZE=${1:-1GB}
cd "$(dirname "$0")/.."
TMP=$(mktemp -d /tmp/rep-audit-bench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

go build -o "$TMP/rep" ./cmd/rep
go build -o "$TMP/loggen" ./internal/testkit/loggen/cmd/loggen
go test -c -o "$TMP/audit.test" ./audit
"$TMP/loggen" -size "$SIZE" -bad-every -1 -o "$TMP/access.log" -robots "$TMP" -truth "$TMP/truth.json" 2>"$TMP/gen.txt"
ROBOTS=$(sed -n 's/.*(combined) //p' "$TMP/gen.txt")
LINES=$(wc -l <"$TMP/access.log")
BYTES=$(stat -c %s "$TMP/access.log")

echo "# rep audit benchmark, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "go: $(go version | cut -d' ' -f3-), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "input: $LINES lines, $BYTES bytes of generated combined log ($SIZE)"
cat "$TMP/access.log" >/dev/null # into the page cache

# measure LABEL CMD...: runs CMD, prints wall and CPU time and lines per CPU-second.
measure() {
	local label=$1
	shift
	local tf="$TMP/time.txt"
	TIMEFORMAT='%R %U %S'
	{ time "$@" >"$TMP/out.txt" 2>&1 || true; } 2>"$tf" # rep audit exits 1 on findings
	read -r real user sys <"$tf"
	awk -v l="$label" -v n="$LINES" -v r="$real" -v u="$user" -v s="$sys" 'BEGIN {
		cpu = u + s; if (cpu < 0.001) cpu = 0.001
		printf "%-34s wall %6.2f s  cpu %6.2f s  %8.2f M lines/cpu-s  %7.0f MB/cpu-s\n", l, r, cpu, n / cpu / 1e6, '"$BYTES"' / cpu / 1e6
	}'
}

measure "wc -l" wc -l "$TMP/access.log"
export GOMAXPROCS=1 REP_AUDIT_BENCH_LOG="$TMP/access.log"
measure "parse only (Go bench, process)" "$TMP/audit.test" -test.run '^$' -test.bench '^BenchmarkParseFile$' -test.benchtime 1x
grep -h 'lines/cpu-s' "$TMP/out.txt" | sed 's/^/    /'
measure "full audit, no -verify (Go bench)" "$TMP/audit.test" -test.run '^$' -test.bench '^BenchmarkAuditFile$' -test.benchtime 1x
grep -h 'lines/cpu-s' "$TMP/out.txt" | sed 's/^/    /'
# shellcheck disable=SC2086
measure "rep audit -json (command)" "$TMP/rep" audit -json $ROBOTS "$TMP/access.log"
# shellcheck disable=SC2086
measure "rep audit -verify -offline" "$TMP/rep" audit -json -verify -offline $ROBOTS "$TMP/access.log"
