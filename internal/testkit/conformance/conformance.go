// Package conformance reads the conformance vectors kept in the
// repository's testdata/conformance for tests: the page-level vectors of
// page-level.json (robots meta tags and X-Robots-Tag headers, from the
// engines' documentation) and the directory that also holds the robots.txt
// vectors of peer implementations. testdata/conformance/README.md explains
// the fields and gives each vector set's source, licence and attribution.
package conformance

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// PageVector is one page-level vector.
type PageVector struct {
	Name    string          `json:"name"`
	Profile string          `json:"profile"`
	Agent   string          `json:"agent"`
	Now     string          `json:"now"`
	Headers []string        `json:"headers"`
	HTML    string          `json:"html"`
	Expect  json.RawMessage `json:"expect"`
	Basis   string          `json:"basis"`
	Source  string          `json:"source"`
	Note    string          `json:"note"`
}

// Dir is the conformance directory, testdata/conformance at the module's
// root, found from this file's place in it.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "conformance")
}

// PageVectors reads every page-level vector; a missing or empty file fails
// the test (never a skip).
func PageVectors(tb testing.TB) []PageVector {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(Dir(), "page-level.json"))
	if err != nil {
		tb.Fatalf("page-level vectors are missing (testdata/conformance): %v", err)
	}
	var vs []PageVector
	if err := json.Unmarshal(data, &vs); err != nil {
		tb.Fatalf("page-level.json: %v", err)
	}
	if len(vs) == 0 {
		tb.Fatal("page-level.json holds no vectors")
	}
	return vs
}
