package survey

import (
	"strconv"
	"strings"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/aipref"
	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
)

// SchemaVersion is the version of Row's columns.
const SchemaVersion = 1

// Restriction is how much of a site a file closes to a crawler (see the
// package documentation for the exact definition).
type Restriction string

// Restrictions.
const (
	Full    Restriction = "full"
	Partial Restriction = "partial"
	None    Restriction = "none"
	Unknown Restriction = "unknown"
)

// Row is one capture × crawler. Its JSON, CSV and Parquet columns are the
// tags' names, in this order.
type Row struct {
	Schema int `json:"schema" parquet:"schema"`
	// Host is host[:port]; URL the robots.txt URL of the capture.
	Host string `json:"host" parquet:"host"`
	URL  string `json:"url" parquet:"url"`
	// Time is the fetch time (RFC 3339, UTC) or ""; Month is its
	// "2006-01" or "".
	Time  string `json:"time" parquet:"time"`
	Month string `json:"month" parquet:"month"`
	// Status is the final status after the redirects followed; Redirects
	// how many were followed.
	Status    int `json:"status" parquet:"status"`
	Redirects int `json:"redirects" parquet:"redirects"`
	// Case is robotsfetch's case name; Class the fetch class.
	Case  string `json:"case" parquet:"case"`
	Class string `json:"class" parquet:"class"`
	// Crawler is the product token asked about; Purpose its registry
	// purpose ("" when the registry does not know it).
	Crawler string `json:"crawler" parquet:"crawler"`
	Purpose string `json:"purpose" parquet:"purpose"`
	// Restriction is full, partial, none or unknown.
	Restriction string `json:"restriction" parquet:"restriction"`
	// Group is the token whose group the crawler obeys ("*" for the star
	// group, "" for none); Via how it was chosen (token, fallback, star,
	// none, fetch); GroupLine its first user-agent line.
	Group     string `json:"group" parquet:"group"`
	Via       string `json:"via" parquet:"via"`
	GroupLine int    `json:"group_line" parquet:"group_line"`
	// RootAllowed, Line and Rule are the verdict for "/" and its deciding
	// line (0 and "" when no rule decided).
	RootAllowed bool   `json:"root_allowed" parquet:"root_allowed"`
	Line        int    `json:"line" parquet:"line"`
	Rule        string `json:"rule" parquet:"rule"`
	// CrawlDelay is the group's Crawl-delay in seconds and its line (0
	// when none), whether or not the crawler's engine reads it.
	CrawlDelay     float64 `json:"crawl_delay" parquet:"crawl_delay"`
	CrawlDelayLine int     `json:"crawl_delay_line" parquet:"crawl_delay_line"`
	// TrainAI, AIUse and Search are the usage preferences for "/"
	// (allowed, disallowed, unknown; package aipref).
	TrainAI string `json:"train_ai" parquet:"train_ai"`
	AIUse   string `json:"ai_use" parquet:"ai_use"`
	Search  string `json:"search" parquet:"search"`
	// Bytes is the body's size; Truncated is set when the recorder cut it
	// or it is over the 500 KiB crawlers read.
	Bytes     int  `json:"bytes" parquet:"bytes"`
	Truncated bool `json:"truncated" parquet:"truncated"`
	// Diagnostics counts the parser's diagnostics of the file; Errors
	// those of severity error (lines crawlers ignore or misread).
	Diagnostics int `json:"diagnostics" parquet:"diagnostics"`
	Errors      int `json:"errors" parquet:"errors"`
}

// Columns are Row's column names, in order.
var Columns = []string{"schema", "host", "url", "time", "month", "status", "redirects", "case", "class",
	"crawler", "purpose", "restriction", "group", "via", "group_line", "root_allowed", "line", "rule",
	"crawl_delay", "crawl_delay_line", "train_ai", "ai_use", "search", "bytes", "truncated", "diagnostics", "errors"}

// Surveyor answers for a fixed list of crawlers. It is safe for
// concurrent use only through separate Surveyors (rep.Agent keeps a memo
// of the last file): make one per goroutine with the same agents.
type Surveyor struct {
	agents []*rep.Agent
}

// NewSurveyor returns a Surveyor for agents, as rep.AgentsFor resolves
// them.
func NewSurveyor(agents []*rep.Agent) *Surveyor { return &Surveyor{agents: agents} }

// Agents resolves names as every door does (rep.AgentsFor): crawler
// names, or registry purposes such as "ai-training"; "all" stands for
// every registry crawler that is not retired.
func Agents(names []string) ([]*rep.Agent, error) {
	var expanded []string
	for _, n := range names {
		if strings.EqualFold(strings.TrimSpace(n), "all") {
			for _, c := range crawlers.All() {
				if c.Source == crawlers.SourceRegistry && !c.Retired {
					tok := c.Name
					if len(c.Tokens) > 0 {
						tok = c.Tokens[0]
					}
					expanded = append(expanded, tok)
				}
			}
			continue
		}
		expanded = append(expanded, n)
	}
	return rep.AgentsFor(expanded, rep.AgentOptions{})
}

