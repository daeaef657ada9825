#!/bin/sh
# survey.sh: rep survey beside a protego survey of the same captures, in
# one run (see BENCHMARKS.md): the corpus's robots.txt files repeated
# COPIES times under renamed hosts (1,613 × 62 = 100,006 captures), each
# asked about the Apertus crawler list. Raw output: results/<date>/survey-*.
# Needs bench/.venv with protego (never installed into rep's core):
#   python3 -m venv bench/.venv && bench/.venv/bin/pip install datatrove==0.10.1 protego==0.7.0 regex orjson
set -eu
cd "$(dirname "$0")"
COPIES=${COPIES:-62}
OUT=${OUT:-results/$(date -u +%Y-%m-%d)}
CORPUS=${REP_CORPUS:-../../shared/corpus}
# filter.sh's list with one token per product: CCBot/1.0 and CCBot/2.0
# are CCBot to every parser (rep survey writes one row per product token).
AGENTS='AI2Bot,Applebot-Extended,Bytespider,CCBot,ClaudeBot,cohere-training-data-crawler,Diffbot,Meta-ExternalAgent,Google-Extended,GPTBot,PanguBot,*'
PY=.venv/bin/python
$PY -c 'import protego, orjson' 2>/dev/null || { echo "survey.sh: no protego in bench/.venv (see the header)" >&2; exit 1; }
mkdir -p "$OUT" data/survey
(cd .. && go build -o bench/data/rep ./cmd/rep)
go build -o data/filtercmp ./cmd/filtercmp
go run ./cmd/filterdata -corpus "$CORPUS" -out data/survey -n 0 -copies "$COPIES"
CAPTURES=$(wc -l < data/survey/captures.jsonl)
{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; uname -srm; go version; echo "cores: $(nproc)"; uptime
	$PY -c 'import sys, importlib.metadata as m; print("python", sys.version.split()[0], "protego", m.version("protego"), "orjson", m.version("orjson"))'
	echo "rep: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- .. || echo ' (modified)')"
	echo "captures: $CAPTURES ($COPIES copies of the corpus)"; echo "agents: $AGENTS"
} > "$OUT/survey-env.txt"

/usr/bin/time -v -o "$OUT/survey-rep.time" data/rep survey -agent "$AGENTS" data/survey/captures.jsonl > data/survey/rep.jsonl 2> "$OUT/survey-rep.stderr"
/usr/bin/time -v -o "$OUT/survey-protego.time" $PY survey/protego_survey.py data/survey/captures.jsonl "$AGENTS" > data/survey/protego.jsonl 2> "$OUT/survey-protego.stderr"
uptime >> "$OUT/survey-env.txt"
data/filtercmp -survey -captures data/survey/captures.jsonl -rep data/survey/rep.jsonl -protego data/survey/protego.jsonl -agents "$AGENTS" > "$OUT/survey-verdicts.txt"

. ./timesummary.sh
{
	summary rep "$OUT/survey-rep.time" "$CAPTURES" captures
	summary protego "$OUT/survey-protego.time" "$CAPTURES" captures
	cat "$OUT/survey-verdicts.txt"
} | tee "$OUT/survey-summary.txt"
