package audit

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
	"time"
)

// palette colours the series of the charts (colour-blind safe, Okabe–Ito).
var palette = []string{"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#999999"}

// WriteHTML writes r as one self-contained HTML page: no scripts, fonts or
// images from elsewhere, charts as inline SVG, so it can be mailed as is.
func WriteHTML(w io.Writer, r *Report) error {
	var text strings.Builder
	WriteText(&text, r)
	data := struct {
		R                        *Report
		Title                    string
		Generated                string
		Days, Status, Violations template.HTML
		Text                     string
		Rows                     []htmlRow
		Grace                    string
		Lines, Bad               string
		Requests, Other          string
	}{
		R:          r,
		Title:      "Crawler audit",
		Generated:  time.Now().UTC().Format("2006-01-02 15:04 MST"),
		Days:       daysChart(r),
		Status:     statusChart(r),
		Violations: violationsChart(r),
		Text:       text.String(),
		Grace:      time.Duration(r.Grace).String(),
		Lines:      num(r.Lines), Bad: num(r.BadLines), Requests: num(r.Requests), Other: num(r.Other),
	}
	if r.Requests > 0 {
		data.Title = fmt.Sprintf("Crawler audit, %s – %s", r.First.Format("2 Jan 2006"), r.Last.Format("2 Jan 2006"))
	}
	for _, c := range r.Crawlers {
		row := htmlRow{C: c, Requests: num(c.Requests), Verified: num(c.Verified), Spoofed: num(c.Spoofed),
			Disallowed: num(c.DisallowedRequests), Grace: num(c.GraceRequests), Robots: num(c.RobotsFetches), Bytes: bytesize(c.Bytes)}
		if c.CrawlDelay != nil && c.CrawlDelay.CheckedGaps > 0 {
			row.TooFast = fmt.Sprintf("%s / %s", num(c.CrawlDelay.TooFast), num(c.CrawlDelay.CheckedGaps))
		}
		row.VerifiedBy = countList(c.VerifiedBy, nil)
		if r.Verify == "off" {
			// No identity was checked: a count of 0 would claim none
			// verified; the text report shows "-" and says why.
			row.Verified, row.Spoofed, row.VerifiedBy = notChecked, notChecked, notChecked
		}
		if g := c.Signatures; g != nil {
			row.Signatures = fmt.Sprintf("%s verified, %s invalid, %s unverified", num(g.Verified), num(g.Invalid), num(g.Unverified))
			row.BadSignatures = g.Invalid > 0
		}
		data.Rows = append(data.Rows, row)
	}
	return page.Execute(w, data)
}

// notChecked fills the identity columns of a report made without
// verification, in the HTML and text reports alike.
const notChecked = "not checked"

type htmlRow struct {
	C                                                             *Crawler
	Requests, Verified, Spoofed, Disallowed, Grace, Robots, Bytes string
	TooFast                                                       string
	VerifiedBy, Signatures                                        string
	BadSignatures                                                 bool
}

