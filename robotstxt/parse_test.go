package robotstxt_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/robotstxt"
)

func TestParseLines(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		agent  string
		path   string
		allow  bool
		line   int
		reason robotstxt.Reason
	}{
		{"bom skipped", "\xef\xbb\xbfUser-agent: *\nDisallow: /x\n", "a", "/x", false, 2, robotstxt.RuleMatched},
		{"partial bom skipped", "\xef\xbbUser-agent: *\nDisallow: /x\n", "a", "/x", false, 2, robotstxt.RuleMatched},
		{"bom later is text", "User-agent: *\n\xef\xbb\xbfDisallow: /x\n", "a", "/x", true, 0, robotstxt.NoRuleMatched},
		{"CR line ends", "User-agent: *\rDisallow: /x\r", "a", "/x", false, 2, robotstxt.RuleMatched},
		{"CRLF line ends", "User-agent: *\r\nDisallow: /x\r\n", "a", "/x", false, 2, robotstxt.RuleMatched},
		{"mixed line ends count lines", "User-agent: *\r\n\rDisallow: /x\n", "a", "/x", false, 3, robotstxt.RuleMatched},
		{"missing colon, two words", "User-agent *\nDisallow /x\n", "a", "/x", false, 2, robotstxt.RuleMatched},
		{"missing colon, three words ignored", "User-agent: *\nDisallow /x /y\n", "a", "/x", true, 0, robotstxt.NoRuleMatched},
		{"typo dissalow", "User-agent: *\nDissalow: /x\n", "a", "/x", false, 2, robotstxt.RuleMatched},
		{"key by prefix", "User-agent: *\nDisallowed: /x\n", "a", "/x", false, 2, robotstxt.RuleMatched},
		{"useragent typo", "useragent: a\nDisallow: /x\n", "a", "/x", false, 2, robotstxt.RuleMatched},
		{"comment", "User-agent: * # all\nDisallow: /x # private\n", "a", "/x", false, 2, robotstxt.RuleMatched},
		{"NUL ends a line", "User-agent: *\nDisallow: /x\x00yz\n", "a", "/xy", false, 2, robotstxt.RuleMatched},
		{"rules before user-agent ignored", "Disallow: /x\nUser-agent: *\nDisallow: /y\n", "a", "/x", true, 0, robotstxt.NoRuleMatched},
		{"token cut at slash", "User-agent: FooBot/2.1\nDisallow: /x\n", "foobot", "/x", false, 2, robotstxt.RuleMatched},
		{"token cut at space", "User-agent: Foo Bar\nDisallow: /x\n", "foo", "/x", false, 2, robotstxt.RuleMatched},
		{"star with trailing text", "User-agent: * bots\nDisallow: /x\n", "a", "/x", false, 2, robotstxt.RuleMatched},
		{"exact token, not prefix", "User-agent: Googlebot\nDisallow: /x\n", "Googlebot-Image", "/x", true, 0, robotstxt.NoRuleMatched},
		{"specific group hides star", "User-agent: *\nDisallow: /x\nUser-agent: a\nDisallow: /y\n", "a", "/x", true, 0, robotstxt.NoRuleMatched},
		{"groups of one agent merge", "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /\nUser-agent: a\nDisallow: /y\n", "a", "/y", false, 6, robotstxt.RuleMatched},
		{"sitemap does not end a group", "User-agent: a\nSitemap: https://e.com/s.xml\nUser-agent: b\nDisallow: /x\n", "a", "/x", false, 4, robotstxt.RuleMatched},
		{"longest match wins", "User-agent: *\nDisallow: /a\nAllow: /a/b\n", "x", "/a/b/c", true, 3, robotstxt.RuleMatched},
		{"allow wins a tie", "User-agent: *\nDisallow: /a\nAllow: /a\n", "x", "/a", true, 3, robotstxt.RuleMatched},
		{"wildcard length counts", "User-agent: *\nAllow: /a\nDisallow: /*b\n", "x", "/ab", false, 3, robotstxt.RuleMatched},
		{"dollar anchors", "User-agent: *\nDisallow: /*.pdf$\n", "x", "/a.pdf?x", true, 0, robotstxt.NoRuleMatched},
		{"dollar anchors match", "User-agent: *\nDisallow: /*.pdf$\n", "x", "/a.pdf", false, 2, robotstxt.RuleMatched},
		{"empty disallow never blocks", "User-agent: *\nDisallow:\n", "x", "/a", true, 2, robotstxt.EmptyRuleMatched},
		{"index.html allows its directory", "User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n", "x", "/d/", true, 3, robotstxt.IndexHTML},
		{"index.html under a wildcard", "User-agent: *\nDisallow: /\nAllow: /*/index.html\n", "x", "/d/", true, 3, robotstxt.IndexHTML},
		{"index.html wildcard still anchored", "User-agent: *\nDisallow: /\nAllow: /*/index.html\n", "x", "/d/e", false, 2, robotstxt.RuleMatched},
		{"escaped pattern keeps its wildcard", "User-agent: *\nDisallow: /é*x\n", "x", "/%C3%A9abx", false, 2, robotstxt.RuleMatched},
		{"robots.txt always allowed", "User-agent: *\nDisallow: /\n", "x", "/robots.txt", true, 0, robotstxt.RobotsTxt},
		{"query is matched", "User-agent: *\nDisallow: /*sid=\n", "x", "https://h/p?a=1&sid=2", false, 2, robotstxt.RuleMatched},
		{"fragment ignored", "User-agent: *\nDisallow: /a$\n", "x", "https://h/a#frag", false, 2, robotstxt.RuleMatched},
		{"path case sensitive", "User-agent: *\nDisallow: /Admin\n", "x", "/admin", true, 0, robotstxt.NoRuleMatched},
		{"pattern non-ASCII escaped", "User-agent: *\nDisallow: /ä\n", "x", "/%C3%A4", false, 2, robotstxt.RuleMatched},
		{"pattern escape upper-cased", "User-agent: *\nDisallow: /%c3%a4\n", "x", "/%C3%A4", false, 2, robotstxt.RuleMatched},
		{"query-only URL gets a slash", "User-agent: *\nDisallow: /?x\n", "x", "https://h?x", false, 2, robotstxt.RuleMatched},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := robotstxt.Parse([]byte(tt.in)).Check(tt.agent, tt.path)
			if d.Allowed != tt.allow || d.Rule.Line != tt.line || d.Reason != tt.reason {
				t.Errorf("got allowed=%v line=%d reason=%q, want %v %d %q", d.Allowed, d.Rule.Line, d.Reason, tt.allow, tt.line, tt.reason)
			}
		})
	}
}