// Survey appends to rows one Row per crawler for record r.
func (s *Surveyor) Survey(rows []Row, r *Record) []Row {
	base := Row{Schema: SchemaVersion, Host: r.Host, URL: r.URL, Status: r.Final, Redirects: len(r.Redirects),
		Case: r.Case.String(), Class: r.Class.String(), Bytes: len(r.FinalBody), Truncated: r.Truncated}
	if r.Class == ClassMissing {
		base.Case = "not-captured"
	}
	if !r.Time.IsZero() {
		base.Time = r.Time.Format("2006-01-02T15:04:05Z")
		base.Month = r.Time.Format("2006-01")
	}
	files := map[robotstxt.Options]*robotstxt.File{}
	// The rules in force for a group, once per group: most crawlers fall
	// to the same "*" group, and listing its rules costs more than the
	// verdicts that probe them.
	groupRules := map[groupKey][]robotstxt.Rule{}
	for _, a := range s.agents {
		row := base
		row.Crawler = a.Token()
		if a.Crawler != nil {
			row.Purpose = string(a.Crawler.Purpose)
		}
		var f *robotstxt.File
		if r.Class == ClassRules {
			o := a.ParseOptions()
			if f = files[o]; f == nil {
				f = robotstxt.ParseWith(r.FinalBody, o)
				files[o] = f
			}
			row.Truncated = row.Truncated || f.Truncated()
			for _, d := range f.Diagnostics() {
				row.Diagnostics++
				if d.Severity == robotstxt.Error {
					row.Errors++
				}
			}
		}
		rb := &robotsfetch.Robots{Outcome: r.Outcome(), File: f}
		row.Restriction = string(restriction(a, rb, r.Class, groupRules))
		if r.Class == ClassMissing {
			row.Via, row.TrainAI, row.AIUse, row.Search = "fetch", "unknown", "unknown", "unknown"
			rows = append(rows, row)
			continue
		}
		d := a.DecideFetched(rb, "/")
		j := d.JSON()
		row.Group, row.Via, row.RootAllowed, row.Line = j.Group, j.Via, d.Allowed, d.Rule.Line
		if d.Rule.Line > 0 {
			row.Rule = j.Rule
		}
		if len(d.Group.Lines) > 0 {
			row.GroupLine = d.Group.Lines[0]
		}
		u := aipref.Usage{}
		if d.Usage != nil {
			u = *d.Usage
		}
		row.TrainAI, row.AIUse, row.Search = u.TrainAI.String(), u.AIUse.String(), u.Search.String()
		if f != nil {
			if cd, line, ok := a.Group(f).CrawlDelay(); ok {
				row.CrawlDelay, row.CrawlDelayLine = cd.Seconds(), line
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// restriction classifies how much of the site rb closes to a (see the
// package documentation). Every verdict comes from a.DecideFetched.
// groupRules memoises the rules of each group of rb.File, keyed by the
// group's user-agent lines.
func restriction(a *rep.Agent, rb *robotsfetch.Robots, c Class, groupRules map[groupKey][]robotstxt.Rule) Restriction {
	switch c {
	case ClassMissing:
		return Unknown
	case ClassAllowAll:
		return None
	case ClassDisallowAll:
		return Full
	}
	rootDisallowed := !a.DecideFetched(rb, "/").Allowed
	g := a.Group(rb.File)
	var buf [64]byte
	lines := buf[:0]
	for _, l := range g.Group().Lines {
		lines = strconv.AppendInt(append(lines, ','), int64(l), 10)
	}
	key := groupKey{a.ParseOptions(), string(lines)}
	rules, ok := groupRules[key]
	if !ok {
		rules = g.Rules()
		groupRules[key] = rules
	}
	// allowed reports whether some path a pattern names is allowed (want
	// true) or disallowed (want false): its sample, and the sample
	// extended by one byte, which a "$"-anchored rule no longer matches.
	some := func(p string, want bool) bool {
		// Absolute, so that a sample starting "//" is a path, not an
		// authority.
		s := "http://" + rb.Outcome.Origin[strings.Index(rb.Outcome.Origin, "://")+3:] + Sample(p)
		return a.DecideFetched(rb, s).Allowed == want || a.DecideFetched(rb, s+"x").Allowed == want
	}
	if rootDisallowed {
		for _, r := range rules {
			if r.Allow && r.Pattern != "" && some(r.Pattern, true) {
				return Partial
			}
		}
		return Full
	}
	for _, r := range rules {
		if !r.Allow && r.Pattern != "" && some(r.Pattern, false) {
			return Partial
		}
	}
	return None
}

// groupKey names a group of a file: the parse options and its user-agent
// lines.
type groupKey struct {
	o     robotstxt.Options
	lines string
}

// Sample is the path a rule pattern names most plainly: each '*' matching
// nothing, a final '$' dropped, a leading '/' added.
func Sample(pattern string) string {
	p := strings.ReplaceAll(pattern, "*", "")
	p = strings.TrimSuffix(p, "$")
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return p
}
