package survey

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
)

// Report is the share of hosts restricting each crawler and each purpose,
// overall (the latest capture of each host) and per month when the
// captures span more than one (the latest capture of each host in the
// month), with the counts behind every share. A host whose capture is
// ClassMissing counts in Unknown and not in the denominator.
//
// Latest is by the rows' time (to the second; a capture without a time
// is older than any with one). When several captures of a host share the
// latest time, the host counts, for each crawler, as the most restrictive
// of them says (full over partial over none over unknown), and its fetch
// class is the most restrictive of theirs (disallow-all over rules over
// allow-all over missing): the answer does not depend on the order of
// the input, so survey/clickhouse's SQL gives the same counts. A crawler
// without a row in those captures counts as unknown.
type Report struct {
	Schema int `json:"schema"`
	// Captures and Hosts count the input: captures, distinct hosts.
	Captures int `json:"captures"`
	Hosts    int `json:"hosts"`
	// Periods is "all", then each month in order when there are several.
	Periods []Period `json:"periods"`
}

// Period is the report for all captures or one month.
type Period struct {
	Month        string         `json:"month"` // "all" or "2006-01"
	Hosts        int            `json:"hosts"`
	Classes      map[string]int `json:"classes"` // hosts by fetch class
	Crawlers     []CrawlerShare `json:"crawlers"`
	Purposes     []PurposeShare `json:"purposes"`
	byTok        map[string]*tally
	purposeTally map[string]*[3]int
}

// CrawlerShare counts hosts by restriction for one crawler. Share is
// (Full+Partial)/Known, FullShare Full/Known; Known = Full+Partial+None.
type CrawlerShare struct {
	Crawler   string  `json:"crawler"`
	Purpose   string  `json:"purpose"`
	Known     int     `json:"known"`
	Full      int     `json:"full"`
	Partial   int     `json:"partial"`
	None      int     `json:"none"`
	Unknown   int     `json:"unknown"`
	Share     float64 `json:"share"`
	FullShare float64 `json:"full_share"`
}

// PurposeShare counts hosts restricting (fully or partly) at least one of
// the purpose's crawlers surveyed (Any), and fully restricting every one
// of them (AllFull); shares are of Known, the hosts with a capture.
type PurposeShare struct {
	Purpose      string   `json:"purpose"`
	Crawlers     []string `json:"crawlers"`
	Known        int      `json:"known"`
	Any          int      `json:"any"`
	AllFull      int      `json:"all_full"`
	AnyShare     float64  `json:"any_share"`
	AllFullShare float64  `json:"all_full_share"`
}

type tally struct{ full, partial, none, unknown int }

// Reporter builds a Report from rows; rows of one capture come together
// (as Surveyor.Survey appends them).
type Reporter struct {
	crawlers []string          // in first-seen order
	purpose  map[string]string // crawler → purpose
	idx      map[string]int
	latest   map[string]*hostState // month+"\x00"+host → state; month "all" too
	captures int
	hosts    map[string]bool
}

type hostState struct {
	time  string
	class string
	res   []byte // per crawler index: 0 unset, 'f', 'p', 'n', 'u'
}

// NewReporter returns an empty Reporter.
func NewReporter() *Reporter {
	return &Reporter{purpose: map[string]string{}, idx: map[string]int{}, latest: map[string]*hostState{}, hosts: map[string]bool{}}
}

// Add counts the rows of one capture (every crawler's).
func (p *Reporter) Add(rows []Row) {
	if len(rows) == 0 {
		return
	}
	p.captures++
	r0 := rows[0]
	p.hosts[r0.Host] = true
	res := make([]byte, 0, len(p.crawlers)+len(rows))
	for i := range rows {
		r := &rows[i]
		k, ok := p.idx[r.Crawler]
		if !ok {
			k = len(p.crawlers)
			p.idx[r.Crawler] = k
			p.crawlers = append(p.crawlers, r.Crawler)
			p.purpose[r.Crawler] = r.Purpose
		}
		for len(res) <= k {
			res = append(res, 0)
		}
		res[k] = r.Restriction[0]
	}
	for _, m := range []string{"all", r0.Month} {
		if m == "" {
			continue
		}
		key := m + "\x00" + r0.Host
		switch st := p.latest[key]; {
		case st == nil || st.time < r0.Time:
			p.latest[key] = &hostState{time: r0.Time, class: r0.Class, res: res}
		case st.time == r0.Time:
			st.merge(r0.Class, res)
		}
	}
}

