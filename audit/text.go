package audit

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rep-toolkit/rep/crawlers/botauth"
	"github.com/rep-toolkit/rep/internal/termsafe"
)

// WriteText writes a human-readable summary of r.
func WriteText(w io.Writer, r *Report) error {
	ew := &errWriter{w: termsafe.NewWriter(w)} // paths and User-Agents come from the log
	p := func(format string, a ...any) { fmt.Fprintf(ew, format, a...) }
	p("%s lines (%s bad), %s requests", num(r.Lines), num(r.BadLines), num(r.Requests))
	if r.Requests > 0 {
		p(", %s → %s", r.First.Format("2006-01-02 15:04"), r.Last.Format("2006-01-02 15:04 MST"))
	}
	p("\n")
	if len(r.Robots) == 0 {
		p("robots.txt: none given (-robots FILE[@TIME]); no compliance checks\n")
	} else {
		var vs []string
		for _, v := range r.Robots {
			s := v.Source
			if !v.Since.IsZero() {
				s += " from " + v.Since.Format(time.RFC3339)
			}
			vs = append(vs, s)
		}
		mixed := ""
		if r.MixedRobots {
			mixed = "MIXED: parts were audited against different histories: "
		}
		p("robots.txt: %s%s (%s grace after a change)\n", mixed, strings.Join(vs, ", "), time.Duration(r.Grace))
	}
	if r.VerifyErrors > 0 {
		p("verification: %s; failed for %s address(es): %s\n", r.Verify, num(r.VerifyErrors), r.VerifyError)
	} else if r.Verify == "off" {
		p("verification: off (identities %s: verified, spoofed and unverif. show -; rep audit -verify checks them)\n", notChecked)
	} else {
		p("verification: %s\n", r.Verify)
	}
	if r.NoUserAgent > 0 {
		p("%s requests have no User-Agent in this log format: they cannot be attributed\n", num(r.NoUserAgent))
	}
	if r.OtherHost > 0 {
		p("%s requests for other hosts skipped\n", num(r.OtherHost))
	}
	p("\n")
	if len(r.Crawlers) == 0 {
		p("no known crawlers; %s other requests\n", num(r.Other))
		writeBad(p, r)
		return ew.err
	}
	var table strings.Builder
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "crawler\trequests\tbytes\tverified\tspoofed\tunverif.\tdisallowed\tgrace\trobots.txt\t2xx\t3xx\t4xx\t5xx\ttoo fast\t")
	for _, c := range r.Crawlers {
		classes := statusClasses(c.Status)
		fast := "-"
		if c.CrawlDelay != nil && c.CrawlDelay.CheckedGaps > 0 {
			fast = num(c.CrawlDelay.TooFast)
		}
		ver, sp, un := num(c.Verified), num(c.Spoofed), num(c.Unverifiable+c.RDNSOnly)
		if r.Verify == "off" {
			ver, sp, un = "-", "-", "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", c.Name, num(c.Requests), bytesize(c.Bytes),
			ver, sp, un, num(c.DisallowedRequests), num(c.GraceRequests), num(c.RobotsFetches),
			num(classes[2]), num(classes[3]), num(classes[4]), num(classes[5]), fast)
	}
	fmt.Fprintf(tw, "(not crawlers)\t%s\t\t\t\t\t\t\t\t\t\t\t\t\t\n", num(r.Other))
	tw.Flush()
	for line := range strings.Lines(table.String()) {
		p("%s\n", strings.TrimRight(line, " \n"))
	}

	var by []string
	for _, c := range r.Crawlers {
		if len(c.VerifiedBy) > 0 {
			by = append(by, fmt.Sprintf("  %s: %s\n", c.Name, countList(c.VerifiedBy, nil)))
		}
	}
	if len(by) > 0 {
		p("\nverified by:\n%s", strings.Join(by, ""))
	}
	var signed []*Crawler
	for _, c := range r.Crawlers {
		if c.Signatures != nil {
			signed = append(signed, c)
		}
	}
	if len(signed) > 0 {
		p("\nWeb Bot Auth signatures:\n")
		for _, c := range signed {
			g := c.Signatures
			p("  %s: %s signed: %s verified, %s invalid, %s unverified\n", c.Name, num(g.Verified+g.Invalid+g.Unverified),
				num(g.Verified), num(g.Invalid), num(g.Unverified))
			for _, v := range []botauth.Verification{botauth.Invalid, botauth.Unverified} {
				if l := countList(g.Reasons, func(k string) bool { return botauth.Reason(k).Verdict() == v }); l != "" {
					p("    %s: %s\n", v, l)
				}
			}
			if f := g.FirstInvalid; f != nil {
				p("    first invalid: %s %s %s: %s\n", f.Time.Format("2006-01-02 15:04:05"), f.IP, f.Path, f.Error)
			}
		}
	}

	var viol []*Crawler
	for _, c := range r.Crawlers {
		if c.DisallowedRequests > 0 {
			viol = append(viol, c)
		}
	}
	if len(viol) > 0 {
		p("\nrequests to disallowed URLs:\n")
		for _, c := range viol {
			who := ""
			if c.Spoofed > 0 || c.Verified > 0 {
				who = fmt.Sprintf(", %s from spoofed addresses", num(c.SpoofedDisallowed))
			}
			p("  %s: %s%s%s\n", c.Name, num(c.DisallowedRequests), who, obeyNote(c))
			for i, v := range c.Violations {
				if i == 5 {
					p("    … %d more rules\n", len(c.Violations)-5)
					break
				}
				p("    %6s  %s (%s line %d), first %s %s\n", num(v.Count), v.Rule, v.Robots, v.Line, v.First.Format("2006-01-02 15:04:05"), v.Example)
			}
		}
	}
	var fast []*Crawler
	for _, c := range r.Crawlers {
		if c.CrawlDelay != nil && c.CrawlDelay.CheckedGaps > 0 {
			fast = append(fast, c)
		}
	}
	if len(fast) > 0 {
		p("\nCrawl-delay (crawlers documented to honour it):\n")
		for _, c := range fast {
			d := c.CrawlDelay
			p("  %s: %s of %s gaps shorter than %gs (shortest %gs)\n", c.Name, num(d.TooFast), num(d.CheckedGaps), d.Delay, d.Shortest)
		}
	}
	var liars []*Crawler
	for _, c := range r.Crawlers {
		if len(c.SpoofedFrom) > 0 {
			liars = append(liars, c)
		}
	}
	if len(liars) > 0 {
		p("\nspoofed requests, top addresses:\n")
		for _, c := range liars {
			var ips []string
			for i, x := range c.SpoofedFrom {
				if i == 3 {
					break
				}
				ips = append(ips, fmt.Sprintf("%s (%s)", x.IP, estimate(x.Count, x.Error)))
			}
			p("  %s: %s\n", c.Name, strings.Join(ips, ", "))
		}
	}
	var noRobots []string
	for _, c := range r.Crawlers {
		if c.RobotsFetches == 0 && c.Requests > 0 {
			noRobots = append(noRobots, c.Name)
		} else if !c.FirstRobotsFetch.IsZero() && c.FirstRobotsFetch.After(c.FirstRequest) {
			noRobots = append(noRobots, c.Name+" (fetched it only after crawling)")
		}
	}
	if len(noRobots) > 0 && len(r.Robots) > 0 {
		p("\nnever fetched robots.txt before crawling: %s\n", strings.Join(noRobots, ", "))
	}
	p("\ntop paths:\n")
	for i, c := range r.Crawlers {
		if i == 5 {
			break
		}
		var ps []string
		for j, x := range c.TopPaths {
			if j == 3 {
				break
			}
			ps = append(ps, fmt.Sprintf("%s (%s)", x.Path, estimate(x.Count, x.Error)))
		}
		p("  %s: %s\n", c.Name, strings.Join(ps, ", "))
	}
	writeBad(p, r)
	return ew.err
}

