package crawlers

import (
	"encoding/json"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

var purposes = map[Purpose]bool{
	PurposeSearch: true, PurposeAITraining: true, PurposeAISearch: true, PurposeUserFetch: true,
	PurposeAds: true, PurposeMonitoring: true, PurposeSEO: true, PurposePreview: true,
	PurposeFeed: true, PurposeArchive: true, PurposeResearch: true, PurposeScanner: true,
	PurposeLibrary: true, PurposeAutomation: true, PurposeAI: true, PurposeOther: true,
}

var obeys = map[Obeys]bool{Yes: true, No: true, Partial: true, Unknown: true}

func checkHTTPS(t *testing.T, what, raw string) {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		t.Errorf("%s: URL %q is not an absolute https URL", what, raw)
	}
}

// TestRegistryComplete checks every registry entry has every field, every
// URL is https and each verification method carries exactly the evidence
// it needs.
func TestRegistryComplete(t *testing.T) {
	if len(All()) == 0 || len(Lists()) == 0 {
		t.Fatal("empty registry")
	}
	used := map[string]bool{}
	for _, c := range All() {
		what := "crawler " + c.Name
		if c.Name == "" || len(c.Tokens) == 0 || c.Operator == "" {
			t.Errorf("%s: name, tokens and operator are required: %+v", what, c)
		}
		for _, tok := range c.Tokens {
			if tok == "" || strings.ContainsAny(tok, " /;()") {
				t.Errorf("%s: bad product token %q", what, tok)
			}
		}
		for _, fb := range c.RobotsFallback {
			// A fallback names another crawler (Applebot's is Google's
			// Googlebot) or a group token of the same operator.
			o, isCrawler := ByName(fb)
			isGroup := slices.ContainsFunc(Groups(), func(g *Group) bool { return g.Token == fb && g.Operator == c.Operator })
			if isCrawler && o == c || !isCrawler && !isGroup {
				t.Errorf("%s: robots_fallback %q is neither another crawler nor a group of %s", what, fb, c.Operator)
			}
		}
		if !purposes[c.Purpose] {
			t.Errorf("%s: unknown purpose %q", what, c.Purpose)
		}
		if !obeys[c.RobotsTxt] || !obeys[c.CrawlDelay] {
			t.Errorf("%s: robots_txt %q / crawl_delay %q not yes, no, partial or unknown", what, c.RobotsTxt, c.CrawlDelay)
		}
		checkHTTPS(t, what, c.Docs)
		v := c.Verify
		hasRDNS, hasLists, hasASN := len(v.RDNS) > 0, len(v.Lists) > 0, len(v.ASN) > 0
		var want [3]bool // rdns, lists, asn
		switch v.Method {
		case MethodFCrDNS, MethodRDNSOnly:
			want = [3]bool{true, false, false}
		case MethodRanges:
			want = [3]bool{false, true, false}
		case MethodBoth:
			want = [3]bool{true, true, false}
		case MethodASN:
			want = [3]bool{false, false, true}
		case MethodNone, MethodTokenOnly:
		default:
			t.Errorf("%s: unknown verification method %q", what, v.Method)
		}
		if got := [3]bool{hasRDNS, hasLists, hasASN}; got != want {
			t.Errorf("%s: method %q has rdns/lists/asn %v, want %v", what, v.Method, got, want)
		}
		for _, s := range v.RDNS {
			if s != strings.ToLower(s) || strings.HasPrefix(s, ".") || strings.HasSuffix(s, ".") || !strings.Contains(s, ".") {
				t.Errorf("%s: rDNS suffix %q must be a lower-case domain without leading or trailing dot", what, s)
			}
		}
		for _, id := range v.Lists {
			l, ok := ListByID(id)
			if !ok {
				t.Errorf("%s: unknown list %q", what, id)
				continue
			}
			if l.Operator != c.Operator {
				t.Errorf("%s: list %q belongs to %q, not %q", what, id, l.Operator, c.Operator)
			}
			used[id] = true
		}
		if c.Source != SourceRegistry {
			t.Errorf("%s: source %q", what, c.Source)
		}
	}
	for _, g := range Groups() {
		what := "group " + g.Token
		if g.Token == "" || g.Operator == "" {
			t.Errorf("%s: token and operator are required", what)
		}
		checkHTTPS(t, what, g.Docs)
		if !slices.ContainsFunc(All(), func(c *Crawler) bool { return slices.Contains(c.RobotsFallback, g.Token) }) {
			t.Errorf("%s: no crawler falls back to it", what)
		}
	}
	for _, l := range Lists() {
		what := "list " + l.ID
		if l.ID == "" || l.Operator == "" {
			t.Errorf("%s: id and operator are required", what)
		}
		checkHTTPS(t, what, l.URL)
		for _, r := range l.Replaces {
			checkHTTPS(t, what+" (replaces)", r)
		}
		if !used[l.ID] && !l.Weak {
			t.Errorf("%s: no crawler uses it", what)
		}
	}
}

