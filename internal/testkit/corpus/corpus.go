// Package corpus finds the real-world robots.txt corpus for tests and
// benchmarks: 1,613 robots.txt files of popular sites (robots/, named by
// host), the 24,312 URLs derived from them (urls.tsv) and the verdicts of
// Google's C++ parser on them (google_answers.tsv). At 15 MB of third-party
// files it is not part of the repository: it is read from the directory
// $REP_CORPUS names, else from ../shared/corpus beside the checkout.
//
// A missing corpus fails the test, never skips it: make test runs every
// test that reads it.
package corpus

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Env is the environment variable that names the corpus directory.
const Env = "REP_CORPUS"

// Default returns the corpus directory used when Env is unset:
// ../shared/corpus beside the module's checkout, found from this file's
// place in it.
func Default() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "shared", "corpus")
}

// Dir returns the corpus directory ($REP_CORPUS, else Default) and fails
// the test when it does not hold robots/.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv(Env)
	if dir == "" {
		dir = Default()
	}
	if _, err := os.Stat(filepath.Join(dir, "robots")); err != nil {
		tb.Fatalf("robots.txt corpus missing: %v (set %s to the directory holding robots/, urls.tsv and google_answers.tsv, or put it at ../shared/corpus beside the checkout)", err, Env)
	}
	return dir
}

// Path returns the path of name inside the corpus directory (see Dir).
func Path(tb testing.TB, name ...string) string {
	tb.Helper()
	return filepath.Join(append([]string{Dir(tb)}, name...)...)
}

// Robots returns every file of the corpus's robots/ by name (its host),
// README.md left out.
func Robots(tb testing.TB) map[string][]byte {
	tb.Helper()
	dir := Path(tb, "robots")
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) == 0 {
		tb.Fatalf("robots.txt corpus empty or unreadable at %s: %v", dir, err)
	}
	files := map[string][]byte{}
	for _, e := range ents {
		if e.Name() == "README.md" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		files[e.Name()] = b
	}
	return files
}
