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
		{"negative lines", func(r *Report) { r.Lines = -1 }, "lines"},
		{"negative bad lines", func(r *Report) { r.BadLines = -1 }, "bad_lines"},
		{"negative other", func(r *Report) { r.Other = -1 }, "other_requests"},
		{"negative other host", func(r *Report) { r.OtherHost = -1 }, "other_host_requests"},
		{"negative no user agent", func(r *Report) { r.NoUserAgent = -1 }, "no_user_agent_requests"},
		{"negative verify errors", func(r *Report) { r.VerifyErrors = -1 }, "verify_errors"},
		{"null crawler", func(r *Report) { r.Crawlers = append(r.Crawlers, nil) }, "crawlers[1]"},
		{"negative crawler requests", func(r *Report) { r.Crawlers[0].Requests = -1 }, "crawlers[Googlebot].requests"},
		{"negative bytes", func(r *Report) { r.Crawlers[0].Bytes = -1 }, "crawlers[Googlebot].bytes"},
		{"negative verified", func(r *Report) { r.Crawlers[0].Verified = -1 }, "crawlers[Googlebot].verified"},
		{"negative unverifiable", func(r *Report) { r.Crawlers[0].Unverifiable = -1 }, "crawlers[Googlebot].unverifiable"},
		{"negative rdns only", func(r *Report) { r.Crawlers[0].RDNSOnly = -1 }, "crawlers[Googlebot].rdns_only"},
		{"negative unchecked", func(r *Report) { r.Crawlers[0].Unchecked = -1 }, "crawlers[Googlebot].unchecked"},
		{"negative robots fetches", func(r *Report) { r.Crawlers[0].RobotsFetches = -1 }, "crawlers[Googlebot].robots_fetches"},
		{"negative disallowed", func(r *Report) { r.Crawlers[0].DisallowedRequests = -1 }, "crawlers[Googlebot].disallowed_requests"},
		{"negative disallowed spoofed", func(r *Report) { r.Crawlers[0].SpoofedDisallowed = -1 }, "crawlers[Googlebot].disallowed_spoofed"},
		{"negative grace", func(r *Report) { r.Crawlers[0].GraceRequests = -1 }, "crawlers[Googlebot].grace_requests"},
		{"negative day", func(r *Report) { r.Crawlers[0].Days = map[string]int64{"2026-03-01": -1} }, "crawlers[Googlebot].days[2026-03-01]"},
		{"negative robots status", func(r *Report) { r.Crawlers[0].RobotsStatus = map[string]int64{"404": -1} }, "crawlers[Googlebot].robots_status[404]"},
		{"negative verified signatures", func(r *Report) { r.Crawlers[0].Signatures = &Signatures{Verified: -1} }, "crawlers[Googlebot].signatures.verified"},
		{"negative unverified signatures", func(r *Report) { r.Crawlers[0].Signatures = &Signatures{Unverified: -1} }, "crawlers[Googlebot].signatures.unverified"},
		{"negative violation", func(r *Report) { r.Crawlers[0].Violations = []Violation{{Line: 2, Count: -1}} }, "crawlers[Googlebot].violations[line 2].count"},
		{"negative spoofer", func(r *Report) { r.Crawlers[0].SpoofedFrom = []IPCount{{IP: "192.0.2.1", Count: -1}} }, "crawlers[Googlebot].spoofed_from[192.0.2.1].count"},
		{"crawler as large as its part", func(r *Report) { r.Crawlers[0].Requests = 10 }, ""},
		{"zero counts", func(r *Report) {
			r.Other, r.Crawlers[0].Verified = 0, 0
			r.Crawlers[0].Days = map[string]int64{"2026-03-01": 0}
			r.Crawlers[0].Signatures = &Signatures{Reasons: map[string]int64{"expired": 0}}
			r.Crawlers[0].Violations = []Violation{{Line: 2}}
			r.Crawlers[0].TopPaths = []PathCount{{Path: "/x"}}
			r.Crawlers[0].SpoofedFrom = []IPCount{{IP: "192.0.2.1"}}
		}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bad := good()
			bad.Sources = []string{"b.log"}
			bad.First = bad.First.AddDate(0, 0, 1)
			tt.spoil(bad)
			_, err := Merge(10, good(), bad)
			if tt.field == "" {
				if err != nil {
					t.Fatalf("Merge = %v; want a merge", err)
				}
				return
			}
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