// merge folds into st a capture with the same time: the more restrictive
// class and, crawler by crawler, restriction. st.res may be shared with
// the state of another period, so merge writes a new slice.
func (st *hostState) merge(class string, res []byte) {
	if classRank(class) > classRank(st.class) {
		st.class = class
	}
	m := make([]byte, max(len(st.res), len(res)))
	copy(m, st.res)
	for k, r := range res {
		if restrictionRank(r) > restrictionRank(m[k]) {
			m[k] = r
		}
	}
	st.res = m
}

// restrictionRank orders a restriction's first byte: full, partial, none,
// then unknown or no row.
func restrictionRank(r byte) int {
	switch r {
	case 'f':
		return 3
	case 'p':
		return 2
	case 'n':
		return 1
	}
	return 0
}

// classRank orders fetch classes from the least restrictive: missing,
// allow-all, rules, disallow-all.
func classRank(c string) int {
	switch c {
	case "disallow-all":
		return 3
	case "rules":
		return 2
	case "allow-all":
		return 1
	}
	return 0
}

// Report returns the report of the rows added.
func (p *Reporter) Report() *Report {
	rep := &Report{Schema: SchemaVersion, Captures: p.captures, Hosts: len(p.hosts)}
	periods := map[string]*Period{}
	var months []string
	for key, st := range p.latest {
		m := key[:strings.IndexByte(key, 0)]
		pd := periods[m]
		if pd == nil {
			pd = &Period{Month: m, Classes: map[string]int{}, byTok: map[string]*tally{}}
			periods[m] = pd
			if m != "all" {
				months = append(months, m)
			}
		}
		pd.Hosts++
		pd.Classes[st.class]++
		pd.tallyHost(p, st)
	}
	sort.Strings(months)
	order := []string{"all"}
	if len(months) > 1 {
		order = append(order, months...)
	}
	for _, m := range order {
		if pd := periods[m]; pd != nil {
			pd.finish(p)
			rep.Periods = append(rep.Periods, *pd)
		}
	}
	return rep
}

func (pd *Period) tallyHost(p *Reporter, st *hostState) {
	type agg struct{ n, restricted, full int }
	purposes := map[string]*agg{}
	for k, c := range p.crawlers {
		t := pd.byTok[c]
		if t == nil {
			t = &tally{}
			pd.byTok[c] = t
		}
		var r byte
		if k < len(st.res) {
			r = st.res[k]
		}
		switch r {
		case 'f':
			t.full++
		case 'p':
			t.partial++
		case 'n':
			t.none++
		default:
			t.unknown++
			continue
		}
		if pu := p.purpose[c]; pu != "" {
			a := purposes[pu]
			if a == nil {
				a = &agg{}
				purposes[pu] = a
			}
			a.n++
			if r == 'f' || r == 'p' {
				a.restricted++
			}
			if r == 'f' {
				a.full++
			}
		}
	}
	if pd.purposeTally == nil {
		pd.purposeTally = map[string]*[3]int{}
	}
	for pu, a := range purposes {
		t := pd.purposeTally[pu]
		if t == nil {
			t = &[3]int{}
			pd.purposeTally[pu] = t
		}
		t[0]++
		if a.restricted > 0 {
			t[1]++
		}
		if a.full == a.n {
			t[2]++
		}
	}
}

func (pd *Period) finish(p *Reporter) {
	byPurpose := map[string][]string{}
	for _, c := range p.crawlers {
		t := pd.byTok[c]
		cs := CrawlerShare{Crawler: c, Purpose: p.purpose[c], Full: t.full, Partial: t.partial, None: t.none, Unknown: t.unknown}
		cs.Known = t.full + t.partial + t.none
		cs.Share, cs.FullShare = share(t.full+t.partial, cs.Known), share(t.full, cs.Known)
		pd.Crawlers = append(pd.Crawlers, cs)
		if cs.Purpose != "" {
			byPurpose[cs.Purpose] = append(byPurpose[cs.Purpose], c)
		}
	}
	var ps []string
	for pu := range byPurpose {
		ps = append(ps, pu)
	}
	sort.Strings(ps)
	for _, pu := range ps {
		t := pd.purposeTally[pu]
		if t == nil {
			t = &[3]int{}
		}
		pd.Purposes = append(pd.Purposes, PurposeShare{Purpose: pu, Crawlers: byPurpose[pu], Known: t[0], Any: t[1], AllFull: t[2],
			AnyShare: share(t[1], t[0]), AllFullShare: share(t[2], t[0])})
	}
	pd.byTok, pd.purposeTally = nil, nil
}

