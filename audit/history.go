package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
)

// DefaultGrace is how long a crawler may keep using a cached robots.txt
// after it changed (RFC 9309 §2.4: "crawlers SHOULD NOT use the cached
// version for more than 24 hours").
const DefaultGrace = 24 * time.Hour

// Version is one robots.txt and the time it went live.
type Version struct {
	// Since is when this version went live; zero means "always" (before
	// every other version).
	Since time.Time
	// Source names where it came from (a file name or URL), for reports.
	Source string
	// File is the robots.txt in force. It may be nil when Fetch says the
	// fetch itself decided (a 4xx: allow all; unreachable: disallow all).
	File *robotstxt.File
	// Fetch is how the file was fetched, when it was; nil for a file given
	// as such. Requests are judged by its verdict as crawlers do (RFC 9309
	// §2.3.1): no file is made up for an allow-all or disallow-all fetch.
	Fetch *robotsfetch.Outcome
	// Body is the text File was parsed from, when known. Engines group a
	// file differently (bing and yandex take a Crawl-delay line as a group
	// member, engine.Engine.ParseOptions): with Body, each crawler is
	// judged on the file as its engine groups it; without it, every
	// crawler on File's groups.
	Body []byte
}

// History is the sequence of robots.txt versions of a site, oldest first.
// It is immutable and safe for concurrent use.
type History struct {
	versions []Version
	robots   []*robotsfetch.Robots // each version as a crawler holds it
	since    []int64               // Unix ns; math.MinInt64 for "always"
	// regrouped is each version's Body parsed with the other
	// CrawlDelayEndsGroup setting than its File; nil without a Body.
	regrouped []*robotstxt.File
}

// NewHistory builds a History. Versions may be given in any order; two
// with the same Since time are an error.
func NewHistory(vs ...Version) (*History, error) {
	h := &History{versions: append([]Version(nil), vs...)}
	sort.SliceStable(h.versions, func(i, j int) bool { return h.versions[i].Since.Before(h.versions[j].Since) })
	for i := 1; i < len(h.versions); i++ {
		if h.versions[i].Since.Equal(h.versions[i-1].Since) {
			return nil, fmt.Errorf("robots.txt %s and %s both go live at %s: give each its own @TIME", h.versions[i-1].Source, h.versions[i].Source, h.versions[i].Since.Format(time.RFC3339))
		}
	}
	for _, v := range h.versions {
		r := &robotsfetch.Robots{File: v.File}
		if v.Fetch != nil {
			r.Outcome = *v.Fetch
		}
		if r.Outcome.Verdict == robotsfetch.UseRules && v.File == nil {
			return nil, fmt.Errorf("robots.txt %s: no parsed file", v.Source)
		}
		h.robots = append(h.robots, r)
		var re *robotstxt.File
		if v.File != nil && v.Body != nil {
			re = robotstxt.ParseWith(v.Body, robotstxt.Options{Profile: v.File.Profile(), CrawlDelayEndsGroup: !v.File.CrawlDelayEndsGroup()})
		}
		h.regrouped = append(h.regrouped, re)
		s := int64(math.MinInt64)
		if !v.Since.IsZero() {
			s = v.Since.UnixNano()
		}
		h.since = append(h.since, s)
	}
	return h, nil
}

// file returns version i's file as an engine parsing with o groups it:
// File, or its Body parsed with o's CrawlDelayEndsGroup when that differs
// and the Body is known. nil when the version has no file.
func (h *History) file(i int, o robotstxt.Options) *robotstxt.File {
	f := h.versions[i].File
	if f != nil && f.CrawlDelayEndsGroup() != o.CrawlDelayEndsGroup && h.regrouped[i] != nil {
		return h.regrouped[i]
	}
	return f
}

// Len returns the number of versions.
func (h *History) Len() int {
	if h == nil {
		return 0
	}
	return len(h.versions)
}

// Version returns version i (0 is the oldest).
func (h *History) Version(i int) Version { return h.versions[i] }

// at returns the index of the version in force at t (Unix ns), or -1.
func (h *History) at(t int64) int {
	return sort.Search(len(h.since), func(i int) bool { return h.since[i] > t }) - 1
}

// Digest returns RulesDigest of the version's file, or, when its fetch
// decided without one, a digest of that verdict (an unreachable robots.txt
// disallows everything, which no file's digest must equal).
func (v Version) Digest() string {
	if v.Fetch != nil && v.Fetch.Verdict != robotsfetch.UseRules {
		h := sha256.Sum256([]byte("verdict " + v.Fetch.Verdict.String()))
		return hex.EncodeToString(h[:])
	}
	return RulesDigest(v.File)
}

// RulesDigest returns the hex SHA-256 of what f decides with: its profile,
// every group's user-agent tokens, rules and extension lines (Crawl-delay
// among them), each with its line number, since reports name rules by line.
// Comments, blank lines elsewhere in the file and Sitemap lines do not
// count, so two files judge every request alike, and report the same
// lines, exactly when their digests match. A nil f has the digest of an
// empty file.
func RulesDigest(f *robotstxt.File) string {
	if f == nil {
		f = robotstxt.Parse(nil)
	}
	h := sha256.New()
	fmt.Fprintf(h, "profile %s\n", f.Profile())
	for i, g := range f.Groups() {
		fmt.Fprintf(h, "group %d\n", i)
		for j, t := range g.Tokens {
			line := 0
			if j < len(g.AgentLines) {
				line = g.AgentLines[j]
			}
			fmt.Fprintf(h, "agent %d %q\n", line, t)
		}
		for _, r := range g.Rules {
			fmt.Fprintf(h, "rule %d %t %q\n", r.Line, r.Allow, r.Pattern)
		}
	}
	for _, e := range f.Extensions() {
		fmt.Fprintf(h, "ext %d %d %q %q\n", e.Line, e.Group, strings.ToLower(e.Name), e.Value)
	}
	return hex.EncodeToString(h.Sum(nil))
}
