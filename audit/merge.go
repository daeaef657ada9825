package audit

import (
	"fmt"
	"sort"
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
func Merge(topK int, parts ...*Report) (*Report, error) {
	if topK <= 0 {
		topK = 1000
	}
	ps := append([]*Report(nil), parts...)
	for _, p := range ps {
		if p.Schema != SchemaVersion {
			return nil, fmt.Errorf("report schema %d, want %d (made by another version of rep)", p.Schema, SchemaVersion)
		}
	}
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
