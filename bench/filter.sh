#!/bin/sh
# filter.sh: rep filter beside the datatrove + protego filter the Apertus
# models used, on the same generated data, in one run (see BENCHMARKS.md).
# Raw output: results/<date>/filter-*.  Needs bench/.venv with datatrove
# and protego (never installed into rep's core):
#   python3 -m venv bench/.venv && bench/.venv/bin/pip install datatrove==0.10.1 protego==0.7.0 regex orjson
set -eu
cd "$(dirname "$0")"
N=${N:-1000000}
OUT=${OUT:-results/$(date -u +%Y-%m-%d)}
CORPUS=${REP_CORPUS:-../../shared/corpus}
# The Apertus list (the crawlers whose opt-out removes a site) and "*".
AGENTS='AI2Bot,Applebot-Extended,Bytespider,CCBot,CCBot/1.0,CCBot/2.0,ClaudeBot,cohere-training-data-crawler,Diffbot,Meta-ExternalAgent,Google-Extended,GPTBot,PanguBot,*'
PY=.venv/bin/python
$PY -c 'import datatrove, protego' 2>/dev/null || { echo "filter.sh: no datatrove+protego in bench/.venv (see the header)" >&2; exit 1; }
mkdir -p "$OUT" data
(cd .. && go build -o bench/data/rep ./cmd/rep)
go build -o data/filtercmp ./cmd/filtercmp
go run ./cmd/filterdata -corpus "$CORPUS" -out data -n "$N"
{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; uname -srm; go version; echo "cores: $(nproc)"; uptime
	$PY -c 'import sys, importlib.metadata as m; print("python", sys.version.split()[0], "datatrove", m.version("datatrove"), "protego", m.version("protego"))'
	echo "rep: $(git rev-parse --short HEAD)"; echo "documents: $N"; echo "agents: $AGENTS"
} > "$OUT/filter-env.txt"

# The same documents twice over: the second million meets every host
# parsed, so the difference of the two runs' CPU times is what documents
# cost once the hosts are parsed. Written before both runs, so that
# neither meets the other's fresh page cache.
cat data/docs.jsonl data/docs.jsonl > data/docs2.jsonl
/usr/bin/time -v -o "$OUT/filter-rep.time" data/rep filter -captures data/captures.jsonl -agent "$AGENTS" -stats data/docs.jsonl > data/rep.jsonl 2> "$OUT/filter-rep.stderr"
/usr/bin/time -v -o "$OUT/filter-rep-2x.time" data/rep filter -captures data/captures.jsonl -agent "$AGENTS" -stats data/docs2.jsonl > data/rep2.jsonl 2> "$OUT/filter-rep-2x.stderr"
rm -rf data/dt
/usr/bin/time -v -o "$OUT/filter-datatrove.time" $PY filter/datatrove_filter.py data "$CORPUS/robots" data/dt "$AGENTS" > "$OUT/filter-datatrove.log" 2>&1
data/filtercmp -docs data/docs.jsonl -robots "$CORPUS/robots" -rep data/rep.jsonl -datatrove data/dt/kept.jsonl -agents "$AGENTS" > "$OUT/filter-verdicts.txt"

. ./timesummary.sh
{
	summary rep "$OUT/filter-rep.time" "$N" docs
	marginal "rep, hosts parsed" "$OUT/filter-rep.time" "$OUT/filter-rep-2x.time" "$N" docs
	summary datatrove+protego "$OUT/filter-datatrove.time" "$N" docs
	cat "$OUT/filter-verdicts.txt"
} | tee "$OUT/filter-summary.txt"