func TestLongLineIsCut(t *testing.T) {
	long := "/" + strings.Repeat("a", 20000)
	f := robotstxt.Parse([]byte("User-agent: *\nDisallow: " + long + "\n"))
	// Google keeps the first 16,663 bytes of the line: "Disallow: " + 16,653 bytes.
	cut := long[:robotstxt.MaxLineBytes-len("Disallow: ")]
	if d := f.Check("x", cut); d.Allowed {
		t.Errorf("the cut rule should match its own prefix")
	}
	if d := f.Check("x", cut[:len(cut)-1]); !d.Allowed {
		t.Errorf("a shorter path should not match")
	}
	if !hasCode(f, "line-too-long") {
		t.Errorf("no line-too-long diagnostic: %v", f.Diagnostics())
	}
}

func TestSizeLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 0; b.Len() < 600<<10; i++ {
		b.WriteString("Disallow: /dir" + strings.Repeat("x", 40) + "/" + itoaT(i) + "\n")
	}
	data := []byte(b.String())
	f := robotstxt.Parse(data)
	if !f.Truncated() || f.ParsedBytes() > robotstxt.DefaultMaxBytes || f.ParsedBytes() < robotstxt.DefaultMaxBytes-100 {
		t.Fatalf("truncated=%v parsed=%d", f.Truncated(), f.ParsedBytes())
	}
	if data[f.ParsedBytes()-1] != '\n' {
		t.Errorf("the limit must fall on a line boundary")
	}
	if !hasCode(f, "size-limit") {
		t.Errorf("no size-limit diagnostic")
	}
	last := strings.Count(string(data[:f.ParsedBytes()]), "\n")
	rules := f.Star().Rules()
	if rules[len(rules)-1].Line != last {
		t.Errorf("last rule read is on line %d, want %d", rules[len(rules)-1].Line, last)
	}
	if g := robotstxt.ParseWith(data, robotstxt.Options{MaxBytes: -1}); g.Truncated() || len(g.Star().Rules()) <= len(rules) {
		t.Errorf("MaxBytes -1 must read everything")
	}
}

