package filter

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/survey"
)

// Partial says what RowFilter does with a document of a host that
// restricts a crawler partly: survey rows do not hold the rules, so the
// document's own URL cannot be decided.
type Partial uint8

const (
	// PartialDrop drops it: the cautious reading.
	PartialDrop Partial = iota
	// PartialKeep keeps it: only a full restriction drops a host's
	// documents.
	PartialKeep
)

// RowFilter decides documents from survey rows (rep survey's output)
// instead of captures: by each crawler's restriction of the host, not by
// the document's URL. A full restriction drops, none keeps, a partial one
// does what Partial says, unknown is Missing. Use Filter, with the
// captures, to decide each URL by its rules.
type RowFilter struct {
	o       Options
	partial Partial
	hosts   map[string][]rowCapture // by time
}

type rowCapture struct {
	t     int64 // unix nanoseconds, 0 unknown
	class survey.Class
	res   []*survey.Row // per agent: its row, nil when not surveyed
}

// NewRowFilter reads rows into a RowFilter; every crawler of o.Agents
// must be surveyed in them.
func NewRowFilter(rows func(fn func(*survey.Row) error) error, o Options, partial Partial) (*RowFilter, error) {
	if len(o.Agents) == 0 {
		return nil, ErrNoAgents
	}
	idx := map[string]int{}
	for i, a := range o.Agents {
		idx[strings.ToLower(a.Token())] = i
	}
	type key struct{ host, time, url string }
	caps := map[key]*rowCapture{}
	seen := make([]bool, len(o.Agents))
	err := rows(func(r *survey.Row) error {
		i, ok := idx[strings.ToLower(r.Crawler)]
		if !ok {
			return nil
		}
		seen[i] = true
		k := key{r.Host, r.Time, r.URL}
		c := caps[k]
		if c == nil {
			c = &rowCapture{res: make([]*survey.Row, len(o.Agents))}
			if r.Time != "" {
				t, err := time.Parse(time.RFC3339, r.Time)
				if err != nil {
					return fmt.Errorf("row of %s: time %q: %w", r.Host, r.Time, err)
				}
				c.t = t.UnixNano()
			}
			cl, err := survey.ParseClass(r.Class)
			if err != nil {
				return fmt.Errorf("row of %s: %w", r.Host, err)
			}
			c.class = cl
			caps[k] = c
		}
		rc := *r
		c.res[i] = &rc
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i, ok := range seen {
		if !ok {
			return nil, fmt.Errorf("filter: the rows do not survey %s: survey it (rep survey -agent) or leave it out", o.Agents[i].Token())
		}
	}
	f := &RowFilter{o: o, partial: partial, hosts: map[string][]rowCapture{}}
	for k, c := range caps {
		f.hosts[k.host] = append(f.hosts[k.host], *c)
	}
	for _, l := range f.hosts {
		sort.SliceStable(l, func(a, b int) bool { return l[a].t < l[b].t })
	}
	return f, nil
}

// Hosts returns how many hosts have rows.
func (f *RowFilter) Hosts() int { return len(f.hosts) }

// DecideInto decides one document. Verdict.Capture is -1: rows have no
// capture index.
func (f *RowFilter) DecideInto(v *Verdict, rawurl string, date time.Time) {
	*v = Verdict{Capture: -1, Class: survey.ClassMissing}
	h, ok := fastHost(rawurl)
	if !ok {
		var err error
		if h, err = survey.HostOf(rawurl); err != nil {
			v.Keep = f.o.Missing == MissingKeep
			return
		}
	}
	caps := f.hosts[h]
	var c *rowCapture
	switch {
	case len(caps) == 0:
	case f.o.Pick == Latest:
		c = &caps[len(caps)-1]
	case date.IsZero():
		if caps[0].t == 0 {
			c = &caps[0]
		}
	default:
		t := date.UnixNano()
		i := sort.Search(len(caps), func(i int) bool { return caps[i].t > t })
		if i > 0 {
			c = &caps[i-1]
		}
	}
	if c == nil {
		v.Keep = f.o.Missing == MissingKeep
		return
	}
	v.Class = c.class
	switch c.class {
	case survey.ClassAllowAll:
		v.Keep = true
		return
	case survey.ClassDisallowAll:
		return
	case survey.ClassMissing:
		v.Keep = f.o.Missing == MissingKeep
		return
	}
	all := f.o.Mode == AllOf
	for _, r := range c.res {
		allowed := true
		switch survey.Restriction(r.Restriction) {
		case survey.Full:
			allowed = false
		case survey.Partial:
			allowed = f.partial == PartialKeep
		case survey.Unknown:
			allowed = f.o.Missing == MissingKeep
		}
		if allowed == all {
			v.Keep, v.Crawler, v.Group = all, r.Crawler, r.Group
			if r.Restriction == string(survey.Full) && r.Line > 0 {
				v.Line = r.Line
				v.Rule = ruleOf(r.Rule, r.Line)
			}
			return
		}
	}
	v.Keep = !all
}

// ruleOf reads back a rule rendered by robotstxt.Rule.String.
func ruleOf(s string, line int) robotstxt.Rule {
	if p, ok := strings.CutPrefix(s, "Allow: "); ok {
		return robotstxt.Rule{Allow: true, Pattern: p, Line: line}
	}
	p, _ := strings.CutPrefix(s, "Disallow: ")
	return robotstxt.Rule{Pattern: p, Line: line}
}