var page = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
header{background:#1d2330;color:#fff;padding:20px 32px}header h1{margin:0;font-size:22px}header p{margin:4px 0 0;color:#c9d1e0}
main{max-width:1100px;margin:0 auto;padding:24px 32px}
section{background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.08);padding:16px 20px;margin-bottom:20px}
h2{font-size:17px;margin:0 0 10px}
.kpis{display:flex;gap:16px;flex-wrap:wrap}.kpi{flex:1;min-width:140px;background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.08);padding:12px 16px;margin-bottom:20px}
.kpi b{display:block;font-size:24px}.kpi span{color:#5b6476;font-size:13px}
table{border-collapse:collapse;width:100%;font-size:13.5px}th,td{padding:5px 8px;text-align:right;border-bottom:1px solid #eceef2}
th:first-child,td:first-child{text-align:left}th{color:#5b6476;font-weight:600}
.bad{color:#b3261e;font-weight:600}.note{color:#5b6476;font-size:12.5px}
svg text{font:12px system-ui,sans-serif;fill:#333}
pre{white-space:pre-wrap;font-size:12px;background:#f6f7f9;padding:10px;border-radius:6px;overflow:auto}
</style></head><body>
<header><h1>{{.Title}}</h1><p>{{len .R.Sources}} log file(s) · verification: {{.R.Verify}}{{if eq .R.Verify "off"}} (identities not checked: rep audit -verify checks them){{end}} · generated {{.Generated}} by rep audit</p>{{if .R.VerifyErrors}}<p class="bad">DNS verification failed for {{.R.VerifyErrors}} address(es): {{.R.VerifyError}}. Their requests count as unverifiable.</p>{{end}}</header>
<main>
<div class="kpis">
<div class="kpi"><b>{{.Lines}}</b><span>lines ({{.Bad}} bad)</span></div>
<div class="kpi"><b>{{.Requests}}</b><span>requests</span></div>
<div class="kpi"><b>{{len .R.Crawlers}}</b><span>crawlers seen</span></div>
<div class="kpi"><b>{{.Other}}</b><span>requests from non-crawlers</span></div>
</div>
<section><h2>Requests per day</h2>{{.Days}}</section>
<section><h2>Status codes served to each crawler</h2>{{.Status}}</section>
<section><h2>Requests to disallowed URLs</h2>{{.Violations}}
<p class="note">A request counts as disallowed when every robots.txt the crawler could have been using forbids it; "grace" requests were forbidden only by a robots.txt younger than {{.Grace}}, which a crawler may not have fetched yet (RFC 9309 §2.4).</p></section>
<section><h2>Crawlers</h2><table>
<tr><th>crawler</th><th>operator</th><th>purpose</th><th>requests</th><th>bytes</th><th>verified</th><th>verified by</th><th>spoofed</th><th>Web Bot Auth signatures</th><th>disallowed</th><th>grace</th><th>robots.txt</th><th>too fast</th></tr>
{{range .Rows}}<tr><td>{{.C.Name}}</td><td>{{.C.Operator}}</td><td>{{.C.Purpose}}</td><td>{{.Requests}}</td><td>{{.Bytes}}</td><td>{{.Verified}}</td><td>{{.VerifiedBy}}</td><td{{if .C.Spoofed}} class="bad"{{end}}>{{.Spoofed}}</td><td{{if .BadSignatures}} class="bad"{{end}}>{{.Signatures}}</td><td{{if .C.DisallowedRequests}} class="bad"{{end}}>{{.Disallowed}}</td><td>{{.Grace}}</td><td>{{.Robots}}</td><td>{{.TooFast}}</td></tr>
{{end}}</table></section>
<section><h2>Details</h2><pre>{{.Text}}</pre></section>
</main></body></html>
`))

const chartW, chartLeft, chartRight = 960, 150, 20

// daysChart draws requests per day as one line per crawler (the six
// busiest; the rest summed).
func daysChart(r *Report) template.HTML {
	if len(r.Crawlers) == 0 || r.Requests == 0 {
		return `<p class="note">No crawler requests.</p>`
	}
	days := map[string]bool{}
	for _, c := range r.Crawlers {
		for d := range c.Days {
			days[d] = true
		}
	}
	var dl []string
	for d := range days {
		dl = append(dl, d)
	}
	sort.Strings(dl)
	type series struct {
		name string
		v    []int64
	}
	var ss []series
	other := series{name: "other crawlers", v: make([]int64, len(dl))}
	for i, c := range r.Crawlers {
		s := series{name: c.Name, v: make([]int64, len(dl))}
		for j, d := range dl {
			s.v[j] = c.Days[d]
		}
		if i < 6 {
			ss = append(ss, s)
		} else {
			for j := range dl {
				other.v[j] += s.v[j]
			}
		}
	}
	if len(r.Crawlers) > 6 {
		ss = append(ss, other)
	}
	var maxV int64 = 1
	for _, s := range ss {
		for _, v := range s.v {
			maxV = max(maxV, v)
		}
	}
	const h, top, bottom = 300, 16, 40
	plotW := float64(chartW - chartLeft - chartRight)
	plotH := float64(h - top - bottom)
	x := func(i int) float64 {
		if len(dl) == 1 {
			return chartLeft + plotW/2
		}
		return chartLeft + plotW*float64(i)/float64(len(dl)-1)
	}
	y := func(v int64) float64 { return top + plotH*(1-float64(v)/float64(maxV)) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" id="chart-days" viewBox="0 0 %d %d" width="100%%" role="img" aria-label="Requests per day per crawler"><title>Requests per day per crawler</title>`, chartW, h)
	for i := 0; i <= 4; i++ {
		v := maxV * int64(i) / 4
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#e3e6eb"/><text x="%d" y="%.1f" text-anchor="end">%s</text>`, chartLeft, chartW-chartRight, y(v), y(v), chartLeft-6, y(v)+4, num(v))
	}
	step := max(1, len(dl)/10)
	for i, d := range dl {
		if i%step == 0 {
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`, x(i), h-bottom+18, d[5:])
		}
	}
	for k, s := range ss {
		col := palette[k%len(palette)]
		var pts []string
		for i, v := range s.v {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i), y(v)))
		}
		fmt.Fprintf(&b, `<polyline class="series" fill="none" stroke="%s" stroke-width="2.5" points="%s"><title>%s</title></polyline>`, col, strings.Join(pts, " "), template.HTMLEscapeString(s.name))
		for i, v := range s.v {
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"><title>%s %s: %s</title></circle>`, x(i), y(v), col, template.HTMLEscapeString(s.name), dl[i], num(v))
		}
		// legend on the left
		fmt.Fprintf(&b, `<rect x="4" y="%d" width="10" height="10" fill="%s"/><text x="18" y="%d">%s</text>`, top+k*18, col, top+k*18+9, template.HTMLEscapeString(trunc(s.name, 18)))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// statusChart draws one 100% bar per crawler split by status class.
func statusChart(r *Report) template.HTML {
	if len(r.Crawlers) == 0 {
		return `<p class="note">No crawler requests.</p>`
	}
	cs := r.Crawlers
	if len(cs) > 15 {
		cs = cs[:15]
	}
	classes := []struct {
		name, col string
	}{{"1xx", "#999999"}, {"2xx", "#009E73"}, {"3xx", "#56B4E9"}, {"4xx", "#E69F00"}, {"5xx", "#D55E00"}}
	const bar, gap, top = 18, 8, 28
	h := top + len(cs)*(bar+gap) + 10
	plotW := float64(chartW - chartLeft - chartRight)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" id="chart-status" viewBox="0 0 %d %d" width="100%%" role="img" aria-label="Status codes per crawler"><title>Status codes per crawler</title>`, chartW, h)
	for i, c := range classes[1:] {
		fmt.Fprintf(&b, `<rect x="%d" y="4" width="10" height="10" fill="%s"/><text x="%d" y="13">%s</text>`, chartLeft+i*80, c.col, chartLeft+i*80+14, c.name)
	}
	for i, c := range cs {
		sc := statusClasses(c.Status)
		var total int64
		for _, n := range sc {
			total += n
		}
		y := top + i*(bar+gap)
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text>`, chartLeft-6, y+13, template.HTMLEscapeString(trunc(c.Name, 20)))
		if total == 0 {
			continue
		}
		x := float64(chartLeft)
		for k := 1; k <= 5; k++ {
			if sc[k] == 0 {
				continue
			}
			w := plotW * float64(sc[k]) / float64(total)
			fmt.Fprintf(&b, `<rect class="bar" x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s %s: %s (%.1f%%)</title></rect>`, x, y, w, bar, classes[k-1].col, template.HTMLEscapeString(c.Name), classes[k-1].name, num(sc[k]), 100*float64(sc[k])/float64(total))
			x += w
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// violationsChart draws disallowed requests per crawler, split into those
// from spoofed addresses and the rest, with grace requests beside them.
func violationsChart(r *Report) template.HTML {
	var cs []*Crawler
	for _, c := range r.Crawlers {
		if c.DisallowedRequests > 0 || c.GraceRequests > 0 {
			cs = append(cs, c)
		}
	}
	if len(r.Robots) == 0 {
		return `<p class="note">No robots.txt was given (-robots), so no request was checked.</p>`
	}
	if len(cs) == 0 {
		return `<svg class="chart" id="chart-violations" viewBox="0 0 960 40" width="100%" role="img" aria-label="No violations"><text x="10" y="24">No crawler requested a disallowed URL.</text></svg>`
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].DisallowedRequests > cs[j].DisallowedRequests })
	var maxV int64 = 1
	for _, c := range cs {
		maxV = max(maxV, c.DisallowedRequests+c.GraceRequests)
	}
	const bar, gap, top = 18, 8, 28
	h := top + len(cs)*(bar+gap) + 10
	plotW := float64(chartW - chartLeft - chartRight - 60)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" id="chart-violations" viewBox="0 0 %d %d" width="100%%" role="img" aria-label="Requests to disallowed URLs per crawler"><title>Requests to disallowed URLs per crawler</title>`, chartW, h)
	legend := []struct{ name, col string }{{"disallowed", "#D55E00"}, {"of which spoofed", "#7f2704"}, {"grace (robots.txt younger than " + time.Duration(r.Grace).String() + ")", "#F0E442"}}
	for i, l := range legend {
		fmt.Fprintf(&b, `<rect x="%d" y="4" width="10" height="10" fill="%s"/><text x="%d" y="13">%s</text>`, chartLeft+i*170, l.col, chartLeft+i*170+14, l.name)
	}
	for i, c := range cs {
		y := top + i*(bar+gap)
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text>`, chartLeft-6, y+13, template.HTMLEscapeString(trunc(c.Name, 20)))
		x := float64(chartLeft)
		seg := func(n int64, col, label string) {
			if n <= 0 {
				return
			}
			w := plotW * float64(n) / float64(maxV)
			fmt.Fprintf(&b, `<rect class="bar" x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s %s: %s</title></rect>`, x, y, max(w, 1), bar, col, template.HTMLEscapeString(c.Name), label, num(n))
			x += w
		}
		seg(c.SpoofedDisallowed, "#7f2704", "disallowed, spoofed")
		seg(c.DisallowedRequests-c.SpoofedDisallowed, "#D55E00", "disallowed")
		seg(c.GraceRequests, "#F0E442", "grace")
		fmt.Fprintf(&b, `<text x="%.1f" y="%d">%s</text>`, x+6, y+13, num(c.DisallowedRequests))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

func trunc(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}
