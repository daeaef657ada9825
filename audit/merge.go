package audit

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/accesslog"
)

func sortEdges(e []Edge) {
	sort.Slice(e, func(i, j int) bool { return e[i].Host < e[j].Host })
}

// Merge combines the Reports of parts of a log into the Report of the
// whole. Parts are ordered by their first request, and the Crawl-delay gap
// between one part's last request and the next part's first is checked as
// if the parts had been read as one, so splitting a log at line boundaries
// and merging the parts' Reports gives the Report of the unsplit log
// (top-k paths exactly so while each crawler has at most TopK distinct
// paths; beyond that they are Space-Saving estimates with error bounds).
// topK bounds the merged path lists (0: 1000).
//
// Merge refuses, with a *MergeError, the same part given twice and parts
// judged against different robots.txt histories or grace periods (see
// MergeWith to merge the latter anyway), and, with a *DamagedError, a part
// with a negative count or a crawler with more requests than the part.
func Merge(topK int, parts ...*Report) (*Report, error) {
	return MergeWith(MergeOptions{TopK: topK}, parts...)
}

// MergeOptions configure MergeWith.
type MergeOptions struct {
	// TopK bounds the merged path lists (0: 1000).
	TopK int
	// MixedRobots merges parts judged against different robots.txt
	// histories or grace periods instead of refusing them. The merged
	// Report lists every part's versions and has MixedRobots set.
	MixedRobots bool
}

// MergeWith is Merge with options.
func MergeWith(opt MergeOptions, parts ...*Report) (*Report, error) {
	topK := opt.TopK
	if topK <= 0 {
		topK = 1000
	}
	for i, p := range parts {
		if p.Schema != SchemaVersion {
			return nil, fmt.Errorf("report schema %d, want %d (made by another version of rep)", p.Schema, SchemaVersion)
		}
		if err := checkPart(i, p); err != nil {
			return nil, err
		}
	}
	if err := samePart(parts); err != nil {
		return nil, err
	}
	mixed := false // a merged part that was mixed keeps the mark
	for _, p := range parts {
		mixed = mixed || p.MixedRobots
	}
	for i := 1; i < len(parts); i++ {
		if sameHistory(parts[0], parts[i]) {
			continue
		}
		if !opt.MixedRobots {
			return nil, &MergeError{Kind: RobotsDiffer, A: 0, B: i, a: parts[0], b: parts[i]}
		}
		mixed = true
	}
	ps := append([]*Report(nil), parts...)
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Requests == 0 || ps[j].Requests == 0 {
			return ps[i].Requests > ps[j].Requests
		}
		return ps[i].First.Before(ps[j].First)
	})
	out := &Report{Schema: SchemaVersion, Crawlers: []*Crawler{}}
	byName := map[string]*Crawler{}
	for i, p := range ps {
		if i == 0 {
			out.Grace, out.Verify, out.Robots = p.Grace, p.Verify, p.Robots
		} else if p.Verify != out.Verify {
			out.Verify = "mixed"
		}
		out.VerifyErrors += p.VerifyErrors
		if out.VerifyError == "" {
			out.VerifyError = p.VerifyError
		}
		out.Sources = append(out.Sources, p.Sources...)
		out.Lines += p.Lines
		out.BadLines += p.BadLines
		for _, b := range p.BadSamples {
			if len(out.BadSamples) < accesslog.MaxSamples {
				out.BadSamples = append(out.BadSamples, b)
			}
		}
		out.Requests += p.Requests
		out.Other += p.Other
		out.OtherHost += p.OtherHost
		out.NoUserAgent += p.NoUserAgent
		if p.Requests > 0 {
			if out.First.IsZero() || p.First.Before(out.First) {
				out.First = p.First
			}
			if p.Last.After(out.Last) {
				out.Last = p.Last
			}
		}
		for _, c := range p.Crawlers {
			if c == nil {
				continue // "null" in a hand-edited or damaged file
			}
			m := byName[c.Name]
			if m == nil {
				cp := *c
				cp.Status = copyMap(c.Status)
				cp.Days = copyMap(c.Days)
				cp.RobotsStatus = copyMap(c.RobotsStatus)
				cp.VerifiedBy = copyMap(c.VerifiedBy)
				cp.Signatures = nil
				mergeSignatures(&cp, c.Signatures)
				cp.Violations = append([]Violation(nil), c.Violations...)
				cp.TopPaths = append([]PathCount(nil), c.TopPaths...)
				cp.Edges = append([]Edge(nil), c.Edges...)
				cp.SpoofedFrom = append([]IPCount(nil), c.SpoofedFrom...)
				if c.CrawlDelay != nil {
					d := *c.CrawlDelay
					cp.CrawlDelay = &d
				}
				byName[c.Name] = &cp
				out.Crawlers = append(out.Crawlers, &cp)
				continue
			}
			mergeCrawler(m, c, topK)
		}
	}
	if mixed {
		out.MixedRobots = true
		out.Robots = unionRobots(parts)
	}
	sortCrawlers(out.Crawlers)
	return out, nil
}

