package server

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// readTable reads testdata/name: one row per line, fields split by tabs,
// blank lines and lines starting with '#' skipped. Each row must have n
// fields.
func readTable(t *testing.T, name string, n int) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
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
		if len(row) != n {
			t.Fatalf("%s:%d: %d fields, want %d", name, ln, len(row), n)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no rows", name)
	}
	return rows
}

func atoiT(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// sizedBody returns a request body for endpoint of exactly size bytes: one
// JSON object whose longest string is padding.
func sizedBody(t *testing.T, endpoint string, size int) string {
	t.Helper()
	var head, tail string
	switch endpoint {
	case "/api/check":
		head, tail = `{"robots":"`, `","agent":"x","urls":["/"]}`
	case "/api/lint":
		head, tail = `{"robots":"`, `"}`
	case "/api/page":
		head, tail = `{"html":"`, `"}`
	default:
		t.Fatalf("no body for %s", endpoint)
	}
	pad := size - len(head) - len(tail)
	if pad < 0 {
		t.Fatalf("%d bytes is too small for %s", size, endpoint)
	}
	return head + strings.Repeat("a", pad) + tail
}

// TestBodyLimit: request bodies are read up to 1 MiB, the limit the docs
// state, counted in bytes written here rather than taken from MaxBody; the
// 413 answer names the limit.
func TestBodyLimit(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, row := range readTable(t, "body_limit.tsv", 4) {
		endpoint, size, status, msg := row[0], atoiT(t, row[1]), atoiT(t, row[2]), row[3]
		t.Run(endpoint+"/"+row[1], func(t *testing.T) {
			body := sizedBody(t, endpoint, size)
			if len(body) != size {
				t.Fatalf("body of %d bytes, want %d", len(body), size)
			}
			st, m := call(t, "POST", ts.URL+endpoint, body)
			if st != status {
				t.Fatalf("status %d, want %d (%.200v)", st, status, m)
			}
			if got, _ := m["error"].(string); got != msg {
				t.Errorf("error %q, want %q", got, msg)
			}
		})
	}
}

func TestSizeText(t *testing.T) {
	for _, row := range readTable(t, "size_text.tsv", 2) {
		if got := sizeText(atoiT(t, row[0])); got != row[1] {
			t.Errorf("sizeText(%s) = %q, want %q", row[0], got, row[1])
		}
	}
}
