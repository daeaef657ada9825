package audit

import (
	"errors"
	"testing"
	"time"
)

// TestMergeHistories: two parts were judged alike when their versions go
// live at the same times with the same rules (by digest when both parts
// have one, else by source); the refusal names each part's versions, with
// the first 12 digits of the digests when only those tell them apart.
func TestMergeHistories(t *testing.T) {
	day2 := day1.AddDate(0, 0, 1)
	part := func(lines int64, robots ...RobotsInfo) *Report {
		return &Report{Schema: SchemaVersion, Lines: lines, Robots: robots}
	}
	for _, tt := range []struct {
		name string
		a, b []RobotsInfo
		want string // "": they merge
	}{
		{"same digests, other sources", []RobotsInfo{{Source: "a.txt", Rules: "0123456789abcdef"}}, []RobotsInfo{{Source: "b.txt", Rules: "0123456789abcdef"}}, ""},
		{"one without a digest, same source", []RobotsInfo{{Source: "robots.txt", Rules: "0123456789abcdef"}}, []RobotsInfo{{Source: "robots.txt"}}, ""},
		{"one without a digest, other source", []RobotsInfo{{Source: "robots.txt", Rules: "0123456789abcdef"}}, []RobotsInfo{{Source: "other.txt"}},
			"part 1: robots.txt; part 2: other.txt"},
		{"other digests, same source", []RobotsInfo{{Source: "robots.txt", Rules: "0123456789abcdef"}}, []RobotsInfo{{Source: "robots.txt", Rules: "fedcba9876543210"}},
			"part 1: robots.txt (rules 0123456789ab); part 2: robots.txt (rules fedcba987654)"},
		{"short digests", []RobotsInfo{{Source: "robots.txt", Rules: "abc"}}, []RobotsInfo{{Source: "robots.txt", Rules: "abd"}},
			"part 1: robots.txt (rules abc); part 2: robots.txt (rules abd)"},
		{"other times", []RobotsInfo{{Source: "a.txt", Rules: "aa"}, {Since: day1, Source: "b.txt", Rules: "bb"}},
			[]RobotsInfo{{Source: "a.txt", Rules: "aa"}, {Since: day2, Source: "b.txt", Rules: "bb"}},
			"part 1: a.txt, b.txt from 2026-03-01T00:00:00Z; part 2: a.txt, b.txt from 2026-03-02T00:00:00Z"},
	} {
		_, err := Merge(0, part(1, tt.a...), part(2, tt.b...))
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: %v; want a merge", tt.name, err)
			}
			continue
		}
		want := "part 1 and part 2 were audited against different robots.txt histories (" + tt.want +
			"): a request one counts as disallowed the other may count as allowed, so the merged counts would follow neither"
		if me, ok := errors.AsType[*MergeError](err); !ok || me.Kind != RobotsDiffer || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", tt.name, err, want)
		}
	}
	// The grace periods differ too.
	a, b := part(1), part(2)
	b.Grace = Duration(time.Hour)
	if _, err := Merge(0, a, b); err == nil || err.Error() != "part 1 and part 2 were audited against different robots.txt histories (grace 0s in part 1, 1h0m0s in part 2): a request one counts as disallowed the other may count as allowed, so the merged counts would follow neither" {
		t.Errorf("other grace: %v", err)
	}
}

// TestDamagedErrorText: the error names the part from 1, the field, its
// value and what to do.
func TestDamagedErrorText(t *testing.T) {
	for _, tt := range []struct {
		err  *DamagedError
		want string
	}{
		{&DamagedError{Part: 1, Field: "crawlers[1]", Why: "null"}, "part 2: crawlers[1] is null: rep never writes that, so the report is damaged or was edited; audit that part of the log again"},
		{&DamagedError{Part: 0, Field: "requests", Value: -5, Why: "negative"}, "part 1: requests is -5 (negative): rep never writes that, so the report is damaged or was edited; audit that part of the log again"},
	} {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}
