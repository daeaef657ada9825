# timesummary.sh, sourced by filter.sh and survey.sh: one line per run
# from a `/usr/bin/time -v` file.
# usage: summary NAME TIMEFILE COUNT UNIT
summary() {
	awk -v n="$3" -v unit="$4" -v name="$1" '
		/User time/ {u=$NF} /System time/ {s=$NF} /Maximum resident/ {rss=$NF}
		/Elapsed \(wall clock\)/ {split($NF, a, ":"); w = (length(a) == 3) ? a[1]*3600 + a[2]*60 + a[3] : a[1]*60 + a[2]}
		END {printf "%-20s wall %7.2f s  cpu %7.2f s  %10.0f %s/s  %10.0f %s/cpu-s  max RSS %6.1f MiB\n", name, w, u+s, n/w, unit, n/(u+s), unit, rss/1024}' "$2"
}

# usage: marginal NAME TIMEFILE1 TIMEFILE2 COUNT UNIT: COUNT more items in
# run 2 than in run 1, per CPU-second of the difference.
marginal() {
	awk -v n="$4" -v unit="$5" -v name="$1" '
		/User time|System time/ {c[FILENAME] += $NF}
		END {d = c[ARGV[2]] - c[ARGV[1]]; printf "%-20s cpu %7.2f s  %10.0f %s/cpu-s\n", name, d, n/d, unit}' "$2" "$3"
}
