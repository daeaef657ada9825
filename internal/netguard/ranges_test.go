package netguard

import (
	"errors"
	"net/netip"
	"path/filepath"
	"testing"

	"github.com/rep-toolkit/rep/internal/testkit/table"
)

// TestRangeEdges checks every special range at its edges (testdata/ranges.tsv):
// dropping or narrowing a range, or a multicast test, lets an address
// through.
func TestRangeEdges(t *testing.T) {
	for _, row := range table.Read(t, filepath.Join("testdata", "ranges.tsv"), 2) {
		addr, reason := row[0], row[1]
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
}
