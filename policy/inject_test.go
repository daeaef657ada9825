package policy

import (
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/crawlers"
)

// TestValuesRefused: a value no target can carry inert is refused, with
// the key and the line.
func TestValuesRefused(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line      int
		key       string
	}{
		{"crawl_delay nan", "[[group]]\nagents = [\"*\"]\ncrawl_delay = nan\n", 3, "group[1].crawl_delay"},
		{"crawl_delay inf", "[[group]]\nagents = [\"*\"]\ncrawl_delay = inf\n", 3, "group[1].crawl_delay"},
		{"crawl_delay -inf", "[[group]]\nagents = [\"*\"]\ncrawl_delay = -inf\n", 3, "group[1].crawl_delay"},
		{"crawl_delay negative", "[[group]]\nagents = [\"*\"]\n\ncrawl_delay = -1\n", 4, "group[1].crawl_delay"},
		{"sitemap fragment", "sitemaps = [\"https://example.com/s.xml#x\"]\n", 1, "sitemaps[1]"},
		{"group usage #", "[[group]]\nagents = [\"*\"]\ncontent_usage = \"train-ai=n # no\"\n", 3, "group[1].content_usage"},
		{"signal #", "[usage]\ncontent_signal = \"search=yes#\"\n", 2, "usage.content_signal"},
		{"usage #", "[usage]\ncontent_usage = \"train-ai=n#\"\n", 2, "usage.content_usage"},
		{"header $", "[[header]]\npath = \"/\"\nx_robots_tag = \"noindex $host\"\n", 3, "header[1].x_robots_tag"},
		{"header braces", "[[header]]\npath = \"/\"\nx_robots_tag = \"{env.HOME}\"\n", 3, "header[1].x_robots_tag"},
		{"header CR", "[[header]]\npath = \"/\"\nx_robots_tag = \"noindex\\rX: y\"\n", 3, "header[1].x_robots_tag"},
		{"header ;", "[[header]]\npath = \"/\"\ncontent_usage = \"train-ai=n; x\"\n", 3, "header[1].content_usage"},
		{"path not UTF-8", "[[header]]\npath = \"/a%FF/\"\nx_robots_tag = \"noindex\"\n", 2, "header[1].path"},
		{"path brace", "[[header]]\npath = \"/a{1}\"\nx_robots_tag = \"noindex\"\n", 2, "header[1].path"},
		{"comment newline", "[[group]]\nagents = [\"*\"]\ncomment = \"a\\nUser-agent: x\"\n", 3, "group[1].comment"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("p.toml", []byte(tc.src))
			var pe *Error
			if !errors.As(err, &pe) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v, want an invalid-policy *Error", err)
			}
			if pe.Line != tc.line || pe.Key != tc.key {
				t.Errorf("line %d key %q, want line %d key %q (%v)", pe.Line, pe.Key, tc.line, tc.key, err)
			}
		})
	}
}

func TestUnknownKeySuggests(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"[[headers]]\npath = \"/\"\nx_robots_tag = \"noindex\"\n", "did you mean [[header]]?"},
		{"[[groups]]\nagents = [\"*\"]\n", "did you mean [[group]]?"},
		{"[[group]]\nagents = [\"*\"]\ndisalow = [\"/\"]\n", "did you mean disallow?"},
		{"sitemap = []\n", "did you mean sitemaps?"},
		{"[usage]\ncontent_signals = \"search=yes\"\n", "did you mean content_signal?"},
		{"frobnicate = 1\n", "unknown key (see"},
	} {
		_, err := Parse("p.toml", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.src, err, tc.want)
		}
	}
}

// TestNoLineFromName: the policy file's name, whatever it holds, stays in
// the one comment line that names it, in every generated file and in
// error messages.
func TestNoLineFromName(t *testing.T) {
	p, err := Parse(attackName, []byte(attackPolicy))
	if err != nil {
		t.Fatal(err)
	}
	clean, err := Parse("site.toml", []byte(attackPolicy))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	for _, o := range clean.Outputs() {
		want[o.Name] = strings.Count(string(o.Data), "\n")
	}
	for _, o := range p.Outputs() {
		text := string(o.Data)
		if n := strings.Count(text, "\n"); n != want[o.Name] {
			t.Errorf("%s: %d lines, %d with a plain name", o.Name, n, want[o.Name])
		}
		first, rest, _ := strings.Cut(text, "\n")
		if !strings.Contains(first, "evil%0Aadd_header%20X-Injected") || strings.HasSuffix(first, "\\") {
			t.Errorf("%s: first line %q", o.Name, first)
		}
		if strings.Contains(rest, "X-Injected") {
			t.Errorf("%s: the name reached a line of its own:\n%s", o.Name, text)
		}
	}
	_, err = Parse(attackName, []byte("enforce = 1\n"))
	if err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("error message %q", err)
	}
}

// TestPercentInert: a '%' in a header value is doubled where the server
// reads it, and only there.
func TestPercentInert(t *testing.T) {
	p := mustParse(t, "[[header]]\npath = \"/\"\nx_robots_tag = \"noindex %[env(HOME)] %t\"\n")
	for _, s := range Servers {
		conf := string(p.Config(s))
		escaped := strings.Contains(conf, `"noindex %%[env(HOME)] %%t"`)
		if want := s.Name == "apache" || s.Name == "haproxy"; escaped != want {
			t.Errorf("%s: escaped %v, want %v:\n%s", s.File, escaped, want, conf)
		}
	}
}

