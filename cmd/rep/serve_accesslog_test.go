package main

import "testing"

func TestParseAccessLog(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"off", -1, true}, {"all", 1, true}, {"sample 100", 100, true}, {"sample:5", 5, true},
		{"sample=1", 1, true}, {"SAMPLE 7", 7, true},
		{"sample 0", 0, false}, {"sample", 0, false}, {"sample -3", 0, false}, {"some", 0, false}, {"", 0, false},
	} {
		got, err := parseAccessLog(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("parseAccessLog(%q) = %d, %v; want %d ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
	if code, _, stderr := runRep(t, "", "serve", "-access-log", "sometimes"); code != exitUsage {
		t.Errorf("bad -access-log: exit %d (%s)", code, stderr)
	}
}
