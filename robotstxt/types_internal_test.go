package robotstxt

import (
	"math"
	"testing"
)

// TestItoa: itoa writes an int in decimal as strconv.Itoa does, sign
// included (no caller passes a negative number today).
func TestItoa(t *testing.T) {
	for n, want := range map[int]string{
		0: "0", 7: "7", 10: "10", 16663: "16663", -1: "-1", -42: "-42",
		math.MaxInt64: "9223372036854775807", -math.MaxInt64: "-9223372036854775807",
	} {
		if got := itoa(n); got != want {
			t.Errorf("itoa(%d) = %q, want %q", n, got, want)
		}
	}
}
