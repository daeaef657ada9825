package verdict

import (
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
)

// TestViaCode checks the JSON codes of how a group was chosen, which
// scripts read (DecisionJSON.Via, rep diff's group).
func TestViaCode(t *testing.T) {
	for v, want := range map[robotstxt.Via]string{
		robotstxt.ViaNone: "none", robotstxt.ViaToken: "token", robotstxt.ViaFallback: "fallback",
		robotstxt.ViaStar: "star", robotstxt.ViaFetch: "fetch", robotstxt.ViaFetch + 1: "",
	} {
		if got := ViaCode(v); got != want {
			t.Errorf("ViaCode(%d) = %q, want %q", v, got, want)
		}
	}
}
