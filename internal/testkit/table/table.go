// Package table reads the tab-separated tables of testdata that the tests
// run row by row: one row per line, fields split by tabs, blank lines and
// lines starting with '#' skipped.
package table

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// Read returns the rows of the table at path, failing the test when the
// file cannot be read, a row has other than n fields (n > 0), or there is
// no row at all.
func Read(tb testing.TB, path string, n int) [][]string {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for ln := 1; sc.Scan(); ln++ {
		l := sc.Text()
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		row := strings.Split(l, "\t")
		if n > 0 && len(row) != n {
			tb.Fatalf("%s:%d: %d fields, want %d", path, ln, len(row), n)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	if len(rows) == 0 {
		tb.Fatalf("%s: no rows", path)
	}
	return rows
}
