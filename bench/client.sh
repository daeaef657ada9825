#!/bin/sh
# BenchmarkClient and BenchmarkClientInMemory, case by case: each case runs
# in a process of its own (no case pays for another's connections, heap or
# position), the cases in a rotating order, each after the branch's binary
# and the code before the change (built with the same benchmark files),
# alternating which of the two goes first; eight rounds, so that every case
# sees the same spread of load. ROUNDS (8) and BENCHTIME (1s) may be set;
# AFTER and BEFORE name the binaries, OUT the folder for the raw files
# (client-after.txt, client-before.txt, client-machine.txt), which
# bench/client-summary.sh reads.
#   go test -c -o after.test .   (the branch)
#   go test -c -o before.test .  (the code before, with these _test.go files)
out=${OUT:-.}
cases='BenchmarkClient$/^bare$ BenchmarkClient$/^netguard$ BenchmarkClient$/^rep-headers-only$ BenchmarkClient$/^rep-headers-only-netguard$ BenchmarkClient$/^rep$ BenchmarkClientInMemory$/^bare$ BenchmarkClientInMemory$/^rep-headers-only$ BenchmarkClientInMemory$/^rep$'
run() { ${1} -test.run '^$' -test.bench "$2" -test.benchmem -test.count 1 -test.benchtime ${BENCHTIME:-1s} | grep '^Benchmark'; }
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; echo "go: $(go version)"; echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs"; echo "load before: $(uptime)"; } > $out/client-machine.txt
: > $out/client-after.txt; : > $out/client-before.txt
for r in $(seq 1 ${ROUNDS:-8}); do
  order=$(echo $cases | tr ' ' '\n' | awk -v r=$r '{a[NR]=$0} END {for (i=0;i<NR;i++) print a[(i+r)%NR+1]}')
  for c in $order; do
    if [ $((r % 2)) = 1 ]; then
      run ${AFTER:-./after.test} "$c" >> $out/client-after.txt 2>&1
      run ${BEFORE:-./before.test} "$c" >> $out/client-before.txt 2>&1
    else
      run ${BEFORE:-./before.test} "$c" >> $out/client-before.txt 2>&1
      run ${AFTER:-./after.test} "$c" >> $out/client-after.txt 2>&1
    fi
  done
  echo "round $r: $(uptime)" >> $out/client-machine.txt
done
echo "load after: $(uptime)" >> $out/client-machine.txt
