package robotsmeta

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/internal/testkit/table"
)

func TestParseDate(t *testing.T) {
	tests := []struct {
		in   string
		want string // RFC 3339 UTC, "" = invalid
	}{
		// Google's spec example: PST is -08:00, not time.Parse's +00:00.
		{"25 Jun 2010 15:00:00 PST", "2010-06-25T23:00:00Z"},
		{"25 Jun 2010 15:00:00 PDT", "2010-06-25T22:00:00Z"},
		{"Fri, 25 Jun 2010 15:00:00 GMT", "2010-06-25T15:00:00Z"},
		{"Friday, 25-Jun-10 15:00:00 EST", "2010-06-25T20:00:00Z"},
		{"25-Aug-2007 15:00:00 EST", "2007-08-25T20:00:00Z"},
		{"Sun, 06 Nov 1994 08:49:37 GMT", "1994-11-06T08:49:37Z"},
		{"Sunday, 06-Nov-94 08:49:37 GMT", "1994-11-06T08:49:37Z"},
		{"06-Nov-49 08:49:37 GMT", "2049-11-06T08:49:37Z"},
		{"Sun Nov  6 08:49:37 1994", "1994-11-06T08:49:37Z"},
		{"25 Jun 2010 15:00 +0200", "2010-06-25T13:00:00Z"},
		{"25 Jun 2010 15:00:00 -0130", "2010-06-25T16:30:00Z"},
		{"25 Jun 2010", "2010-06-25T00:00:00Z"},
		{"25 June 2010 15:00:00 UT", "2010-06-25T15:00:00Z"},
		{"25 jun 2010 15:00:00 pst", "2010-06-25T23:00:00Z"},
		{"25 Jun 2010 15:00:00 CET", "2010-06-25T14:00:00Z"},
		{"25 Jun 2010 15:00:00 Z", "2010-06-25T15:00:00Z"},
		{"25 Jun 2010 15:00:00 A", "2010-06-25T15:00:00Z"}, // RFC 5322: military zones are -0000
		{"2020-09-21", "2020-09-21T00:00:00Z"},
		{"2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z"},
		{"2030-01-01T10:00:00+02:00", "2030-01-01T08:00:00Z"},
		{"2030-01-01T10:00:00+0530", "2030-01-01T04:30:00Z"},
		{"2030-01-01T10:00:00-05", "2030-01-01T15:00:00Z"},
		{"2030-01-01T10:00:00.5Z", "2030-01-01T10:00:00.5Z"},
		{"2030-01-01 10:00:00", "2030-01-01T10:00:00Z"},
		{"2030-01-01T10:00", "2030-01-01T10:00:00Z"},
		{"2030-01-01 10:00:00 PST", "2030-01-01T18:00:00Z"},
		{"  2030-01-01  ", "2030-01-01T00:00:00Z"},
		// Invalid: ignored by Google ("invalid ⇒ ignored").
		{"", ""},
		{"tomorrow", ""},
		{"not-a-date", ""},
		{"2030-02-30", ""},
		{"2030-13-01", ""},
		{"2030-01-01T25:00:00Z", ""},
		{"2030-01-01X", ""},
		{"25 Jun 2010 15:00:00 XYZ", ""},
		{"25 Jun 2010 15:00:00 IST", ""}, // ambiguous: India, Ireland, Israel
		{"25 Foo 2010", ""},
		{"25 Jun 201 15:00", ""},
		{"25 Jun 2010 15:00:00:00 GMT", ""},
		{"25 Jun 2010 15:00:00 GMT extra", ""},
		{"32 Jan 2010", ""},
		{"25 Jun 2010 15:00:00 +2500", ""},
	}
	for _, tt := range tests {
		got, ok := ParseDate(tt.in)
		if tt.want == "" {
			if ok {
				t.Errorf("ParseDate(%q) = %v, want invalid", tt.in, got)
			}
			continue
		}
		want, err := time.Parse(time.RFC3339Nano, tt.want)
		if err != nil {
			t.Fatal(err)
		}
		if !ok || !got.Equal(want) {
			t.Errorf("ParseDate(%q) = %v, %v; want %v", tt.in, got, ok, want)
		}
		if ok && got.Location() != time.UTC {
			t.Errorf("ParseDate(%q) location %v, want UTC", tt.in, got.Location())
		}
	}
}

// TestParseDateTables reads testdata/dates/*.tsv: each value, the instant
// it names (or "invalid") and how the parser qualifies it for lint (notes
// joined by "+").
func TestParseDateTables(t *testing.T) {
	notes := map[string]dateNote{
		"exact": dateExact, "no-zone": dateNoZone, "other-zone": dateOtherZone,
		"military": dateMilitary, "two-digit-year": dateTwoDigitYYY,
	}
	files, err := filepath.Glob(filepath.Join("testdata", "dates", "*.tsv"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no date tables: %v", err)
	}
	for _, file := range files {
		for _, row := range table.Read(t, file, 3) {
			in := row[0]
			got, note, ok := parseDate(in)
			if pub, pubOK := ParseDate(in); pubOK != ok || !pub.Equal(got) {
				t.Errorf("%s: ParseDate(%q) = %v, %v; parseDate gave %v, %v", file, in, pub, pubOK, got, ok)
			}
			if row[1] == "invalid" {
				if ok {
					t.Errorf("%s: ParseDate(%q) = %v, want invalid", file, in, got)
				}
				continue
			}
			want, err := time.Parse(time.RFC3339Nano, row[1])
			if err != nil {
				t.Fatalf("%s: %q: %v", file, row[1], err)
			}
			var wantNote dateNote
			for _, name := range strings.Split(row[2], "+") {
				n, known := notes[name]
				if !known {
					t.Fatalf("%s: unknown note %q", file, name)
				}
				wantNote |= n
			}
			if !ok || !got.Equal(want) || got.Location() != time.UTC {
				t.Errorf("%s: ParseDate(%q) = %v, %v; want %v", file, in, got, ok, want)
			}
			if note != wantNote {
				t.Errorf("%s: ParseDate(%q) note %d, want %s", file, in, note, row[2])
			}
		}
	}
}
