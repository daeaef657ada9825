package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/aipref"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/robotsmeta"
	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/verdict"
)

func init() {
	register(&command{name: "page", summary: "read a page's robots meta tags, (X-)Robots-Tag headers and links for a crawler", run: runPage})
}

const pageUsage = `usage: rep page [-agent NAME] [-engine ENGINE] [-parser-only] [-allow-private] [-H 'Name: value' ...] [-now RFC3339] [-tdmrep FILE] [-json] FILE|URL|-

Reads the page-level robots rules of one page — every robots meta tag (head
and body), every X-Robots-Tag header, the Robots-Tag structured header
(draft-illyes-repext-03: applied under -engine rfc9309 only, as no search
engine documents reading it; shown as not read under the others),
data-nosnippet and robots-nocontent regions (count, position, the start of
their text), link rel values, noai/noimageai, TDMRep and Content-Usage — and
prints the effective policy for one crawler under its engine's combining
rules (bingbot: Bing's, YandexBot: Yandex's, else Google's, or -engine),
with the tag, header line or Robots-Tag member each value came from and lint
findings. Without -agent: Googlebot, or bingbot / Yandex for -engine bing /
yandex.

FILE or - (standard input) is the HTML body; -H adds response header lines.
A URL (http:// or https://) is fetched as the crawler would: the site's
robots.txt first, and the page only if robots.txt allows the agent (a page
that may not be crawled never has its meta tags or headers seen). Loopback,
private and link-local addresses are refused unless -allow-private.

It also prints the page's usage-preference verdict (aipref vocabulary:
train-ai, ai-use, search): robots.txt Content-Usage and Content-Signal for
the URL, the Content-Usage header, TDMRep (meta, header, and the site's
/.well-known/tdmrep.json: in URL mode fetched from the page's origin, as
the page was, unless -tdmrep gives it from a file) and noai/noimageai, the
most restrictive statement winning, each with its carrier and line.

Exit status: 0 the page is indexable by the agent, 1 it is not, 2 usage or
input error.

flags:
`

// pageHeaders collects repeated -H flags.
type pageHeaders []string

func (h *pageHeaders) String() string { return strings.Join(*h, "\n") }

func (h *pageHeaders) Set(v string) error {
	i := strings.IndexByte(v, ':')
	if i <= 0 || strings.TrimSpace(v[:i]) == "" {
		return fmt.Errorf("%q is not a header line: write -H 'Name: value'", v)
	}
	if err := checkHeaderValue("-H", v); err != nil {
		return err
	}
	*h = append(*h, v)
	return nil
}

// pageJSON is the -json object: exactly the conformance vectors' expect
// keys (robotsmeta.Summary), plus sources, diagnostics, the engine and the
// element-level regions.
type pageJSON struct {
	robotsmeta.Summary
	Sources     []pageSourceJSON        `json:"sources"`
	Diagnostics []robotsmeta.Diagnostic `json:"diagnostics"`
	// Engine is whose combining rules applied; Notes what the crawler
	// registry changed about this answer: only the notes that apply to
	// it (verdict.NotesFor), as rep check -json gives them.
	Engine string   `json:"engine"`
	Notes  []string `json:"notes,omitempty"`
	// DidYouMean are the registry names an unknown name may be a
	// misspelling of (crawlers.Suggest), as in the server's /api/page.
	DidYouMean []string `json:"did_you_mean,omitempty"`
	// Robots is the robots.txt verdict for the URL, in the one verdict
	// shape of rep check -json (URL mode only), with the notes above.
	Robots *rep.DecisionJSON `json:"robots,omitempty"`
	// Blocked is set when the crawler does not fetch the page (URL mode:
	// robots.txt disallows it, or cannot be read, or its address is
	// refused); the values above are then not the page's, whose rules
	// are never seen: index, follow and snippet are false. Action says in
	// words what the crawler does (rep.PageVerdict.Action), as the
	// server's /api/page does.
	Blocked bool   `json:"blocked,omitempty"`
	Action  string `json:"action,omitempty"`
	// Usage is the page's usage-preference verdict (rep.PageUsage).
	Usage *aipref.Usage `json:"usage"`
	// TDMRep is the fetch of the site's /.well-known/tdmrep.json (URL
	// mode, the page allowed, no -tdmrep).
	TDMRep *rep.TDMRepFetch `json:"tdmrep,omitempty"`
	// NoSnippetRegions are the data-nosnippet elements, NoContentRegions
	// the class="robots-nocontent" ones (outermost), with their positions.
	NoSnippetRegions []pageRegionJSON `json:"nosnippet_regions"`
	NoContentRegions []pageRegionJSON `json:"nocontent_regions"`
}

