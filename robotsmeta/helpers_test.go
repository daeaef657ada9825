package robotsmeta

import (
	"flag"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

func mustTime(t testing.TB, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