// countList renders the counts of m whose key keep accepts (nil: all) as
// "a (3), b (1)", most first.
func countList(m map[string]int64, keep func(string) bool) string {
	var keys []string
	for k := range m {
		if keep == nil || keep(k) {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s (%s)", k, num(m[k]))
	}
	return strings.Join(parts, ", ")
}

// writeBad shows the first bad lines, which are never dropped silently.
func writeBad(p func(string, ...any), r *Report) {
	if len(r.BadSamples) > 0 {
		p("\nbad lines (%s), first:\n", num(r.BadLines))
		for i, b := range r.BadSamples {
			if i == 3 {
				break
			}
			p("  %s:%d: %s: %.80q\n", b.Source, b.Line, b.Error, b.Text)
		}
	}
}

func obeyNote(c *Crawler) string {
	switch c.ObeysRobots {
	case "no":
		return " (documented to ignore robots.txt)"
	case "partial":
		return " (documented to obey robots.txt only in part)"
	}
	return ""
}

// statusClasses sums a status map by class (index 1–5).
func statusClasses(m map[string]int64) [6]int64 {
	var c [6]int64
	for k, n := range m {
		if len(k) == 3 && k[0] >= '1' && k[0] <= '5' {
			c[k[0]-'0'] += n
		}
	}
	return c
}

// num formats n with thousands separators.
func num(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func bytesize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

// estimate renders a top-k count: exact as is, an estimate as
// "~667, at least 640" (Space-Saving overcounts by at most err).
func estimate(count, err int64) string {
	if err <= 0 {
		return num(count)
	}
	return "~" + num(count) + ", at least " + num(count-err)
}
