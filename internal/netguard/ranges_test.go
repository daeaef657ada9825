package netguard

import (
	"bufio"
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRangeEdges checks every special range at its edges (testdata/ranges.tsv):
// dropping or narrowing a range, or a multicast test, lets an address
// through.
func TestRangeEdges(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "ranges.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		addr, reason, ok := strings.Cut(l, "\t")
		if !ok {
			t.Fatalf("row %q has no tab", l)
		}
		rows++
		err := Check(netip.MustParseAddr(addr))
		var be *BlockedError
		switch {
		case reason == "-" && err != nil:
			t.Errorf("Check(%s) = %v, want allowed", addr, err)
		case reason != "-" && !errors.As(err, &be):
			t.Errorf("Check(%s) = %v, want blocked (%s)", addr, err, reason)
		case reason != "-" && be.Reason != reason:
			t.Errorf("Check(%s) reason %q, want %q", addr, be.Reason, reason)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if rows == 0 {
		t.Fatal("no rows in testdata/ranges.tsv")
	}
}
