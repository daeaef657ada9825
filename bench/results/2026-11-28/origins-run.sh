#!/bin/sh
# Eight rounds; each runs the branch's test binary (accf2b9) and then
# main's code (9289bc7) built with the same benchmark files, one after the
# other, so both see the same load.
out=${OUT:-.}
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; echo "go: $(go version)"; echo "cpu: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs"; echo "load before: $(uptime)"; } > $out/machine.txt
: > $out/branch.txt; : > $out/main.txt
for r in 1 2 3 4 5 6 7 8; do
  ${BRANCH:-./rep.test} -test.run '^$' -test.bench 'BenchmarkCheckOrigins|BenchmarkClient$|BenchmarkClientInMemory' -test.benchmem -test.count 1 -test.benchtime 1s >> $out/branch.txt 2>&1
  ${MAIN:-./rep-main.test} -test.run '^$' -test.bench 'BenchmarkCheckOrigins|BenchmarkClient$|BenchmarkClientInMemory' -test.benchmem -test.count 1 -test.benchtime 1s >> $out/main.txt 2>&1
  echo "round $r: $(uptime)" >> $out/machine.txt
done
echo "load after: $(uptime)" >> $out/machine.txt
echo done >> $out/machine.txt
