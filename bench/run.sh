#!/usr/bin/env bash
# run.sh measures rep beside its peers and writes
# results/<date>-<HHMM>-<commit>/ (UTC start time, short commit):
#   bench.txt       raw `go test -bench` output of every run (benchstat input)
#   machine.txt     machine, Go version, commit, load average and CPU time per run
#   agreement.md/.tsv  verdicts compared with Google's (cmd/agree)
#   *.benchstat.txt benchstat tables, libraries side by side (-col /lib)
#   summary.md      medians, ratios to the fastest peer, targets (cmd/summary)
#   report.md       all of the above in one file
# Notes on a run (what changed, what was tried beside it) go in NOTES.md
# in the same directory.
#
# Usage: ./run.sh                      (COUNT=6 runs, BENCHTIME=1s each)
#        COUNT=1 BENCHTIME=100ms ./run.sh   (a quick check of the harness)
#        BENCH='Check' ./run.sh             (a subset, by -bench regexp)
#        REPORT_ONLY=1 OUT=results/DATE ./run.sh  (redo the tables from bench.txt
#                                                  and agreement.tsv of a run)
#
# The test binary is built once and run COUNT times, each run covering
# every benchmark: runs are interleaved in time, so a burst of load from
# other work on the machine spreads over all libraries instead of hitting
# one. benchstat merges the runs.
set -eu
TIMEFORMAT='  wall %R s, user %U s, sys %S s'
cd "$(dirname "$0")"
COUNT=${COUNT:-6}
BENCHTIME=${BENCHTIME:-1s}
BENCH=${BENCH:-.}
OUT=${OUT:-results/$(date -u +%Y-%m-%d-%H%M)-$(git rev-parse --short=7 HEAD)}
BENCHSTAT=$(go env GOPATH)/bin/benchstat
[ -x "$BENCHSTAT" ] || go install golang.org/x/perf/cmd/benchstat@latest

mkdir -p "$OUT" results/tmp
# Build everything first: the whole run measures one snapshot of rep's code
# (the checkout is shared and may change while the benchmarks run).
go test -c -o results/tmp/bench.test .
go build -o results/tmp/agree ./cmd/agree
go build -o results/tmp/summary ./cmd/summary
if [ "${REPORT_ONLY:-}" != 1 ]; then
{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "commit: $(git rev-parse HEAD)"
	echo "uncommitted changes in robotstxt/ at build time: $(git status --short -- ../robotstxt | tr '\n' ' ')"
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
	# CPU time / wall time of the run: near 1 when the benchmarks had a core
	# to themselves, lower when other work took it (ns/op is wall time).
	{ time results/tmp/bench.test -test.run '^$' -test.bench "$BENCH" -test.benchmem \
		-test.benchtime "$BENCHTIME" -test.timeout 60m >> "$OUT/bench.txt" 2>&3; } 3>&2 2>> "$OUT/machine.txt"
	i=$((i + 1))
done
echo "end: $(date -u +%H:%M:%S), load average $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/machine.txt"
fi

# The agreement program exits 1 when rep disagrees with Google: keep the
# table and say so rather than stop before the benchmark tables.
# REPORT_ONLY keeps the agreement of the run: the checkout may have changed.
status=0
[ "${REPORT_ONLY:-}" = 1 ] || results/tmp/agree -tsv "$OUT/agreement.tsv" > "$OUT/agreement.md" || status=$?
case $status in
0) ;;
1) echo "run.sh: rep disagrees with Google, see $OUT/agreement.md" >&2 ;;
*) exit "$status" ;;
esac

for name in Parse Check OneShot Retained; do
	"$BENCHSTAT" -col /lib -filter ".name:$name" "$OUT/bench.txt" > "$OUT/$name.benchstat.txt"
done
"$BENCHSTAT" -col /lib -row /case,/op -filter '.name:Patho' "$OUT/bench.txt" > "$OUT/Patho.benchstat.txt"
results/tmp/summary -agree "$OUT/agreement.tsv" "$OUT/bench.txt" > "$OUT/summary.md"


# report.md: everything above in one Markdown file.
{
	echo "## Run"
	echo
	echo '```'
	cat "$OUT/machine.txt"
	echo '```'
	echo
	echo "## Summary (cmd/summary)"
	echo
	cat "$OUT/summary.md"
	echo
	echo "## Agreement with Google's C++ parser (cmd/agree)"
	echo
	cat "$OUT/agreement.md"
	for name in Parse Check OneShot Retained Patho; do
		echo
		echo "## benchstat: $name"
		echo
		echo '```'
		cat "$OUT/$name.benchstat.txt"
		echo '```'
	done
} > "$OUT/report.md"
echo "wrote $OUT" >&2