// pageRegionJSON is one region: the element, its position and the start
// of its text.
type pageRegionJSON struct {
	Tag    string `json:"tag"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// Excerpt is the region's text, whitespace collapsed, cut at
	// pageExcerptRunes characters; Truncated says it was cut.
	Excerpt   string `json:"excerpt"`
	Truncated bool   `json:"truncated,omitempty"`
}

// pageExcerptRunes is how much of a region's text rep page shows.
const pageExcerptRunes = 75

// pageRegions renders regions for -json.
func pageRegions(rs []robotsmeta.Region) []pageRegionJSON {
	out := make([]pageRegionJSON, 0, len(rs))
	for _, r := range rs {
		ex, cut := pageExcerpt(r.Text)
		out = append(out, pageRegionJSON{Tag: r.Tag, Line: r.Line, Column: r.Column, Excerpt: ex, Truncated: cut || r.Truncated})
	}
	return out
}

// pageExcerpt returns the first pageExcerptRunes characters of text,
// followed by "…" when it was cut.
func pageExcerpt(text string) (string, bool) {
	n := 0
	for i := range text {
		if n == pageExcerptRunes {
			return strings.TrimRight(text[:i], " ") + "…", true
		}
		n++
	}
	return text, false
}

type pageSourceJSON struct {
	robotsmeta.Source
	Rules   []string `json:"rules"`   // every rule read from it
	Applied []string `json:"applied"` // those that reach this agent
	// Note says why rules read from it do not apply, when that is the
	// engine rather than the scope: a Robots-Tag member under an engine
	// that does not read Robots-Tag.
	Note string `json:"note,omitempty"`
}

func runPage(e *env) int {
	fs := flag.NewFlagSet("page", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	af := addAgentFlags(fs)
	allowPrivate := fs.Bool("allow-private", false, allowPrivateHelp)
	var headers pageHeaders
	fs.Var(&headers, "H", "response header `'Name: value'` (repeatable), e.g. -H 'X-Robots-Tag: noindex'")
	nowFlag := fs.String("now", "", "evaluation instant, `RFC3339` (drives unavailable_after); default the current time")
	asJSON := fs.Bool("json", false, "print one JSON object")
	tdmrepFile := fs.String("tdmrep", "", "the site's /.well-known/tdmrep.json, read from `FILE` instead of fetched (URL mode)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), pageUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(e.args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	eng, err := af.engine()
	if err != nil {
		fmt.Fprintf(e.stderr, "rep page: %v\n", err)
		return exitUsage
	}
	if *af.agent == "" {
		*af.agent = map[engine.Engine]string{engine.Bing: "bingbot", engine.Yandex: "Yandex"}[eng]
		if *af.agent == "" {
			*af.agent = "Googlebot"
		}
	}
	ag, err := af.resolve()
	if err != nil {
		fmt.Fprintf(e.stderr, "rep page: %v\n", err)
		return exitUsage
	}
	noteUnknown(e, "page", ag)
	// Page-level rules address one crawler by its own token.
	agent, prof := strings.ToLower(ag.Token()), ag.MetaProfile()
	now := time.Now()
	if *nowFlag != "" {
		t, err := time.Parse(time.RFC3339, *nowFlag)
		if err != nil {
			fmt.Fprintf(e.stderr, "rep page: -now %q is not RFC 3339, e.g. -now 2026-06-01T00:00:00Z\n", *nowFlag)
			return exitUsage
		}
		now = t
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(e.stderr, "rep page: give exactly one FILE, URL or - (standard input)")
		return exitUsage
	}
	arg := fs.Arg(0)
	opts := robotsmeta.Options{Now: now, Agent: agent, Profile: prof}

	var (
		page  *robotsmeta.Page
		fetch *pageFetchResult
		name  = arg
	)
	if i := strings.Index(arg, "://"); i > 0 && !pageIsURL(arg) {
		if _, statErr := os.Stat(arg); statErr != nil {
			fmt.Fprintf(e.stderr, "rep page: %s: only http and https URLs can be fetched; give an http(s) URL, a FILE or - (standard input)\n", arg)
			return exitUsage
		}
	}
	if pageIsURL(arg) {
		if len(headers) > 0 {
			fmt.Fprintln(e.stderr, "rep page: -H applies to a FILE or standard input; a URL's headers come from the server")
			return exitUsage
		}
		fetch, err = pageFetch(e, arg, ag, *allowPrivate, *tdmrepFile == "", opts)
		if err != nil {
			fmt.Fprintf(e.stderr, "rep page: %v\n", err)
			return exitUsage
		}
		page = fetch.page
	} else {
		var body io.Reader
		if arg == "-" {
			body, name = e.input(), "<standard input>"
		} else {
			f, err := os.Open(arg)
			if err != nil {
				fmt.Fprintf(e.stderr, "rep page: %v\n", err)
				return exitUsage
			}
			defer f.Close()
			if st, err := f.Stat(); err == nil && st.IsDir() {
				fmt.Fprintf(e.stderr, "rep page: %s is a directory: give an HTML file\n", arg)
				return exitUsage
			}
			body = f
		}
		var sniffed string
		if body, sniffed = pageSniff(body, headers); sniffed != "" {
			fmt.Fprintf(e.stderr, "rep page: warning: %s is not HTML (%s): crawlers read no robots meta tags from it; only X-Robots-Tag headers apply (give them with -H)\n", name, sniffed)
			headers = append(headers, "Content-Type: "+sniffed)
		}
		page, err = robotsmeta.ParseLines(headers, body, opts)
		if err != nil {
			fmt.Fprintf(e.stderr, "rep page: reading %s: %v\n", name, err)
			return exitUsage
		}
	}
	pol := page.Policy(agent, prof, now)
	var decision rep.Decision
	if fetch != nil {
		decision = fetch.decision
	}
	var tdm []aipref.Evidence
	if *tdmrepFile != "" {
		if fetch == nil {
			fmt.Fprintln(e.stderr, "rep page: -tdmrep needs a URL: tdmrep.json rules match the page's path")
			return exitUsage
		}
		data, err := os.ReadFile(*tdmrepFile)
		if err == nil {
			var rules []aipref.TDMRepRule
			if rules, err = aipref.ParseTDMRep(data); err == nil {
				tdm = aipref.TDMRep(rules, fetch.finalURL)
			}
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "rep page: -tdmrep: %v\n", err)
			return exitUsage
		}
	} else if fetch != nil && fetch.tdmrep != nil {
		tdm = fetch.tdmrep.Evidence
	}
	uv := rep.PageUsage(decision, &pol, tdm)
	status := exitOK
	if !pol.Index || (fetch != nil && (!fetch.allowed || fetch.status >= 400)) {
		status = exitFinding
	}
	out := e.output(!*asJSON)
	if *asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		j := pageJSONOf(&pol, fetch)
		j.Engine, j.Notes, j.DidYouMean = ag.Engine.String(), pageNotes(ag, fetch), verdict.Suggestions(ag)
		if fetch != nil {
			dj := fetch.decision.JSON()
			j.Robots = &dj
			j.Blocked, j.Action = fetch.verdict.Blocked, fetch.verdict.Action()
			if j.Blocked {
				j.Index, j.Follow, j.Snippet = false, false, false
			}
			j.TDMRep = fetch.tdmrep
		}
		j.Usage = &uv
		enc.Encode(j)
		return out.done(e, "rep page", status)
	}
	pageText(out, name, &pol, fetch, ag, uv)
	return out.done(e, "rep page", status)
}

// pageSniff looks at the start of a page given as a file or on standard
// input, when no -H gave its Content-Type, and returns the media type a
// server would send for it when that is not text (an image, a PDF, an
// archive, a file full of NUL bytes), by the MIME sniffing standard
// (net/http.DetectContentType). Crawlers read robots meta tags from HTML
// only, so such a body is left unread, as a fetched non-HTML page is.
// The returned reader still yields the whole body.
func pageSniff(body io.Reader, headers []string) (io.Reader, string) {
	for _, h := range headers {
		if name, _, _ := strings.Cut(h, ":"); strings.EqualFold(strings.TrimSpace(name), "Content-Type") {
			return body, ""
		}
	}
	br := bufio.NewReaderSize(body, 512)
	head, _ := br.Peek(512)
	mt, _, _ := strings.Cut(http.DetectContentType(head), ";")
	if strings.HasPrefix(mt, "text/") {
		return br, ""
	}
	return br, mt
}

func pageIsURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

func pageJSONOf(pol *robotsmeta.Policy, fetch *pageFetchResult) pageJSON {
	page := pol.Page()
	j := pageJSON{Summary: pol.Summary(), Sources: []pageSourceJSON{}, Diagnostics: []robotsmeta.Diagnostic{},
		NoSnippetRegions: pageRegions(page.NoSnippet), NoContentRegions: pageRegions(page.NoContent)}
	for i, s := range page.Sources {
		sj := pageSourceJSON{Source: s, Rules: []string{}, Applied: []string{}}
		for k := range page.Rules {
			r := &page.Rules[k]
			if r.Source != i {
				continue
			}
			sj.Rules = append(sj.Rules, r.String())
			if page.Applies(r, pol.Agent, pol.Profile) {
				sj.Applied = append(sj.Applied, r.String())
			}
		}
		if len(sj.Rules) > 0 {
			sj.Note = s.NotRead(pol.Profile)
		}
		j.Sources = append(j.Sources, sj)
	}
	j.Diagnostics = append(j.Diagnostics, pageDiagnostics(page, fetch)...)
	return j
}

// pageDiagnostics adds what the fetch found to the page's own findings.
func pageDiagnostics(page *robotsmeta.Page, fetch *pageFetchResult) []robotsmeta.Diagnostic {
	if fetch == nil {
		return page.Diagnostics
	}
	return append(append([]robotsmeta.Diagnostic(nil), fetch.diags...), page.Diagnostics...)
}

// pageNotes are the registry's notes that apply to the answer
// (verdict.NotesFor): for a URL, to the group robots.txt chose; for a file,
// only those that hold whatever robots.txt says (no group was chosen).
func pageNotes(ag *rep.Agent, fetch *pageFetchResult) []string {
	g := robotstxt.GroupMatch{Via: robotstxt.ViaFetch}
	if fetch != nil {
		g = fetch.decision.Group
	}
	return verdict.NotesFor(ag, g)
}

func pageYesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// pageText prints the policy as a table a site owner can read: each value,
// and the tag or header line that set it.
func pageText(w io.Writer, name string, pol *robotsmeta.Policy, fetch *pageFetchResult, ag *rep.Agent, uv aipref.Usage) {
	page := pol.Page()
	fmt.Fprintf(w, "%s for %s (%s rules)\n", name, pol.Agent, ag.Engine)
	unknown := verdict.UnknownNote(ag) // said on standard error already
	for _, n := range pageNotes(ag, fetch) {
		if n != unknown {
			fmt.Fprintf(w, "note:       %s\n", n)
		}
	}
	if fetch != nil {
		fmt.Fprintf(w, "robots.txt: %s\n", fetch.robotsLine)
		if fetch.allowed {
			ct := fetch.contentType
			if ct == "" {
				ct = "no Content-Type"
			}
			body := fmt.Sprintf("%d bytes", page.BytesRead)
			switch {
			case page.Stop == robotsmeta.StopNotHTML:
				body = "body not read (not HTML: only the headers apply)"
			case page.Stop == robotsmeta.StopSettled && page.BytesRead == 0:
				body = "body not read (the headers decide)"
			}
			fmt.Fprintf(w, "fetched:    %s -> HTTP %d, %s, %s\n", fetch.finalURL, fetch.status, ct, body)
		}
	}
	fmt.Fprintln(w)
	if fetch != nil && !fetch.allowed {
		// The crawler never sees the page's rules: say what it does
		// rather than print the values of rules nobody read.
		fmt.Fprintf(w, "crawler:    %s\n", fetch.verdict.Action())
		for _, d := range pageDiagnostics(page, fetch) {
			fmt.Fprintf(w, "\n%s: %s [%s]\n", d.Severity, d.Message, d.Code)
		}
		verdict := "not crawlable: robots.txt disallows it, so its page-level rules are never seen"
		switch fetch.verdict.Refusal() {
		case rep.RefusedUnreachable:
			verdict = "not crawlable: robots.txt could not be fetched, so its page-level rules are never seen"
		case rep.RefusedAddress:
			verdict = "not crawlable: its address is refused, so its page-level rules are never seen"
		}
		fmt.Fprintf(w, "\n%s: %s by %s\n", name, verdict, pol.Agent)
		return
	}
	var table bytes.Buffer
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tVALUE\tSET BY")
	none := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	limit := func(l robotsmeta.Limit) string {
		switch {
		case !l.Set:
			return "-"
		case l.N == -1:
			return "no limit"
		}
		return fmt.Sprint(l.N)
	}
	ua := "-"
	if !pol.UnavailableAfter.IsZero() {
		ua = pol.UnavailableAfter.UTC().Format(time.RFC3339)
	}
	tdm := "-"
	if pol.TDMReservation != robotsmeta.TDMUnset {
		tdm = fmt.Sprint(int(pol.TDMReservation))
	}
	rows := []struct {
		f robotsmeta.Field
		v string
	}{
		{robotsmeta.FieldIndex, pageYesNo(pol.Index)},
		{robotsmeta.FieldFollow, pageYesNo(pol.Follow)},
		{robotsmeta.FieldArchive, pageYesNo(pol.Archive)},
		{robotsmeta.FieldSnippet, pageYesNo(pol.Snippet)},
		{robotsmeta.FieldMaxSnippet, limit(pol.MaxSnippet)},
		{robotsmeta.FieldMaxImagePreview, none(pol.MaxImagePreview.String())},
		{robotsmeta.FieldMaxVideoPreview, limit(pol.MaxVideoPreview)},
		{robotsmeta.FieldTranslate, pageYesNo(pol.Translate)},
		{robotsmeta.FieldImageIndex, pageYesNo(pol.ImageIndex)},
		{robotsmeta.FieldUnavailableAfter, ua},
		{robotsmeta.FieldIndexIfEmbedded, pageYesNo(pol.IndexIfEmbedded)},
		{robotsmeta.FieldNoAI, pageYesNo(pol.NoAI)},
		{robotsmeta.FieldNoImageAI, pageYesNo(pol.NoImageAI)},
		{robotsmeta.FieldTDMReservation, tdm},
		{robotsmeta.FieldAITrain, none(pol.AITrain.String())},
	}
	for _, r := range rows {
		by := ""
		if why, ok := pol.Why(r.f); ok {
			by = why.Source.String()
			if why.HasRule {
				by = why.Rule.String() + "  " + by
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.f, r.v, by)
	}
	tw.Flush()
	for _, l := range strings.SplitAfter(table.String(), "\n") {
		fmt.Fprint(w, strings.TrimRight(l, " \n"), strings.Repeat("\n", strings.Count(l, "\n")))
	}
	unfollowed := pol.Unfollowed()
	fmt.Fprintf(w, "\nlinks: %d, %d not followed", len(page.Links), len(unfollowed))
	if len(page.NoSnippet) > 0 {
		fmt.Fprintf(w, "; data-nosnippet regions: %d", len(page.NoSnippet))
	}
	if len(page.NoContent) > 0 {
		fmt.Fprintf(w, "; robots-nocontent regions: %d", len(page.NoContent))
	}
	fmt.Fprintln(w)
	for _, k := range []struct {
		name string
		rs   []robotsmeta.Region
	}{{"data-nosnippet", page.NoSnippet}, {"robots-nocontent", page.NoContent}} {
		for _, r := range k.rs {
			ex, _ := pageExcerpt(r.Text)
			fmt.Fprintf(w, "  %-16s  %-7s <%s> %q\n", k.name, fmt.Sprintf("%d:%d", r.Line, r.Column), r.Tag, ex)
		}
	}
	var other, unread []string
	for i := range page.Rules {
		r := &page.Rules[i]
		if !page.Applies(r, pol.Agent, pol.Profile) {
			note := ""
			if r.Lenient {
				note = "space-separated list: Bing only; "
			}
			item := fmt.Sprintf("%s (%s%s)", r, note, page.Sources[r.Source])
			if page.Sources[r.Source].NotRead(pol.Profile) != "" {
				unread = append(unread, item)
				continue
			}
			other = append(other, item)
		}
	}
	if len(other) > 0 {
		fmt.Fprintf(w, "not for %s under %s rules: %s\n", pol.Agent, pol.Profile, strings.Join(other, "; "))
	}
	if len(unread) > 0 {
		fmt.Fprintf(w, "Robots-Tag, not read under %s rules (draft-illyes-repext-03; -engine rfc9309 reads it): %s\n", pol.Profile, strings.Join(unread, "; "))
	}
	if fetch != nil && fetch.tdmrep != nil {
		t := fetch.tdmrep
		switch {
		case t.Note != "":
			fmt.Fprintf(w, "tdmrep.json: %s: %s\n", t.URL, t.Note)
		default:
			fmt.Fprintf(w, "tdmrep.json: %s (HTTP %d): entry %d applies\n", t.URL, t.Status, t.Evidence[0].Line)
		}
	}
	pageUsageText(w, uv)
	diags := pageDiagnostics(page, fetch)
	if len(diags) > 0 {
		fmt.Fprintln(w)
	}
	for _, d := range diags {
		if d.Line > 0 {
			fmt.Fprintf(w, "%s %d:%d: %s [%s]\n", d.Severity, d.Line, d.Column, d.Message, d.Code)
		} else {
			fmt.Fprintf(w, "%s: %s [%s]\n", d.Severity, d.Message, d.Code)
		}
	}
	verdict := "indexable"
	switch {
	case fetch != nil && !fetch.allowed && fetch.unreachable:
		verdict = "not crawlable: robots.txt could not be fetched, so its page-level rules are never seen"
	case fetch != nil && !fetch.allowed:
		verdict = "not crawlable: robots.txt disallows it, so its page-level rules are never seen"
	case fetch != nil && fetch.status >= 400:
		verdict = fmt.Sprintf("not indexable: HTTP %d", fetch.status)
	case !pol.Index:
		verdict = "not indexable"
	}
	note := ""
	if page.Stop == robotsmeta.StopNotHTML && (fetch == nil || fetch.allowed && fetch.status < 400) {
		note = " (not HTML: by its headers alone)"
	}
	fmt.Fprintf(w, "\n%s: %s by %s%s\n", name, verdict, pol.Agent, note)
}

// pageUsageText prints the usage verdict: each category, its preference
// and the statements that decided it, then those that did not; nothing
// when no carrier states a preference.
func pageUsageText(w io.Writer, v aipref.Usage) {
	if len(v.Evidence) == 0 {
		return
	}
	fmt.Fprintln(w, "\nusage (aipref):")
	say := func(e aipref.Evidence) string {
		where := e.Where
		if where == "" {
			where = "line " + strconv.Itoa(e.Line)
		}
		if !strings.Contains(where, strings.Fields(string(e.Carrier))[0]) {
			where = string(e.Carrier) + ", " + where
		}
		if strings.Contains(where, strconv.Quote(e.Value)) {
			return where // a Robots-Tag member names its value already
		}
		return fmt.Sprintf("%s: %q", where, e.Value)
	}
	for _, c := range aipref.Categories() {
		var by []string
		for _, e := range v.Deciding(c) {
			by = append(by, say(e))
		}
		line := fmt.Sprintf("  %-9s %-11s", c, v.Get(c))
		if len(by) > 0 {
			line += " by " + strings.Join(by, "; ")
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	for _, e := range v.Evidence {
		if e.Decides() {
			continue
		}
		note := "outweighed"
		switch {
		case e.Scope != "":
			note = "for " + e.Scope + " only"
		case e.Pref == aipref.Unknown:
			note = "no preference"
		}
		fmt.Fprintf(w, "  %-9s %-11s %s (%s)\n", e.Category, e.Pref, say(e), note)
	}
}

// pageFetchResult is what URL mode learned beyond the page itself.
type pageFetchResult struct {
	page        *robotsmeta.Page
	allowed     bool // robots.txt allows the agent to fetch the URL
	unreachable bool // robots.txt could not be fetched: everything is disallowed
	robotsLine  string
	finalURL    string
	status      int
	contentType string
	diags       []robotsmeta.Diagnostic
	decision    rep.Decision     // the robots.txt verdict of the last URL asked
	verdict     *rep.PageVerdict // the library's page verdict
	tdmrep      *rep.TDMRepFetch // the site's tdmrep.json, when fetched
}

// pageFetch fetches rawurl as the agent would, through the library's
// robots-aware client (rep.Crawler.FetchPage): robots.txt first (the one
// path every door takes), the page only if robots.txt allows it,
// following at most 10 redirects, each of which must be allowed too, and
// the site's tdmrep.json unless -tdmrep gives it. Loopback, private and
// link-local addresses are refused unless allowPrivate. The crawler
// paces nothing: one page at a user's request, as a browser fetches it.
func pageFetch(e *env, rawurl string, a *rep.Agent, allowPrivate, tdmrep bool, o robotsmeta.Options) (*pageFetchResult, error) {
	rf, err := e.fetcher(fetchSettings{tool: "rep-page", agent: a, allowPrivate: allowPrivate})
	if err != nil {
		return nil, err
	}
	c, err := rep.New(rf.Options().UserAgent, rep.WithAgent(a), rep.WithFetcher(rf),
		rep.WithPoliteness(rep.Politeness{MinDelay: -1, CrawlDelay: rep.HonourNever}))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(e.ctx, 30*time.Second)
	defer cancel()
	maxBytes := o.MaxBytes
	if maxBytes == 0 {
		maxBytes = 15 << 20 // robotsmeta's default: Google's per-file limit
	}
	pf, err := c.FetchPage(ctx, rawurl, rep.PageOptions{
		MaxBytes: maxBytes, Now: o.Now, TDMRep: tdmrep,
		Header: http.Header{"Accept": {"text/html,application/xhtml+xml;q=0.9,*/*;q=0.5"}},
	})
	if err != nil {
		return nil, err
	}
	return pageResultOf(pf, a, o), nil
}

// pageResultOf renders what FetchPage found for the text and JSON views.
func pageResultOf(pf *rep.PageFetch, a *rep.Agent, o robotsmeta.Options) *pageFetchResult {
	v := pf.Verdict
	d := v.Crawl
	res := &pageFetchResult{allowed: !v.Blocked, decision: d, verdict: v, finalURL: pf.FinalURL, status: pf.Status, contentType: pf.ContentType, tdmrep: pf.TDMRep}
	res.robotsLine = pageRobotsLine(d, a)
	if !v.Blocked {
		res.page = v.Policy.Page()
		if pf.Status >= 400 {
			res.diags = append(res.diags, robotsmeta.Diagnostic{Severity: robotsmeta.Error, Code: "http-status", Source: -1,
				Message: fmt.Sprintf("%s answered HTTP %d: engines do not index error pages, whatever the rules say", res.finalURL, pf.Status)})
		}
		return res
	}
	res.page, _ = robotsmeta.ParseLines(nil, nil, o)
	res.unreachable = pf.Refusal.Kind == rep.RefusedUnreachable
	msg := "robots.txt disallows this URL for " + a.String()
	switch pf.Refusal.Kind {
	case rep.RefusedUnreachable:
		msg = "robots.txt could not be fetched, so crawlers take every URL of the site as disallowed (RFC 9309 §2.3.1.4)"
	case rep.RefusedAddress:
		msg = "its address is loopback, private or link-local, which rep refuses (give -allow-private for a local site)"
	}
	if len(pf.Redirects) > 0 {
		msg = "the redirect to " + pf.FinalURL + ": " + msg
	}
	res.diags = append(res.diags, robotsmeta.Diagnostic{Severity: robotsmeta.Error, Code: "robots-txt-disallowed", Source: -1,
		Message: msg + ": the page is never fetched, so its robots meta tags and X-Robots-Tag headers are never seen (a noindex there cannot work; Google may still index the bare URL from links)"})
	return res
}

// pageRobotsLine says what robots.txt answered for the URL the decision
// is about, and why.
func pageRobotsLine(d rep.Decision, a *rep.Agent) string {
	oc := d.Fetch
	if oc == nil {
		return fmt.Sprintf("%s %s for %s", map[bool]string{true: "allows", false: "disallows"}[d.Allowed], d.URL, a)
	}
	line := fmt.Sprintf("%s (HTTP %d, %s)", oc.URL, oc.Status, oc.Verdict)
	if oc.Status == 0 {
		line = fmt.Sprintf("%s (no answer, %s)", oc.URL, oc.Verdict)
	}
	switch {
	case d.FromFetch():
		// No rule decided: say what the fetch itself means, and why it
		// failed.
		line += ": " + oc.Case.Explain()
		if oc.Error != "" {
			line += " (" + oc.Error + ")"
		}
	case d.Rule.Line > 0:
		line += fmt.Sprintf(": line %d %s", d.Rule.Line, d.Rule)
	case d.Reason != robotstxt.NoRuleMatched:
		line += ": " + d.Reason.String()
	}
	verdict := "allows"
	if !d.Allowed {
		verdict = "disallows"
	}
	return fmt.Sprintf("%s %s for %s — %s", verdict, d.URL, a, line)
}
