#!/usr/bin/env bash
# serve.sh measures GET /api/allowed of rep serve on a warm cache beside a
# bare net/http handler that JSON-encodes an answer of the same shape
# (cmd/bareserve), with wrk, in one run: ROUNDS rounds, each running the
# bare handler, rep with the memory store and rep with the Redis store
# (redis-server on a free loopback port) for DURATION. rep runs with its
# default limits: answers from the cache are never limited, so every
# answer must be 2xx.
#
# Writes results/<date>-serve/ (override with OUT=):
#   wrk-<target>-<round>.txt  raw wrk output (--latency)
#   machine.txt               machine, Go, commit, load before and after
#   summary.md                medians of the rounds, ratios, non-2xx
#
# Usage: ./serve.sh   (ROUNDS=3 DURATION=10s CONNS=32 THREADS=2)
set -eu
cd "$(dirname "$0")"
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
CONNS=${CONNS:-32}
THREADS=${THREADS:-2}
OUT=${OUT:-results/$(date -u +%Y-%m-%d)-serve}

need() {
	command -v "$1" >/dev/null 2>&1 && return
	echo "installing $2"
	SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
	$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$2" >/dev/null
}
need wrk wrk
need redis-server redis-server

freeport() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

mkdir -p "$OUT" results/tmp
(cd .. && go build -o bench/results/tmp/rep ./cmd/rep)
go build -o results/tmp/bareserve ./cmd/bareserve

pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

# start NAME CMD...: runs CMD in the background, records its pid.
start() { "$@" & pids+=("$!"); }

originport=$(freeport); bareport=$(freeport); memport=$(freeport); redisport=$(freeport); repredisport=$(freeport)
start results/tmp/bareserve -origin -addr 127.0.0.1:$originport >/dev/null
site=http://127.0.0.1:$originport
start redis-server --port "$redisport" --bind 127.0.0.1 --save '' --appendonly no --loglevel warning >/dev/null
sleep 1
start results/tmp/bareserve -site "$site" -addr 127.0.0.1:$bareport >/dev/null
start results/tmp/rep serve -addr 127.0.0.1:$memport -allow-private -log-format json 2>/dev/null
start results/tmp/rep serve -addr 127.0.0.1:$repredisport -allow-private -store redis://127.0.0.1:$redisport/0 -log-format json 2>/dev/null
sleep 2

path="/api/allowed?agent=Googlebot&url=$site/private/p1"
declare -A url=([bare]=http://127.0.0.1:$bareport$path [rep-memory]=http://127.0.0.1:$memport$path [rep-redis]=http://127.0.0.1:$repredisport$path)
for t in bare rep-memory rep-redis; do
	curl -fsS "${url[$t]}" >"$OUT/answer-$t.json" # warms the cache; the answers must match
done

{
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "commit: $(git rev-parse --short=7 HEAD)$(git diff --quiet HEAD -- .. || echo ' (with uncommitted changes)')"
	echo "go: $(go version)"
	echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs"
	echo "wrk: $(wrk -v 2>&1 | head -1)"
	echo "redis: $(redis-server --version)"
	echo "load before: $(uptime)"
	echo "run: ROUNDS=$ROUNDS DURATION=$DURATION CONNS=$CONNS THREADS=$THREADS"
} >"$OUT/machine.txt"

for r in $(seq 1 "$ROUNDS"); do
	for t in bare rep-memory rep-redis; do
		echo "round $r: $t"
		wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency "${url[$t]}" >"$OUT/wrk-$t-$r.txt"
	done
done
echo "load after: $(uptime)" >>"$OUT/machine.txt"

# summary: median requests/s and p99 of the rounds, non-2xx summed.
python3 - "$OUT" "$ROUNDS" <<'PY'
import re, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def ms(v):
    n, u = re.match(r'([\d.]+)(us|ms|s)', v).groups()
    return float(n) * {'us': 1e-3, 'ms': 1, 's': 1e3}[u]
rows = {}
for t in ['bare', 'rep-memory', 'rep-redis']:
    rps, p99, non2xx, errs = [], [], 0, 0
    for r in range(1, rounds + 1):
        s = open(f'{out}/wrk-{t}-{r}.txt').read()
        rps.append(float(re.search(r'Requests/sec:\s+([\d.]+)', s).group(1)))
        p99.append(ms(re.search(r'99%\s+(\S+)', s).group(1)))
        m = re.search(r'Non-2xx or 3xx responses: (\d+)', s)
        non2xx += int(m.group(1)) if m else 0
        m = re.search(r'Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)', s)
        errs += sum(map(int, m.groups())) if m else 0
    rows[t] = (statistics.median(rps), min(rps), max(rps), statistics.median(p99), non2xx, errs)
bare = rows['bare'][0]
with open(f'{out}/summary.md', 'w') as f:
    f.write('| target | req/s (median) | range | ratio to bare | p99 (median) | non-2xx | socket errors |\n|---|---|---|---|---|---|---|\n')
    for t, (m, lo, hi, p, n, e) in rows.items():
        f.write(f'| {t} | {m:,.0f} | {lo:,.0f}–{hi:,.0f} | {m / bare:.2f}× | {p:.2f} ms | {n} | {e} |\n')
print(open(f'{out}/summary.md').read())
PY
