#!/bin/sh
# The page verdict's run: ROUNDS (6) rounds; in each, the code before
# (BEFORE) and after (AFTER) run BenchmarkClient's bare and rep cases,
# each case in a process of its own, in that order. Output: one raw file
# per binary, for client-summary.sh.
out=${OUT:-.}
: > $out/client-page-before.txt; : > $out/client-page-after.txt
for r in $(seq 1 ${ROUNDS:-6}); do
  for side in before after; do
    if [ $side = before ]; then bin=${BEFORE:-./before.test}; else bin=${AFTER:-./after.test}; fi
    for c in bare rep; do
      $bin -test.run '^$' -test.bench "BenchmarkClient\$/^$c\$" -test.benchmem -test.benchtime ${BENCHTIME:-2s} | grep '^Benchmark' >> $out/client-page-$side.txt
    done
  done
done
