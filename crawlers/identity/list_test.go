package identity

import (
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseListRejects(t *testing.T) {
	var f struct {
		Cases []struct {
			File       string   `json:"file"`
			Problems   []string `json:"problems"`
			Parsed     int      `json:"parsed"`
			NoPrefixes bool     `json:"no_prefixes"`
		} `json:"cases"`
	}
	readJSON(t, "testdata/list_cases.json", &f)
	for _, tc := range f.Cases {
		t.Run(tc.File, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata/lists", tc.File))
			if err != nil {
				t.Fatal(err)
			}
			l, err := ParseList("x", tc.File, b)
			var le *ListError
			if !errors.As(err, &le) {
				t.Fatalf("ParseList = %v, want a *ListError", err)
			}
			if !strings.HasPrefix(err.Error(), tc.File+": invalid IP-range list: ") {
				t.Errorf("error %q does not name its source", err)
			}
			var all []string
			for _, p := range le.Problems {
				all = append(all, p.String())
				// Problem.Index is documented as -1 for the whole file.
				if p.Index < -1 {
					t.Errorf("problem %q has index %d: a problem of the whole file has -1", p, p.Index)
				}
			}
			msg := strings.Join(all, "; ")
			for _, p := range tc.Problems {
				if !strings.Contains(msg, p) {
					t.Errorf("error %q lacks %q", msg, p)
				}
			}
			if got := errors.Is(err, ErrNoPrefixes); got != tc.NoPrefixes {
				t.Errorf("errors.Is(err, ErrNoPrefixes) = %v", got)
			}
			switch {
			case tc.Parsed < 0 && l != nil:
				t.Errorf("got a list from unparseable input")
			case tc.Parsed >= 0 && (l == nil || l.Len() != tc.Parsed):
				t.Errorf("parsed %v prefixes, want %d", l, tc.Parsed)
			}
		})
	}
}

func TestParseListTimes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"2026-03-16T15:46:38.000000", "2026-03-16T15:46:38Z"},        // Google, no zone
		{"2024-01-03T10:00:00.121331", "2024-01-03T10:00:00.121331Z"}, // Bing
		{"2026-10-07T00:00:00Z", "2026-10-07T00:00:00Z"},              // Anthropic
		{"2026-09-08T05:24:10.610952+00:00", "2026-09-08T05:24:10.610952Z"},
		{"2026-08-14T22:03:38+02:00", "2026-08-14T20:03:38Z"},
	} {
		l, err := ParseList("x", "t", []byte(`{"creationTime":"`+tc.in+`","prefixes":[{"ipv4Prefix":"1.2.3.0/24"}]}`))
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if got := l.Created.Format(time.RFC3339Nano); got != tc.want {
			t.Errorf("creationTime %s = %s, want %s", tc.in, got, tc.want)
		}
		if l.Date.Hour() != 0 || l.Date.Day() != l.Created.Day() {
			t.Errorf("Date %v is not the day of %v", l.Date, l.Created)
		}
	}
}

