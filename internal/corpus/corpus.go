// Package corpus reads the robots.txt corpus the tests share: 1,613 files
// served by popular sites (2019), one per host, in shared/corpus/robots
// beside the checkout. It is for tests only.
package corpus

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Dir is the corpus directory: ../shared/corpus/robots from the module
// root, found from this file's path so every package's tests agree.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "corpus", "robots")
}

// Robots returns every file of the corpus by name (its host), README.md
// left out. A missing corpus fails the test: it never skips.
func Robots(t testing.TB) map[string][]byte {
	t.Helper()
	ents, err := os.ReadDir(Dir())
	if err != nil || len(ents) == 0 {
		t.Fatalf("corpus missing (../shared must sit beside the checkout): %v", err)
	}
	files := map[string][]byte{}
	for _, e := range ents {
		if e.Name() == "README.md" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(Dir(), e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
	}
	return files
}