// TestRegistryOperators checks the operators the research note requires.
func TestRegistryOperators(t *testing.T) {
	ops := map[string]bool{}
	for _, c := range All() {
		ops[c.Operator] = true
	}
	for _, op := range []string{"Google", "Microsoft", "Yandex", "Baidu", "Apple", "DuckDuckGo", "OpenAI",
		"Anthropic", "Common Crawl", "Perplexity", "Meta", "Amazon", "Mistral AI", "ByteDance"} {
		if !ops[op] {
			t.Errorf("operator %q missing from the registry", op)
		}
	}
	for _, name := range []string{"Google-Extended", "Applebot-Extended"} {
		c, ok := ByName(name)
		if !ok || !c.TokenOnly() {
			t.Errorf("%s must be a token-only entry, got %+v", name, c)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct{ name, json, want string }{
		{"syntax", `{`, "unexpected EOF"},
		{"unknown field", `{"crawlers":[{"nmae":"x"}]}`, "unknown field"},
		{"no date", `{"crawlers":[]}`, `"updated" must be the day`},
		{"bad date", `{"updated":"25/11/2026","crawlers":[]}`, `"updated" must be the day`},
		{"dup list", `{"updated":"2026-01-02","lists":[{"id":"a"},{"id":"a"}]}`, `list "a" defined twice`},
		{"dup token", `{"updated":"2026-01-02","crawlers":[{"name":"A","tokens":["x"]},{"name":"B","tokens":["X"]}]}`, `already used by "A"`},
		{"unknown list", `{"updated":"2026-01-02","crawlers":[{"name":"A","verify":{"lists":["nope"]}}]}`, `unknown list "nope"`},
		{"unknown fallback", `{"updated":"2026-01-02","crawlers":[{"name":"A","tokens":["a"],"robots_fallback":["Googlebot"]}]}`,
			`crawler "A": robots_fallback "Googlebot" names no crawler or group`},
		{"self fallback", `{"updated":"2026-01-02","crawlers":[{"name":"A","tokens":["a"],"robots_fallback":["A"]}]}`,
			`robots_fallback "A" repeats one of its own tokens`},
		{"repeated fallback", `{"updated":"2026-01-02","crawlers":[{"name":"A","tokens":["a"],"robots_fallback":["b","B"]},{"name":"B","tokens":["b"]}]}`,
			`robots_fallback "B" repeats`},
		{"cycle", `{"updated":"2026-01-02","crawlers":[{"name":"A","tokens":["a"],"robots_fallback":["b"]},{"name":"B","tokens":["b"],"robots_fallback":["a"]}]}`,
			`crawler "A": robots_fallback cycle: A → B → A`},
		{"chain not written out", `{"updated":"2026-01-02","crawlers":[{"name":"A","tokens":["a"],"robots_fallback":["b"]},{"name":"B","tokens":["b"],"robots_fallback":["c"]},{"name":"C","tokens":["c"]}]}`,
			`crawler "A": robots_fallback names "b" but not, after it, "c" from B's own chain`},
		{"chain out of order", `{"updated":"2026-01-02","crawlers":[{"name":"A","tokens":["a"],"robots_fallback":["c","b"]},{"name":"B","tokens":["b"],"robots_fallback":["c"]},{"name":"C","tokens":["c"]}]}`,
			`crawler "A": robots_fallback names "b" but not, after it, "c"`},
		{"other operator's group", `{"updated":"2026-01-02","groups":[{"token":"Y","operator":"Yandex"}],"crawlers":[{"name":"A","tokens":["a"],"operator":"Other","robots_fallback":["y"]}]}`,
			`robots_fallback "y" is a group of Yandex's crawlers`},
		{"group token of a crawler", `{"updated":"2026-01-02","groups":[{"token":"A","operator":"X"}],"crawlers":[{"name":"A","tokens":["a"]}]}`,
			`group "A": token already used by crawler "A"`},
		{"star group", `{"updated":"2026-01-02","groups":[{"token":"*","operator":"X"}]}`, `group "*": a group token names crawlers`},
		{"dup group", `{"updated":"2026-01-02","groups":[{"token":"Y","operator":"X"},{"token":"y","operator":"X"}]}`, `group "y" defined twice`},
		{"ignores star but not robots.txt", `{"updated":"2026-01-02","crawlers":[{"name":"A","tokens":["a"],"ignores_star":true,"robots_txt":"no"}]}`,
			`crawler "A": ignores_star says it reads robots.txt groups`},
		{"ignored control token", `{"updated":"2026-01-02","crawlers":[{"name":"A","tokens":["a"],"robots_txt":"no","verify":{"method":"token-only"}}]}`,
			`crawler "A": a token-only entry exists to be obeyed`},
		{"unknown engine", `{"updated":"2026-01-02","crawlers":[{"name":"A","tokens":["a"],"engine":"altavista"}]}`, `unknown engine "altavista"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := load([]byte(tc.json))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("load(%s) = %v, want error containing %q", tc.json, err, tc.want)
			}
		})
	}
}

// TestDataDates: the embedded data sets carry the days they are current
// as of, and those days are plausible: not before the project's data
// (2022, the oldest IP-list snapshot) and not in the future.
func TestDataDates(t *testing.T) {
	floor, now := time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC), time.Now()
	v, published := DataSetVersion()
	for name, d := range map[string]time.Time{"registry": RegistryDate(), "crawler-user-agents " + v: published} {
		if d.Before(floor) || d.After(now) {
			t.Errorf("%s dated %s", name, d.Format(time.DateOnly))
		}
	}
	if v == "" {
		t.Error("crawler-user-agents has no version")
	}
	// The data set cannot be older than its newest entry.
	newest := ""
	for _, e := range mustEntries(t) {
		newest = max(newest, strings.ReplaceAll(e.AdditionDate, "/", "-"))
	}
	if newest > published.Format(time.DateOnly) {
		t.Errorf("crawler-user-agents %s published %s holds an entry added %s", v, published.Format(time.DateOnly), newest)
	}
}

func mustEntries(t *testing.T) []dataSetEntry {
	t.Helper()
	var entries []dataSetEntry
	if err := json.Unmarshal(dataSetJSON, &entries); err != nil {
		t.Fatal(err)
	}
	return entries
}

// TestDataSetLicence checks the vendored data set keeps its MIT licence.
func TestDataSetLicence(t *testing.T) {
	b, err := os.ReadFile("data/crawler-user-agents.LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "MIT License") || !strings.Contains(string(b), "Monperrus") {
		t.Errorf("data/crawler-user-agents.LICENSE is not the data set's MIT licence")
	}
}

// TestRobotsAgents pins the robots.txt reading rules Google documents:
// Googlebot-Image obeys the Googlebot group when none names it, and the
// special-case crawlers ignore the * group.
func TestRobotsAgents(t *testing.T) {
	img, _ := ByName("Googlebot-Image")
	if got := img.RobotsAgents(); len(got) != 2 || got[0] != "Googlebot-Image" || got[1] != "Googlebot" {
		t.Errorf("Googlebot-Image chain %v", got)
	}
	for _, n := range []string{"AdsBot-Google", "AdsBot-Google-Mobile", "APIs-Google", "Mediapartners-Google"} {
		if c, ok := ByName(n); !ok || !c.IgnoresStar {
			t.Errorf("%s must ignore the * group", n)
		}
	}
	if g, _ := ByName("Googlebot"); g.IgnoresStar || len(g.RobotsFallback) != 0 {
		t.Errorf("Googlebot obeys * and has no fallback")
	}
}
