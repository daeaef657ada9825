#!/bin/sh
# run.sh measures rep beside its peers and writes results/<date>/:
#   bench.txt       raw `go test -bench` output of every run (benchstat input)
#   machine.txt     machine, Go version, commit, load average before each run
#   agreement.md/.tsv  verdicts compared with Google's (cmd/agree)
#   *.benchstat.txt benchstat tables, libraries side by side (-col /lib)
#   summary.md      medians, ratios to the fastest peer, targets (cmd/summary)
#
# Usage: ./run.sh                      (COUNT=6 runs, BENCHTIME=1s each)
#        COUNT=1 BENCHTIME=100ms ./run.sh   (a quick check of the harness)
#        BENCH='Check' ./run.sh             (a subset, by -bench regexp)
#
# The test binary is built once and run COUNT times, each run covering
# every benchmark: runs are interleaved in time, so a burst of load from
# other work on the machine spreads over all libraries instead of hitting
# one. benchstat merges the runs.
set -eu
cd "$(dirname "$0")"
COUNT=${COUNT:-6}
BENCHTIME=${BENCHTIME:-1s}
BENCH=${BENCH:-.}
OUT=${OUT:-results/$(date -u +%Y-%m-%d)}
BENCHSTAT=$(go env GOPATH)/bin/benchstat
[ -x "$BENCHSTAT" ] || go install golang.org/x/perf/cmd/benchstat@latest

mkdir -p "$OUT" results/tmp
go test -c -o results/tmp/bench.test .
{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "commit: $(git rev-parse HEAD)$(git diff --quiet HEAD -- ../robotstxt || echo ' (robotstxt modified)')"
	go version
	uname -srm
	echo "cpus: $(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
	echo "memory: $(grep MemTotal /proc/meminfo | tr -s ' ')"
	echo "command: COUNT=$COUNT BENCHTIME=$BENCHTIME BENCH='$BENCH' ./run.sh"
} > "$OUT/machine.txt"
: > "$OUT/bench.txt"
i=1
while [ "$i" -le "$COUNT" ]; do
	echo "run $i/$COUNT: $(date -u +%H:%M:%S), load average $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/machine.txt" >&2
	results/tmp/bench.test -test.run '^$' -test.bench "$BENCH" -test.benchmem \
		-test.benchtime "$BENCHTIME" -test.timeout 60m >> "$OUT/bench.txt"
	i=$((i + 1))
done
echo "end: $(date -u +%H:%M:%S), load average $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/machine.txt"

# The agreement program exits 1 when rep disagrees with Google: keep the
# table and say so rather than stop before the benchmark tables.
go run ./cmd/agree -tsv "$OUT/agreement.tsv" > "$OUT/agreement.md" || echo "run.sh: rep disagrees with Google, see $OUT/agreement.md" >&2

for name in Parse Check OneShot Retained; do
	"$BENCHSTAT" -col /lib -filter ".name:$name" "$OUT/bench.txt" > "$OUT/$name.benchstat.txt"
done
"$BENCHSTAT" -col /lib -row /case,/op -filter '.name:Patho' "$OUT/bench.txt" > "$OUT/Patho.benchstat.txt"
go run ./cmd/summary -agree "$OUT/agreement.tsv" "$OUT/bench.txt" > "$OUT/summary.md"
echo "wrote $OUT" >&2
