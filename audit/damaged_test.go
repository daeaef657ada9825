package audit

import (
	"errors"
	"testing"
)

// TestMergeRefusesDamaged: a part with a count no audit writes (negative,
// or a crawler with more requests than its part) is refused with a
// *DamagedError naming the part and the field, instead of being summed.
func TestMergeRefusesDamaged(t *testing.T) {
	good := func() *Report {
		return &Report{Schema: SchemaVersion, Lines: 10, Requests: 10, Sources: []string{"a.log"},
			Crawlers: []*Crawler{{Name: "Googlebot", Requests: 4, Spoofed: 1, Status: map[string]int64{"200": 4}}}}
	}
	for _, tt := range []struct {
		name  string
		spoil func(r *Report)
		field string
	}{
		{"negative requests", func(r *Report) { r.Requests = -5 }, "requests"},
		{"negative spoofed", func(r *Report) { r.Crawlers[0].Spoofed = -1 }, "crawlers[Googlebot].spoofed"},
		{"negative status", func(r *Report) { r.Crawlers[0].Status["200"] = -4 }, "crawlers[Googlebot].status[200]"},
		{"negative path", func(r *Report) { r.Crawlers[0].TopPaths = []PathCount{{Path: "/x", Count: -2}} }, "crawlers[Googlebot].top_paths[/x].count"},
		{"negative verified_by", func(r *Report) { r.Crawlers[0].VerifiedBy = map[string]int64{"signature": -1} }, "crawlers[Googlebot].verified_by[signature]"},
		{"negative invalid signatures", func(r *Report) { r.Crawlers[0].Signatures = &Signatures{Invalid: -3} }, "crawlers[Googlebot].signatures.invalid"},
		{"negative signature reason", func(r *Report) {
			r.Crawlers[0].Signatures = &Signatures{Reasons: map[string]int64{"expired": -1}}
		}, "crawlers[Googlebot].signatures.reasons[expired]"},
		{"crawler over its part", func(r *Report) { r.Crawlers[0].Requests = 11 }, "crawlers[Googlebot].requests"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bad := good()
			bad.Sources = []string{"b.log"}
			bad.First = bad.First.AddDate(0, 0, 1)
			tt.spoil(bad)
			_, err := Merge(10, good(), bad)
			var de *DamagedError
			if !errors.As(err, &de) || de.Part != 1 || de.Field != tt.field {
				t.Fatalf("Merge = %v; want a *DamagedError for part 2, field %s", err, tt.field)
			}
		})
	}
	if _, err := Merge(10, good()); err != nil {
		t.Errorf("a sound part: %v", err)
	}
}
