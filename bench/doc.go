// Package bench measures rep's robots.txt engine (package robotstxt) beside
// its Go peers in one run: github.com/temoto/robotstxt,
// github.com/jimsmart/grobotstxt (a port of Google's C++ parser, which has no
// parsed form and so answers one-shot: parse and check per query) and
// github.com/slyrz/robots.
//
// It is a separate module so that rep itself never depends on the peers.
// The benchmarks are in bench_test.go; see README.md for what each one
// measures and for the commands, ../BENCHMARKS.md for the headline figures
// and results/<date>-<time>-<commit>/ for every run's raw results and notes.
// The method follows shared/notes/perf-baseline.md.
package bench