func TestLookup(t *testing.T) {
	l, err := ParseList("x", "t", []byte(`{"prefixes":[
		{"ipv4Prefix":"66.249.64.0/27"},{"ipv4Prefix":"66.249.64.5/32"},{"ipv4Prefix":"66.249.64.0/27"},
		{"ipv4Prefix":"10.0.0.0/8"},{"ipv4Prefix":"255.255.255.255/32"},{"ipv4Prefix":"66.249.64.70/31"},
		{"ipv6Prefix":"2001:4860:4801:10::/64"},{"ipv6Prefix":"2001:db8::/32"},{"ipv6Prefix":"2001:db8:1::/48"},
		{"ipv6Prefix":"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128"},{"ipv6Prefix":"2600::/16"},{"ipv4Prefix":"66.249.64.33/27"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if l.Len() != 9 {
		t.Errorf("Len = %d, want 9 (duplicates and nested prefixes folded): %v", l.Len(), l.Prefixes())
	}
	for _, tc := range []struct{ ip, want string }{
		{"66.249.64.0", "66.249.64.0/27"},
		{"66.249.64.31", "66.249.64.0/27"},
		{"66.249.64.5", "66.249.64.0/27"},
		{"66.249.64.32", "66.249.64.32/27"}, // host bits were masked
		{"66.249.64.64", ""},
		{"66.249.64.70", "66.249.64.70/31"},
		{"66.249.64.71", "66.249.64.70/31"},
		{"66.249.64.72", ""},
		{"10.255.255.255", "10.0.0.0/8"},
		{"11.0.0.0", ""},
		{"255.255.255.255", "255.255.255.255/32"},
		{"0.0.0.0", ""},
		{"::ffff:66.249.64.1", "66.249.64.0/27"},
		{"2001:4860:4801:10::1", "2001:4860:4801:10::/64"},
		{"2001:4860:4801:10:ffff:ffff:ffff:ffff", "2001:4860:4801:10::/64"},
		{"2001:4860:4801:11::", ""},
		{"2001:db8:1::1", "2001:db8::/32"},
		{"2001:db9::", ""},
		{"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128"},
		{"2600:ffff::1", "2600::/16"},
		{"::", ""},
	} {
		p, ok := l.Lookup(netip.MustParseAddr(tc.ip))
		got := ""
		if ok {
			got = p.String()
		}
		if got != tc.want {
			t.Errorf("Lookup(%s) = %q, want %q", tc.ip, got, tc.want)
		}
	}
	if _, ok := l.Lookup(netip.Addr{}); ok {
		t.Error("Lookup(zero Addr) found a prefix")
	}
}

// TestSnapshots checks the embedded snapshots against their provenance
// record: every file listed and parsed, counts and dates agreeing, every
// list ID known to the registry, and the dated versions ordered.
func TestSnapshots(t *testing.T) {
	src := Sources()
	if len(src) < 8 {
		t.Fatalf("only %d snapshots", len(src))
	}
	files, _ := filepath.Glob("snapshots/*/*.json")
	if len(files) != len(src) {
		t.Errorf("%d snapshot files but %d entries in sources.json", len(files), len(src))
	}
	r := Embedded()
	for _, s := range src {
		if s.Repository == "" || s.Path == "" || len(s.Commit) != 40 || s.Note == "" {
			t.Errorf("%s: incomplete provenance %+v", s.File, s)
		}
		l := findVersion(r, s.List, s.Date)
		if l == nil {
			t.Errorf("%s: no list %s dated %s", s.File, s.List, s.Date)
			continue
		}
		if l.Len() != s.Prefixes {
			t.Errorf("%s: %d prefixes, sources.json says %d", s.File, l.Len(), s.Prefixes)
		}
		if s.CreationTime != "" {
			ct, err := parseCreationTime(s.CreationTime)
			if err != nil || !ct.Equal(l.Created) {
				t.Errorf("%s: creationTime %v, sources.json says %s", s.File, l.Created, s.CreationTime)
			}
		}
		if !strings.HasPrefix(s.File, s.List+"/"+s.Date) {
			t.Errorf("%s: file name does not match list %s and date %s", s.File, s.List, s.Date)
		}
	}
	for _, id := range r.IDs() {
		vs := r.Versions(id)
		for i := 1; i < len(vs); i++ {
			if !vs[i-1].Date.Before(vs[i].Date) {
				t.Errorf("%s: versions out of order", id)
			}
		}
	}
}

// TestSnapshotDates: one date per list with a snapshot, the newest
// snapshot's, as sources.json records it.
func TestSnapshotDates(t *testing.T) {
	want := map[string]string{}
	for _, s := range Sources() {
		want[s.List] = max(want[s.List], s.Date)
	}
	got := SnapshotDates()
	if len(got) != len(want) {
		t.Errorf("%d dates for %d lists with snapshots", len(got), len(want))
	}
	for id, d := range want {
		if g := got[id].Format(time.DateOnly); g != d {
			t.Errorf("%s: %s, want %s (its newest snapshot)", id, g, d)
		}
	}
	if g := got["google-common"].Format(time.DateOnly); g != "2026-03-16" {
		t.Errorf("google-common: %s, want 2026-03-16 (not the 2022 snapshot)", g)
	}
}

func findVersion(r *Ranges, id, date string) *List {
	for _, l := range r.Versions(id) {
		if l.Date.Format(time.DateOnly) == date {
			return l
		}
	}
	return nil
}

func TestRangesAt(t *testing.T) {
	mk := func(date string, prefix string) *List {
		l, err := ParseList("g", date, []byte(`{"creationTime":"`+date+`T12:00:00Z","prefixes":[{"ipv4Prefix":"`+prefix+`"}]}`))
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	a, b, b2 := mk("2024-01-01", "1.0.0.0/24"), mk("2025-01-01", "2.0.0.0/24"), mk("2025-01-01", "3.0.0.0/24")
	r := NewRanges(b, a).Merge(NewRanges(b2))
	for _, tc := range []struct {
		at       string
		want     *List
		predates bool
	}{
		{"", b2, true},
		{"2023-06-01", a, false},
		{"2024-01-01", a, true},
		{"2024-12-31", a, true},
		{"2025-01-01", b2, true},
		{"2030-01-01", b2, true},
	} {
		var at time.Time
		if tc.at != "" {
			at, _ = time.Parse(time.DateOnly, tc.at)
		}
		got, predates := r.At("g", at)
		if got != tc.want || predates != tc.predates {
			t.Errorf("At(%q) = %v %v, want %v %v", tc.at, got.Date, predates, tc.want.Date, tc.predates)
		}
	}
	if l, ok := r.At("none", time.Time{}); l != nil || ok {
		t.Errorf("At(unknown list) = %v, %v; want nil, false", l, ok)
	}
}

func FuzzParseList(f *testing.F) {
	for _, fn := range []string{"snapshots/bing/2024-01-03.json", "snapshots/commoncrawl/2026-07-02.json", "testdata/lists/bad-entries.json", "testdata/lists/action-needed.json"} {
		b, err := os.ReadFile(fn)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ParseList("f", "fuzz", data)
		if err == nil && (l == nil || l.Len() == 0) {
			t.Fatal("accepted a list without prefixes")
		}
		if l == nil {
			return
		}
		for _, p := range l.Prefixes() {
			if p.Bits() < 8 || !p.IsValid() {
				t.Fatalf("kept prefix %v", p)
			}
			got, ok := l.Lookup(p.Addr())
			if !ok || got != p {
				t.Fatalf("Lookup(%v) = %v %v, want %v", p.Addr(), got, ok, p)
			}
		}
	})
}