// TestMaxParseBytes: no option reads past MaxParseBytes, and line numbers
// stay right up to there (a rule record keeps 27 bits of line number): the
// input is all line ends, the most lines 64 MiB can hold.
func TestMaxParseBytes(t *testing.T) {
	const ceiling = 64 << 20 // MaxParseBytes as documented: 64 MiB
	data := make([]byte, ceiling+4096)
	for i := range data {
		data[i] = '\n'
	}
	copy(data, "User-agent: *\n")
	tail := []byte("Disallow: /last\n")
	at := ceiling - len(tail)
	copy(data[at:], tail)
	copy(data[ceiling:], "Disallow: /\n") // beyond the ceiling
	wantLine := strings.Count(string(data[:at]), "\n") + 1
	f := robotstxt.ParseWith(data, robotstxt.Options{MaxBytes: -1})
	if !f.Truncated() || f.ParsedBytes() != ceiling || !hasCode(f, "size-limit") {
		t.Fatalf("truncated=%v parsed=%d", f.Truncated(), f.ParsedBytes())
	}
	if d := f.Check("x", "/last"); d.Allowed || d.Rule.Line != wantLine {
		t.Errorf("/last: %+v, want disallowed by line %d", d, wantLine)
	}
	if d := f.Check("x", "/other"); !d.Allowed {
		t.Errorf("a rule past MaxParseBytes was read: %+v", d)
	}
}

func itoaT(i int) string {
	return strings.TrimSpace(strings.Repeat(" ", 0) + func() string { return fmtInt(i) }())
}

func fmtInt(i int) string {
	if i == 0 {
		return "0"
	}
	s := ""
	for i > 0 {
		s = string(rune('0'+i%10)) + s
		i /= 10
	}
	return s
}

func hasCode(f *robotstxt.File, code string) bool {
	for _, d := range f.Diagnostics() {
		if d.Code == code {
			return true
		}
	}
	return false
}

func TestDiagnostics(t *testing.T) {
	in := "Disallow: /a\nUser agent: x\nUser-agent: Googlebot/2.1\nDisallow /b\nDissallow: /c\nfoo\nCrawl-delay: soon\nUser-agent: y\nDisallow: /\x00z\n\xff\n"
	f := robotstxt.Parse([]byte(in))
	want := map[string]int{
		"rule-outside-group": 1, "misspelled-key": 2, "invalid-agent": 3, "missing-colon": 4,
		"no-separator": 6, "invalid-value": 7, "nul-byte": 9, "invalid-utf8": 10,
	}
	got := map[string]int{}
	for _, d := range f.Diagnostics() {
		if _, seen := got[d.Code]; !seen {
			got[d.Code] = d.Line
		}
	}
	for code, line := range want {
		if got[code] != line {
			t.Errorf("%s: first on line %d, want %d (all: %v)", code, got[code], line, f.Diagnostics())
		}
	}
}