func copyMap(m map[string]int64) map[string]int64 {
	if m == nil {
		return nil
	}
	c := make(map[string]int64, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func addMap(dst *map[string]int64, src map[string]int64) {
	if len(src) == 0 {
		return
	}
	if *dst == nil {
		*dst = map[string]int64{}
	}
	for k, v := range src {
		(*dst)[k] += v
	}
}

func minTime(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

// mergeCrawler adds c (a later part) into m.
func mergeCrawler(m, c *Crawler, topK int) {
	m.Requests += c.Requests
	m.Bytes += c.Bytes
	m.Verified += c.Verified
	m.Spoofed += c.Spoofed
	m.Unverifiable += c.Unverifiable
	m.RDNSOnly += c.RDNSOnly
	m.Unchecked += c.Unchecked
	addMap(&m.VerifiedBy, c.VerifiedBy)
	mergeSignatures(m, c.Signatures)
	m.SpoofedFrom = mergeIPs(m.SpoofedFrom, c.SpoofedFrom, topK)
	addMap(&m.Status, c.Status)
	addMap(&m.Days, c.Days)
	m.RobotsFetches += c.RobotsFetches
	addMap(&m.RobotsStatus, c.RobotsStatus)
	m.FirstRequest = minTime(m.FirstRequest, c.FirstRequest)
	m.FirstRobotsFetch = minTime(m.FirstRobotsFetch, c.FirstRobotsFetch)
	m.DisallowedRequests += c.DisallowedRequests
	m.SpoofedDisallowed += c.SpoofedDisallowed
	m.GraceRequests += c.GraceRequests
	m.Violations = mergeViolations(m.Violations, c.Violations)
	m.TopPaths = mergePaths(m.TopPaths, c.TopPaths, topK)

	// Crawl-delay: add the part's counts, then the gap across the seam for
	// every host both parts saw, judged by the delay in force at the later
	// request.
	if c.CrawlDelay != nil {
		if m.CrawlDelay == nil {
			d := *c.CrawlDelay
			m.CrawlDelay = &d
		} else {
			addDelay(m.CrawlDelay, c.CrawlDelay)
		}
	}
	edges := map[string]int{}
	for i, e := range m.Edges {
		edges[e.Host] = i
	}
	for _, e := range c.Edges {
		i, ok := edges[e.Host]
		if !ok {
			m.Edges = append(m.Edges, e)
			continue
		}
		me := &m.Edges[i]
		if e.First >= me.Last && e.FirstDelay > 0 {
			if m.CrawlDelay == nil {
				m.CrawlDelay = &DelayStats{}
			}
			g := e.First - me.Last
			seam := DelayStats{Delay: time.Duration(e.FirstDelay).Seconds(), CheckedGaps: 1, Shortest: time.Duration(g).Seconds()}
			if g < e.FirstDelay {
				seam.TooFast = 1
			}
			addDelay(m.CrawlDelay, &seam)
		}
		me.First = min(me.First, e.First)
		me.Last = max(me.Last, e.Last)
	}
	sortEdges(m.Edges)
}

// mergeSignatures adds g into m's Signatures, copying what it keeps.
func mergeSignatures(m *Crawler, g *Signatures) {
	if g == nil {
		return
	}
	if m.Signatures == nil {
		m.Signatures = &Signatures{}
	}
	o := m.Signatures
	o.Verified += g.Verified
	o.Invalid += g.Invalid
	o.Unverified += g.Unverified
	addMap(&o.Reasons, g.Reasons)
	if f := g.FirstInvalid; f != nil && (o.FirstInvalid == nil || f.Time.Before(o.FirstInvalid.Time)) {
		p := *f
		o.FirstInvalid = &p
	}
}

func addDelay(d, e *DelayStats) {
	if e.CheckedGaps > 0 && (d.CheckedGaps == 0 || e.Shortest < d.Shortest) {
		d.Shortest = e.Shortest
	}
	d.Delay = max(d.Delay, e.Delay)
	d.CheckedGaps += e.CheckedGaps
	d.TooFast += e.TooFast
}

func mergeViolations(a, b []Violation) []Violation {
	type key struct {
		robots string
		since  time.Time
		line   int
	}
	idx := map[key]int{}
	out := append([]Violation(nil), a...)
	for i, v := range out {
		idx[key{v.Robots, v.Since, v.Line}] = i
	}
	for _, v := range b {
		k := key{v.Robots, v.Since, v.Line}
		if i, ok := idx[k]; ok {
			out[i].Count += v.Count
			if v.First.Before(out[i].First) {
				out[i].First, out[i].Example = v.First, v.Example
			}
			continue
		}
		idx[k] = len(out)
		out = append(out, v)
	}
	sortViolations(out)
	return out
}

// ConflictKind says why two parts do not merge.
type ConflictKind int

const (
	// SamePart: both Reports cover the same lines (the same counts and the
	// same first and last request), so merging would count them twice.
	SamePart ConflictKind = iota + 1
	// RobotsDiffer: the parts were judged against different robots.txt
	// histories or grace periods, so a request one part counts as
	// disallowed the other might count as allowed, and their sums mean
	// neither.
	RobotsDiffer
)

// MergeError is the error Merge returns when two of its parts do not
// merge. A and B index the parts as given to Merge.
type MergeError struct {
	Kind ConflictKind
	A, B int
	a, b *Report
}

// Error describes the conflict, naming each part by its number and its
// Sources.
func (e *MergeError) Error() string {
	name := func(i int, r *Report) string {
		if len(r.Sources) == 0 {
			return fmt.Sprintf("part %d", i+1)
		}
		return strings.Join(r.Sources, ", ")
	}
	return e.Describe(name(e.A, e.a), name(e.B, e.b))
}

// Describe is Error with the two parts named nameA and nameB (file names,
// say).
func (e *MergeError) Describe(nameA, nameB string) string {
	a, b := e.a, e.b
	if e.Kind == SamePart {
		return fmt.Sprintf("%s and %s are the same part of the log (both %d lines, %d requests, %s → %s): merging would count it twice",
			nameA, nameB, a.Lines, a.Requests, a.First.UTC().Format(time.RFC3339), a.Last.UTC().Format(time.RFC3339))
	}
	var detail string
	if a.Grace != b.Grace {
		detail = fmt.Sprintf("grace %s in %s, %s in %s", time.Duration(a.Grace), nameA, time.Duration(b.Grace), nameB)
	} else {
		digests := sameSourcesOtherRules(a.Robots, b.Robots)
		detail = fmt.Sprintf("%s: %s; %s: %s", nameA, describeRobots(a.Robots, digests), nameB, describeRobots(b.Robots, digests))
	}
	return fmt.Sprintf("%s and %s were audited against different robots.txt histories (%s): a request one counts as disallowed the other may count as allowed, so the merged counts would follow neither", nameA, nameB, detail)
}

// partKey is what identifies a part of a log: two distinct parts of one
// log cannot share all of it unless they are empty.
type partKey struct {
	lines, bad, requests, other, otherHost, noUA int64
	first, last                                  int64
}

// samePart returns a *MergeError for the first part that repeats an
// earlier one.
func samePart(parts []*Report) error {
	seen := map[partKey]int{}
	for i, p := range parts {
		if p.Lines == 0 {
			continue // an empty part adds nothing, however often
		}
		k := partKey{p.Lines, p.BadLines, p.Requests, p.Other, p.OtherHost, p.NoUserAgent, p.First.UnixNano(), p.Last.UnixNano()}
		if j, ok := seen[k]; ok {
			return &MergeError{Kind: SamePart, A: j, B: i, a: parts[j], b: p}
		}
		seen[k] = i
	}
	return nil
}

// sameHistory reports whether a and b were judged alike: the same grace
// and the same robots.txt versions from the same times. Versions compare
// by their rules' digests when both have one, else by Source.
func sameHistory(a, b *Report) bool {
	if a.Grace != b.Grace || len(a.Robots) != len(b.Robots) {
		return false
	}
	for i, va := range a.Robots {
		if !sameVersion(va, b.Robots[i]) {
			return false
		}
	}
	return true
}

func sameVersion(a, b RobotsInfo) bool {
	if !a.Since.Equal(b.Since) {
		return false
	}
	if a.Rules != "" && b.Rules != "" {
		return a.Rules == b.Rules
	}
	return a.Source == b.Source
}

// sameSourcesOtherRules reports whether a version of a and one of b have
// the same Source and Since but other rules: only the digests then tell
// the histories apart.
func sameSourcesOtherRules(a, b []RobotsInfo) bool {
	for _, va := range a {
		for _, vb := range b {
			if va.Source == vb.Source && va.Since.Equal(vb.Since) && va.Rules != vb.Rules {
				return true
			}
		}
	}
	return false
}

func describeRobots(vs []RobotsInfo, digests bool) string {
	if len(vs) == 0 {
		return "no robots.txt"
	}
	var s []string
	for _, v := range vs {
		d := v.Source
		if !v.Since.IsZero() {
			d += " from " + v.Since.UTC().Format(time.RFC3339)
		}
		if digests && v.Rules != "" {
			d += " (rules " + v.Rules[:min(12, len(v.Rules))] + ")"
		}
		s = append(s, d)
	}
	return strings.Join(s, ", ")
}

// unionRobots lists every distinct version of the parts, by Since.
func unionRobots(parts []*Report) []RobotsInfo {
	var out []RobotsInfo
	for _, p := range parts {
	next:
		for _, v := range p.Robots {
			for _, o := range out {
				if sameVersion(o, v) {
					continue next
				}
			}
			out = append(out, v)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Since.Before(out[j].Since) })
	return out
}

// DamagedError is the error Merge returns for a part no audit could have
// written: a negative count, or a crawler with more requests than the whole
// part. Such a file was damaged or edited by hand, and summing it would
// make every total wrong.
type DamagedError struct {
	Part  int    // index of the part as given to Merge
	Field string // e.g. "requests", "crawlers[Googlebot].spoofed"
	Value int64
	Why   string // "negative", or what it exceeds
}

// Error names the part, the field and its value, and what to do.
func (e *DamagedError) Error() string {
	if e.Why == "null" {
		return fmt.Sprintf("part %d: %s is null: rep never writes that, so the report is damaged or was edited; audit that part of the log again", e.Part+1, e.Field)
	}
	return fmt.Sprintf("part %d: %s is %d (%s): rep never writes that, so the report is damaged or was edited; audit that part of the log again", e.Part+1, e.Field, e.Value, e.Why)
}

// checkPart returns a *DamagedError for the first count of p that an audit
// cannot have produced.
func checkPart(i int, p *Report) error {
	neg := func(field string, v int64) error {
		if v < 0 {
			return &DamagedError{Part: i, Field: field, Value: v, Why: "negative"}
		}
		return nil
	}
	top := []struct {
		f string
		v int64
	}{{"lines", p.Lines}, {"bad_lines", p.BadLines}, {"requests", p.Requests}, {"other_requests", p.Other},
		{"other_host_requests", p.OtherHost}, {"no_user_agent_requests", p.NoUserAgent}, {"verify_errors", p.VerifyErrors}}
	for _, x := range top {
		if err := neg(x.f, x.v); err != nil {
			return err
		}
	}
	for j, c := range p.Crawlers {
		if c == nil {
			return &DamagedError{Part: i, Field: fmt.Sprintf("crawlers[%d]", j), Why: "null"}
		}
		at := "crawlers[" + c.Name + "]."
		for _, x := range []struct {
			f string
			v int64
		}{{"requests", c.Requests}, {"bytes", c.Bytes}, {"verified", c.Verified}, {"spoofed", c.Spoofed},
			{"unverifiable", c.Unverifiable}, {"rdns_only", c.RDNSOnly}, {"unchecked", c.Unchecked},
			{"robots_fetches", c.RobotsFetches}, {"disallowed_requests", c.DisallowedRequests},
			{"disallowed_spoofed", c.SpoofedDisallowed}, {"grace_requests", c.GraceRequests}} {
			if err := neg(at+x.f, x.v); err != nil {
				return err
			}
		}
		for _, m := range []struct {
			f string
			m map[string]int64
		}{{"status", c.Status}, {"days", c.Days}, {"robots_status", c.RobotsStatus}, {"verified_by", c.VerifiedBy}} {
			for k, v := range m.m {
				if err := neg(at+m.f+"["+k+"]", v); err != nil {
					return err
				}
			}
		}
		if g := c.Signatures; g != nil {
			for _, x := range []struct {
				f string
				v int64
			}{{"verified", g.Verified}, {"invalid", g.Invalid}, {"unverified", g.Unverified}} {
				if err := neg(at+"signatures."+x.f, x.v); err != nil {
					return err
				}
			}
			for k, v := range g.Reasons {
				if err := neg(at+"signatures.reasons["+k+"]", v); err != nil {
					return err
				}
			}
		}
		for _, v := range c.Violations {
			if err := neg(at+"violations[line "+fmt.Sprint(v.Line)+"].count", v.Count); err != nil {
				return err
			}
		}
		for _, x := range c.TopPaths {
			if err := neg(at+"top_paths["+x.Path+"].count", x.Count); err != nil {
				return err
			}
		}
		for _, x := range c.SpoofedFrom {
			if err := neg(at+"spoofed_from["+x.IP+"].count", x.Count); err != nil {
				return err
			}
		}
		if c.Requests > p.Requests {
			return &DamagedError{Part: i, Field: at + "requests", Value: c.Requests, Why: fmt.Sprintf("more than the part's %d requests", p.Requests)}
		}
	}
	return nil
}
