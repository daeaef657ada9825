#!/bin/sh
# client-summary.sh FILE...: for each raw file of bench/client.sh, the
# median (and range) of CPU ns per GET, wall ns and allocs per case, and
# the median of the per-round ratios of each case to bare and to netguard
# (the k-th run of a case is round k; a ratio pairs runs of one round).
for f in "$@"; do
	echo "$f"
	awk '
	function med(s,   a, n, i, j, t) {
		n = split(s, a, " ")
		for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
		lo = a[1]; hi = a[n]
		return (n % 2) ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2
	}
	/^Benchmark/ {
		c = $1; sub(/-[0-9]+$/, "", c)
		k = ++runs[c]
		for (i = 2; i < NF; i++) { if ($(i+1) == "ns/op") wall = $i; if ($(i+1) == "cpu-ns/op") cpu = $i; if ($(i+1) == "allocs/op") al = $i }
		cpus[c] = cpus[c] " " cpu; walls[c] = walls[c] " " wall; allocs[c] = allocs[c] " " al
		at[c, k] = cpu
		if (!(c in seen)) { seen[c] = 1; order[++nc] = c }
	}
	END {
		for (i = 1; i <= nc; i++) {
			c = order[i]; m = med(cpus[c]); l = lo; h = hi
			printf "  %-44s n=%d cpu %7.1fus (%.1f-%.1f)  wall %7.1fus  allocs %.1f\n", c, runs[c], m/1000, l/1000, h/1000, med(walls[c])/1000, med(allocs[c])
		}
		for (i = 1; i <= nc; i++) {
			c = order[i]; grp = c; sub(/\/.*/, "", grp)
			split("bare netguard", bases, " ")
			for (b = 1; b <= 2; b++) {
				base = grp "/" bases[b]
				if (c == base || !(base in runs)) continue
				s = ""
				for (k = 1; k <= runs[c] && k <= runs[base]; k++) s = s " " at[c, k] / at[base, k]
				printf "  %-44s / %-8s per-round cpu ratio median %.3f (%.3f-%.3f)\n", c, bases[b], med(s), lo, hi
			}
		}
	}' "$f"
done