func TestAgentResolution(t *testing.T) {
	f := robotstxt.Parse([]byte("User-agent: Googlebot\nUser-agent: bingbot\nDisallow: /g\n\nUser-agent: *\nDisallow: /s\n"))
	tests := []struct {
		names []string
		via   robotstxt.Via
		group string
		lines []int
	}{
		{[]string{"Googlebot"}, robotstxt.ViaToken, "googlebot", []int{1}},
		{[]string{"GOOGLEBOT"}, robotstxt.ViaToken, "googlebot", []int{1}},
		{[]string{"Googlebot-Image", "Googlebot"}, robotstxt.ViaFallback, "googlebot", []int{1}},
		{[]string{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"}, robotstxt.ViaToken, "bingbot", []int{2}},
		{[]string{"Googlebot-Image/1.0"}, robotstxt.ViaStar, "*", []int{5}},
		{[]string{"Google"}, robotstxt.ViaStar, "*", []int{5}},
	}
	for _, tt := range tests {
		m := f.Matcher(tt.names...).Group()
		if m.Via != tt.via || m.Agent != tt.group || len(m.Lines) != len(tt.lines) || m.Lines[0] != tt.lines[0] {
			t.Errorf("%v: got %+v", tt.names, m)
		}
	}
	if m := f.MatcherExplicit("AdsBot-Google").Group(); m.Via != robotstxt.ViaNone {
		t.Errorf("MatcherExplicit fell back to *: %+v", m)
	}
	if d := f.MatcherExplicit("AdsBot-Google").Check("/s"); !d.Allowed {
		t.Errorf("an agent that ignores * must be allowed /s")
	}
	// The former names still answer, as the new ones do.
	var old *robotstxt.Agent = f.Agent("Googlebot-Image", "Googlebot")
	if g := old.Group(); g.Via != robotstxt.ViaFallback || g.Agent != "googlebot" {
		t.Errorf("File.Agent: %+v", g)
	}
	if g := f.AgentExplicit("AdsBot-Google").Group(); g.Via != robotstxt.ViaNone {
		t.Errorf("File.AgentExplicit fell back to *: %+v", g)
	}
}

func TestProductToken(t *testing.T) {
	for in, want := range map[string]string{
		"Googlebot": "Googlebot",
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)":                               "Googlebot",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)": "GPTBot",
		"Googlebot-Image/1.0":                      "Googlebot-Image",
		"CCBot/2.0 (https://commoncrawl.org/faq/)": "CCBot",
		"facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)": "facebookexternalhit",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64)":                                 "Mozilla",
		"harry potter": "harry potter",
		// "compatible;" at the very start still names the product after it.
		"compatible; Foo/1.0": "Foo",
		// Mozilla is skipped when another product follows, with or without
		// a comment between them.
		"Mozilla/5.0 Foo/1.0":       "Foo",
		"Mozilla/5.0 (X11) Foo/1.0": "Foo",
		// A name that starts with a comment: the product after it.
		"(x) Foo/1.0": "Foo",
	} {
		if got := robotstxt.ProductToken(in); got != want {
			t.Errorf("ProductToken(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestExtensions(t *testing.T) {
	in := `Sitemap: https://example.com/a.xml
Host: www.example.com
User-agent: Bingbot
Crawl-delay: 2.5
Request-rate: 1/10s 0600-0845
Visit-time: 0100-0400
Clean-param: ref&sid /forum
Content-Signal: search=yes, ai-train=no
Content-Usage: /docs train-ai=n
Noindex: /x
Disallow: /private
User-agent: *
Crawl-delay: 10
Sitemap: https://example.com/b.xml
`
	f := robotstxt.Parse([]byte(in))
	if s := f.Sitemaps(); len(s) != 2 || s[1].URL != "https://example.com/b.xml" || s[1].Line != 14 {
		t.Errorf("sitemaps %+v", s)
	}
	if h, ok := f.Host(); !ok || h.Value != "www.example.com" || h.Line != 2 {
		t.Errorf("host %+v", h)
	}
	a := f.Matcher("bingbot")
	if d, line, ok := a.CrawlDelay(); !ok || d != 2500*time.Millisecond || line != 4 {
		t.Errorf("crawl-delay %v %d %v", d, line, ok)
	}
	if e, ok := a.Extension(robotstxt.KeyRequestRate); !ok || e.Requests != 1 || e.Per != 10*time.Second || e.Window == nil || e.Window.From != 360 || e.Window.To != 525 {
		t.Errorf("request-rate %+v", e)
	}
	if e, ok := a.Extension(robotstxt.KeyVisitTime); !ok || e.Window.From != 60 || e.Window.To != 240 {
		t.Errorf("visit-time %+v", e)
	}
	if e, ok := a.Extension(robotstxt.KeyCleanParam); !ok || len(e.Params) != 2 || e.Params[1] != "sid" || e.Path != "/forum" {
		t.Errorf("clean-param %+v", e)
	}
	if e, ok := a.Extension(robotstxt.KeyContentSignal); !ok || len(e.Pairs) != 2 || e.Pairs[1] != (robotstxt.Pair{Key: "ai-train", Value: "no"}) {
		t.Errorf("content-signal %+v", e)
	}
	if e, ok := a.Extension(robotstxt.KeyContentUsage); !ok || e.Path != "/docs" || e.Pairs[0] != (robotstxt.Pair{Key: "train-ai", Value: "n"}) {
		t.Errorf("content-usage %+v", e)
	}
	if u := f.Unknown(); len(u) != 1 || u[0].Key != "Noindex" || u[0].Line != 10 || u[0].Group != 0 {
		t.Errorf("unknown %+v", u)
	}
	if d, _, _ := f.Star().CrawlDelay(); d != 10*time.Second {
		t.Errorf("star crawl-delay %v", d)
	}
	// Only allow and disallow end a group (Google; RFC 9309 §2.1): a
	// user-agent line after extension lines joins the same group.
	joined := robotstxt.Parse([]byte("User-agent: a\nCrawl-delay: 3\nUser-agent: b\nDisallow: /x\n"))
	if d, _, _ := joined.Matcher("b").CrawlDelay(); d != 3*time.Second || joined.Check("a", "/x").Allowed {
		t.Errorf("a and b must share one group")
	}
	// Extensions never change the verdict.
	if !a.Check("/docs/x").Allowed {
		t.Errorf("extensions must not disallow")
	}
	bad := robotstxt.Parse([]byte("User-agent: *\nCrawl-delay: -1\nRequest-rate: x\nVisit-time: 25:00-01:00\nContent-Signal: ai-train=maybe\n"))
	n := 0
	for _, d := range bad.Diagnostics() {
		if d.Code == "invalid-value" {
			n++
		}
	}
	if n != 4 {
		t.Errorf("want 4 invalid-value diagnostics, got %v", bad.Diagnostics())
	}
}

// TestCheckAllocs pins "a check allocates nothing", for Check and Allowed.
func TestCheckAllocs(t *testing.T) {
	f := robotstxt.Parse([]byte("User-agent: *\nDisallow: /a*b$\nAllow: /a/\nDisallow: /\n"))
	a := f.Matcher("Googlebot")
	rf := robotstxt.ParseWith([]byte("User-agent: *\nDisallow: /a%2A\n"), robotstxt.Options{Profile: robotstxt.RFC9309}).Matcher("x")
	for _, u := range []string{"https://example.com/a/x/b", "/a", "https://h?q", "https://h/%7Ea?x=http://y"} {
		if n := testing.AllocsPerRun(100, func() { a.Check(u) }); n != 0 {
			t.Errorf("google Check(%q) allocates %v times", u, n)
		}
		if n := testing.AllocsPerRun(100, func() { rf.Check(u) }); n != 0 {
			t.Errorf("rfc9309 Check(%q) allocates %v times", u, n)
		}
		if n := testing.AllocsPerRun(100, func() { a.Allowed(u); rf.Allowed(u) }); n != 0 {
			t.Errorf("Allowed(%q) allocates %v times", u, n)
		}
		if n := testing.AllocsPerRun(100, func() { f.Check("Googlebot", u) }); n != 0 {
			t.Errorf("File.Check(%q) allocates %v times", u, n)
		}
	}
}

// TestAllowedRewrittenPaths: URLs whose path must be rewritten before
// matching (a "/" put in front of "?" or ";") take Allowed's slow path
// under the google profile too; it must answer as Check does, including
// when a rule decides. URLs without a scheme or with a fragment only
// stand beside them.
func TestAllowedRewrittenPaths(t *testing.T) {
	a := robotstxt.Parse([]byte("User-agent: *\nDisallow: /?\nDisallow: /;\nAllow: /;ok\nDisallow: /x\n")).Matcher("ExampleBot")
	for _, tt := range []struct {
		url  string
		want bool
	}{
		{"https://example.com?q=1", false},
		{"https://example.com;p", false},
		{"https://example.com;ok", true},
		{"example.com/x", false},
		{"example.com/y", true},
		{"https://example.com#frag", true},
	} {
		d := a.Check(tt.url)
		if d.Allowed != tt.want {
			t.Errorf("Check(%q) = %v (%s), want %v", tt.url, d.Allowed, d.Rule, tt.want)
		}
		if got := a.Allowed(tt.url); got != tt.want {
			t.Errorf("Allowed(%q) = %v, want %v", tt.url, got, tt.want)
		}
	}
}

// TestCrawlDelayEndsGroup: with Options.CrawlDelayEndsGroup a Crawl-delay
// line is a group member, as for the engines that read it; without it the
// groups are Google's. The file is the Google guide's example.
func TestCrawlDelayEndsGroup(t *testing.T) {
	in := []byte("User-agent: msnbot\nCrawl-delay: 5\n\nUser-agent: slurp\nCrawl-delay: 12\nUser-agent: other\nRequest-rate: 1/5\nUser-agent: more\nDisallow: /x\n")
	type want struct {
		token string
		delay time.Duration
		line  int
		group []int // user-agent lines of its group
	}
	for _, tc := range []struct {
		ends   bool
		groups int
		want   []want
	}{
		// Google: nothing but Disallow (line 9) ends the run of
		// user-agent lines; the first Crawl-delay applies to all.
		{false, 1, []want{
			{"msnbot", 5 * time.Second, 2, []int{1, 4, 6, 8}},
			{"slurp", 5 * time.Second, 2, []int{1, 4, 6, 8}},
			{"more", 5 * time.Second, 2, []int{1, 4, 6, 8}},
		}},
		// Bing, Yandex: each Crawl-delay closes its group; Request-rate
		// does not.
		{true, 3, []want{
			{"msnbot", 5 * time.Second, 2, []int{1}},
			{"slurp", 12 * time.Second, 5, []int{4}},
			{"other", 0, 0, []int{6, 8}},
		}},
	} {
		for _, p := range []robotstxt.Profile{robotstxt.Google, robotstxt.RFC9309} {
			f := robotstxt.ParseWith(in, robotstxt.Options{Profile: p, CrawlDelayEndsGroup: tc.ends})
			if f.CrawlDelayEndsGroup() != tc.ends {
				t.Errorf("%v %v: CrawlDelayEndsGroup() = %v", p, tc.ends, f.CrawlDelayEndsGroup())
			}
			if n := len(f.Groups()); n != tc.groups {
				t.Errorf("%v %v: %d groups, want %d", p, tc.ends, n, tc.groups)
			}
			for _, w := range tc.want {
				a := f.Matcher(w.token)
				d, line, _ := a.CrawlDelay()
				if d != w.delay || line != w.line {
					t.Errorf("%v %v: %s: delay %v (line %d), want %v (line %d)", p, tc.ends, w.token, d, line, w.delay, w.line)
				}
				var lines []int // the user-agent lines of the group naming the token
				for _, g := range f.Groups() {
					if slices.Contains(g.AgentLines, a.Group().Lines[0]) {
						lines = g.AgentLines
					}
				}
				if !slices.Equal(lines, w.group) {
					t.Errorf("%v %v: %s: group of user-agent lines %v, want %v", p, tc.ends, w.token, lines, w.group)
				}
			}
			// Rules are the same either way where a group has them.
			if f.Check("more", "/x").Allowed {
				t.Errorf("%v %v: /x must be disallowed for more", p, tc.ends)
			}
		}
	}
}