func TestDecodedRegexp(t *testing.T) {
	for _, tc := range []struct{ pat, pcre, re2 string }{
		{"/a%20b/*", `^/a\x20b/.*`, `^/a\x{20}b/.*`},
		{"/h%C3%A9/", `^/h\xC3\xA9/`, `^/h\x{E9}/`},
		{"/hé/", `^/h\xC3\xA9/`, `^/h\x{E9}/`},
		{"/lit%2Astar*.pdf$", `^/lit\x2Astar.*\x2Epdf$`, `^/lit\x{2A}star.*\x{2E}pdf$`},
		{"/50%", `^/50\x25`, `^/50\x{25}`},
	} {
		if got := decodedRegexp(tc.pat, pcre); got != tc.pcre {
			t.Errorf("%s pcre: %s, want %s", tc.pat, got, tc.pcre)
		}
		if got := decodedRegexp(tc.pat, re2); got != tc.re2 {
			t.Errorf("%s re2: %s, want %s", tc.pat, got, tc.re2)
		}
	}
}

// TestUARulesAgreeWithMatch: the refusal by User-Agent the configurations
// write agrees with the gate's reading of a User-Agent (crawlers.Match),
// for every registry token alone, with a suffix, and beside every other
// (pairs whose tokens are of one length are left out: Match breaks the tie
// by registry order, the configurations refuse).
func TestUARulesAgreeWithMatch(t *testing.T) {
	p := mustParse(t, "[[group]]\ncategories = [\"ai-training\"]\nagents = [\"Applebot\"]\ndisallow = [\"/\"]\n")
	type rule struct{ refused, longer *regexp.Regexp }
	var rules []rule
	for _, r := range p.uaRules() {
		x := rule{refused: regexp.MustCompile("(?i)" + r.Refused)}
		if r.Longer != "" {
			x.longer = regexp.MustCompile("(?i)" + r.Longer)
		}
		rules = append(rules, x)
	}
	configRefuses := func(ua string) bool {
		for _, r := range rules {
			if r.refused.MatchString(ua) && (r.longer == nil || !r.longer.MatchString(ua)) {
				return true
			}
		}
		return false
	}
	blocked := p.Blocked()
	gateRefuses := func(ua string) bool {
		c, ok := crawlers.Classify(ua)
		return ok && c.Source == crawlers.SourceRegistry && slices.Contains(blocked, c.Tokens[0])
	}
	var tokens []string
	for _, c := range crawlers.All() {
		tokens = append(tokens, c.Tokens...)
	}
	n := 0
	check := func(ua string) {
		n++
		if got, want := configRefuses(ua), gateRefuses(ua); got != want {
			t.Errorf("%q: configurations refuse %v, the gate %v", ua, got, want)
		}
	}
	for _, a := range tokens {
		check("Mozilla/5.0 (compatible; " + a + "/1.0)")
		check(a + "-Fake/1.0")
		check(strings.ToLower(a) + "2/1.0")
		for _, b := range tokens {
			if len(a) != len(b) || strings.EqualFold(a, b) {
				check("Mozilla/5.0 (compatible; " + a + "/1.0; " + b + "/2.0)")
			}
		}
	}
	t.Logf("%d User-Agents, %d refused tokens", n, len(blocked))
}

// FuzzParse: any file Parse accepts builds outputs whose only control
// characters are newlines and tabs, whose values never hold a raw '%'
// where Apache or HAProxy would expand it, and which the round trip
// checks without failing.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"issue.toml", "ai.toml", "staging.toml", "overlap.toml", "pdf.toml"} {
		if b, err := os.ReadFile("testdata/" + name); err == nil {
			f.Add(string(b), name)
		}
	}
	f.Add(attackPolicy, attackName)
	f.Fuzz(func(t *testing.T, src, name string) {
		p, err := Parse(name, []byte(src))
		if err != nil {
			return
		}
		for _, o := range p.Outputs() {
			for i, c := range o.Data {
				if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
					t.Fatalf("%s: control byte %#x at %d", o.Name, c, i)
				}
			}
			first, _, _ := strings.Cut(string(o.Data), "\n")
			if !strings.HasPrefix(first, "# Generated by rep policy build from ") || strings.HasSuffix(first, "\\") {
				t.Fatalf("%s: first line %q", o.Name, first)
			}
		}
		for _, s := range Servers {
			if s.Name != "apache" && s.Name != "haproxy" {
				continue
			}
			for _, l := range strings.Split(string(p.Config(s)), "\n") {
				if strings.HasPrefix(strings.TrimSpace(l), "#") {
					continue
				}
				rest := strings.NewReplacer("%%", "", "%{REQUEST_URI}", "", "%{HTTP_USER_AGENT}", "").Replace(l)
				if strings.Contains(rest, "%") {
					t.Fatalf("%s: a lone %% in %q", s.File, l)
				}
			}
		}
		p.Check()
	})
}