func share(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

// WriteJSON writes the report as one JSON document.
func (r *Report) WriteJSON(w io.Writer) error {
	e := json.NewEncoder(w)
	e.SetIndent("", "  ")
	return e.Encode(r)
}

// WriteText writes the report as aligned tables.
func (r *Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "%d captures of %d hosts\n", r.Captures, r.Hosts)
	for _, pd := range r.Periods {
		fmt.Fprintf(w, "\n== %s: %d hosts (%s)\n", pd.Month, pd.Hosts, classText(pd.Classes))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "crawler\tpurpose\trestricted\tfull\tpartial\tnone\tunknown\tshare\tfull share\t")
		for _, c := range pd.Crawlers {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t\n", c.Crawler, c.Purpose, c.Full+c.Partial, c.Full, c.Partial, c.None, c.Unknown, pct(c.Share), pct(c.FullShare))
		}
		tw.Flush()
		if len(pd.Purposes) > 0 {
			fmt.Fprintln(w)
			tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "purpose\tcrawlers\thosts\tany restricted\tall full\tshare any\tshare all full\t")
			for _, p := range pd.Purposes {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%s\t\n", p.Purpose, len(p.Crawlers), p.Known, p.Any, p.AllFull, pct(p.AnyShare), pct(p.AllFullShare))
			}
			tw.Flush()
		}
	}
	return nil
}

func classText(m map[string]int) string {
	var parts []string
	for _, c := range classNames.List() {
		if m[c] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", c, m[c]))
		}
	}
	return strings.Join(parts, ", ")
}

func pct(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }

var htmlReport = template.Must(template.New("r").Funcs(template.FuncMap{
	"pct":     pct,
	"w":       func(f float64) string { return fmt.Sprintf("%.1f", 300*f) },
	"classes": classText,
}).Parse(`<!doctype html>
<html lang="en"><meta charset="utf-8"><title>robots.txt survey</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right}td:first-child,th:first-child{text-align:left}svg{vertical-align:middle}.f{fill:#b2182b}.p{fill:#ef8a62}</style>
<h1>robots.txt survey</h1>
<p>{{.Captures}} captures of {{.Hosts}} hosts. Share = hosts restricting the crawler (full or partial) / hosts with a capture. Bars: <svg width="10" height="10"><rect class="f" width="10" height="10"/></svg> full, <svg width="10" height="10"><rect class="p" width="10" height="10"/></svg> partial.</p>
{{range .Periods}}<h2>{{.Month}}: {{.Hosts}} hosts</h2><p>{{classes .Classes}}</p>
<table><tr><th>crawler</th><th>purpose</th><th>full</th><th>partial</th><th>none</th><th>unknown</th><th>share</th><th></th></tr>
{{range .Crawlers}}<tr><td>{{.Crawler}}</td><td>{{.Purpose}}</td><td>{{.Full}}</td><td>{{.Partial}}</td><td>{{.None}}</td><td>{{.Unknown}}</td><td>{{pct .Share}}</td><td><svg width="300" height="12"><rect class="f" width="{{w .FullShare}}" height="12"/><rect class="p" x="{{w .FullShare}}" width="{{w .PartialShare}}" height="12"/></svg></td></tr>
{{end}}</table>
{{if .Purposes}}<table><tr><th>purpose</th><th>hosts</th><th>any restricted</th><th>all full</th><th>share any</th><th>share all full</th></tr>
{{range .Purposes}}<tr><td>{{.Purpose}}</td><td>{{.Known}}</td><td>{{.Any}}</td><td>{{.AllFull}}</td><td>{{pct .AnyShare}}</td><td>{{pct .AllFullShare}}</td></tr>
{{end}}</table>{{end}}
{{end}}</html>
`))

// PartialShare is Partial/Known.
func (c CrawlerShare) PartialShare() float64 { return share(c.Partial, c.Known) }

// WriteHTML writes the report as a self-contained HTML page with a bar
// chart per period.
func (r *Report) WriteHTML(w io.Writer) error { return htmlReport.Execute(w, r) }
