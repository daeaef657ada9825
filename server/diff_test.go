package server

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/rep-toolkit/rep/internal/testkit/browsertest"
)

// TestDiff: POST /api/diff answers rep diff -json's shape: the crawlers
// that see the same change clustered, each flip with its deciding lines.
func TestDiff(t *testing.T) {
	ts := newTestServer(t, Config{RatePerSecond: -1})
	body := jsonBody(t, map[string]any{
		"old":    "User-agent: *\nDisallow: /search/\n",
		"new":    "User-agent: *\nDisallow: /search\n",
		"agents": []string{"Googlebot, bingbot", "AdsBot-Google"},
		"urls":   []string{"https://example.com/search?q=x", "/about"},
	})
	code, m := call(t, "POST", ts.URL+"/api/diff", body)
	if code != 200 {
		t.Fatalf("status %d: %v", code, m)
	}
	if m["changed"] != true || fmt.Sprint(m["clusters"]) != "[[Googlebot bingbot]]" {
		t.Errorf("changed %v, clusters %v", m["changed"], m["clusters"])
	}
	cr := m["crawlers"].([]any)
	if len(cr) != 3 || cr[2].(map[string]any)["changed"] != false {
		t.Fatalf("crawlers %v", cr)
	}
	flips := cr[0].(map[string]any)["flips"].([]any)
	f := flips[0].(map[string]any)
	if f["url"] != "https://example.com/search?q=x" || f["witness"] != false || f["kind"] != "blocked" ||
		f["after"].(map[string]any)["rule"] != "Disallow: /search" || f["after"].(map[string]any)["line"] != 2.0 {
		t.Errorf("first flip %v", f)
	}

	for _, c := range []struct{ body, want string }{
		{`{"new": ""}`, `missing field "old" or "new"`},
		{`{"old": "", "new": "", "agents": [""]}`, ""},
		{`{"old": "", "new": "", "agents": ["nobody,"]}`, ""},
		{`{"old": "", "new": "", "urls": ["ftp://x/"]}`, `urls[0]: "ftp://x/": scheme "ftp" is not http or https`},
		{`{"old": "", "new": "", "profile": "msn"}`, `unknown profile "msn"`},
		{`{"old": "", "new": "", "olds": ""}`, `unknown field`},
	} {
		code, m := call(t, "POST", ts.URL+"/api/diff", c.body)
		if c.want == "" {
			if code != 200 {
				t.Errorf("%s: status %d %v", c.body, code, m)
			}
			continue
		}
		if code != 400 || !strings.Contains(fmt.Sprint(m["error"]), c.want) {
			t.Errorf("%s: status %d, error %v, want 400 %q", c.body, code, m["error"], c.want)
		}
	}
	if code, _ := call(t, "GET", ts.URL+"/api/diff", ""); code != 405 {
		t.Errorf("GET /api/diff: status %d, want 405", code)
	}
}

const compareOld = `User-agent: *
Disallow: /private/
Disallow: /search/

User-agent: GPTBot
Disallow: /

Sitemap: https://example.com/sitemap.xml
`

const compareNew = `User-agent: *
Disallow: /private/
Disallow: /search

User-agent: Googlebot
Disallow: /tmp/

User-agent: GPTBot
Disallow: /
`

// TestBrowserCompare drives the Compare tab in Chromium: two versions
// pasted, crawlers and a URL typed, the flips per group of crawlers with
// witness paths, a link that restores the comparison, and no sideways
// scrolling at 1280 and 390 px.
func TestBrowserCompare(t *testing.T) {
	bctx := browsertest.Start(t, 1280, 900)
	s, err := newServer(Config{RatePerSecond: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	clusterNames := `[...document.querySelectorAll('#cmp-clusters .cmp-names')].map(e => e.textContent)`
	var shared string
	t.Run("desktop", func(t *testing.T) {
		ctx, cancel, con := tab(t, bctx)
		run(t, ctx,
			chromedp.Navigate(ts.URL+"/"),
			chromedp.WaitVisible(chromedp.ID("tab-compare")),
			chromedp.Click(chromedp.ID("tab-compare")),
			chromedp.WaitVisible(chromedp.ID("cmp-old")),
			paste("#cmp-old", compareOld),
			paste("#cmp-new", compareNew),
			chromedp.SendKeys(chromedp.ID("cmp-agents"), "Googlebot, Googlebot-Image, bingbot, GPTBot"),
			chromedp.SendKeys(chromedp.ID("cmp-urls"), "/search?q=shoes"),
			waitJS(`document.querySelector('#cmp-clusters tr[data-url="/search?q=shoes"]') !== null && `+clusterNames+`.length === 2`),
		)
		names := evalJS[[]string](t, ctx, clusterNames)
		if fmt.Sprint(names) != "[Googlebot, Googlebot-Image bingbot]" {
			t.Errorf("clusters %q", names)
		}
		// Googlebot now obeys its own group: /private/ opens, /tmp/ closes,
		// found by witness paths; the typed URL closes for bingbot only.
		g := `#cmp-clusters .cmp-cluster[data-index="0"] `
		rows := evalJS[[]string](t, ctx, `[...document.querySelectorAll('`+g+`tr.cmp-flip')].map(r => r.dataset.url + ' ' + r.className.replace('cmp-flip ', ''))`)
		for _, r := range rows {
			if strings.HasPrefix(r, "/search?") {
				t.Errorf("Googlebot's flips hold %q: allowed before and after", r)
			}
		}
		for _, want := range []string{"/private/ allowed", "/tmp/ blocked"} {
			found := false
			for _, r := range rows {
				found = found || r == want
			}
			if !found {
				t.Errorf("Googlebot's flips %q lack %q", rows, want)
			}
		}
		if got := text(t, ctx, g+`tr[data-url="/tmp/"]`); !strings.Contains(got, "witness") || !strings.Contains(got, "Disallow: /tmp/") || !strings.Contains(got, "line 6") {
			t.Errorf("/tmp/ row %q", got)
		}
		if got := text(t, ctx, `#cmp-clusters .cmp-cluster[data-index="1"] tr[data-url="/search?q=shoes"]`); !strings.Contains(got, "Now blocked") || !strings.Contains(got, "Disallow: /search") {
			t.Errorf("bingbot's /search?q=shoes row %q", got)
		}
		if got := text(t, ctx, "#cmp-sitemaps"); !strings.Contains(got, "Sitemap removed: https://example.com/sitemap.xml") {
			t.Errorf("sitemaps %q", got)
		}
		if got := text(t, ctx, "#cmp-unchanged"); !strings.Contains(got, "GPTBot") {
			t.Errorf("unchanged %q", got)
		}
		if evalJS[bool](t, ctx, `document.documentElement.scrollWidth > window.innerWidth + 1`) {
			t.Error("the Compare tab scrolls sideways at 1280 px")
		}
		if *update {
			screenshot(t, ctx, "serve-compare.png", chromedp.Steps())
		}
		// The two files sit side by side.
		if evalJS[float64](t, ctx, `Math.abs(document.getElementById('cmp-old').getBoundingClientRect().top - document.getElementById('cmp-new').getBoundingClientRect().top)`) > 1 {
			t.Error("old and new are not side by side at 1280 px")
		}
		// An error keeps the results, marked out of date.
		con.expect("400")
		run(t, ctx,
			chromedp.SendKeys(chromedp.ID("cmp-urls"), "\nftp://example.com/"),
			waitJS(`!document.getElementById('cmp-error').hidden && document.getElementById('cmp-out').classList.contains('stale')`),
		)
		run(t, ctx,
			paste("#cmp-urls", "/search?q=shoes"),
			waitJS(`document.getElementById('cmp-error').hidden`),
			waitJS(`location.hash.includes('tab=compare') && location.hash.includes('cnew=')`),
		)
		shared = evalJS[string](t, ctx, `location.href`)
		con.check(t, cancel)
	})
	t.Run("shared link at 390 px", func(t *testing.T) {
		if shared == "" {
			t.Fatal("no shared link from the desktop test")
		}
		ctx, cancel, con := tab(t, bctx)
		run(t, ctx,
			chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
			chromedp.Navigate(shared),
			waitJS(`document.querySelectorAll('#cmp-clusters .cmp-cluster').length === 2`),
		)
		if got := evalJS[string](t, ctx, `document.getElementById('cmp-agents').value`); got != "Googlebot, Googlebot-Image, bingbot, GPTBot" {
			t.Errorf("restored crawlers %q", got)
		}
		if evalJS[bool](t, ctx, `document.documentElement.scrollWidth > window.innerWidth + 1`) {
			t.Errorf("the Compare tab scrolls sideways at 390 px: %v px wide", evalJS[float64](t, ctx, `document.documentElement.scrollWidth`))
		}
		wide := evalJS[[]string](t, ctx, `[...document.querySelectorAll('#panel-compare *')].filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible' && !e.matches('input, textarea, .sr')).map(e => e.id || e.className || e.tagName)`)
		if len(wide) > 0 {
			t.Errorf("scroll sideways at 390 px: %q", wide)
		}
		// The files stack: new below old.
		if evalJS[bool](t, ctx, `document.getElementById('cmp-new').getBoundingClientRect().top <= document.getElementById('cmp-old').getBoundingClientRect().bottom`) {
			t.Error("old and new are not stacked at 390 px")
		}
		// A misspelt crawler: "did you mean", one click from the fix.
		run(t, ctx,
			paste("#cmp-agents", "Googlebot, bingbott"),
			waitJS(`!document.getElementById('cmp-names').hidden`),
		)
		if got := text(t, ctx, "#cmp-names"); !strings.Contains(got, "Unknown crawler “bingbott” — did you mean bingbot?") || strings.Contains(got, "Googlebot”") {
			t.Errorf("names %q", got)
		}
		if wide := evalJS[[]string](t, ctx, `[...document.querySelectorAll('#cmp-names *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).map(e => e.textContent)`); len(wide) > 0 {
			t.Errorf("past the window at 390 px: %q", wide)
		}
		run(t, ctx,
			chromedp.Click(chromedp.CSS(`#cmp-names button[data-name="bingbot"]`)),
			waitJS(`document.getElementById('cmp-agents').value === 'Googlebot, bingbot' && document.getElementById('cmp-names').hidden`),
		)
		con.check(t, cancel)
	})
}

// TestDiffNamed: /api/diff names the crawlers asked for with their kind
// and, for a misspelt one, did_you_mean, in the shape of a crawl's start
// event; the diff's own fields are all still there.
func TestDiffNamed(t *testing.T) {
	ts := newTestServer(t, Config{RatePerSecond: -1})
	body := map[string]any{"old": "User-agent: *\nDisallow: /a\n", "new": "User-agent: *\nDisallow: /b\n", "agents": []string{"Googlebto", "GPTBot"}}
	var got struct {
		Named []struct {
			Agent      string   `json:"agent"`
			Kind       string   `json:"kind"`
			DidYouMean []string `json:"did_you_mean"`
		} `json:"named"`
		Changed  bool              `json:"changed"`
		Crawlers []json.RawMessage `json:"crawlers"`
	}
	post(t, ts.URL+"/api/diff", body, &got)
	if len(got.Named) != 2 || got.Named[0].Agent != "Googlebto" || got.Named[0].Kind != "unknown" || fmt.Sprint(got.Named[0].DidYouMean) != "[Googlebot]" ||
		got.Named[1].Agent != "GPTBot" || got.Named[1].DidYouMean != nil {
		t.Errorf("named %+v", got.Named)
	}
	if !got.Changed || len(got.Crawlers) != 2 {
		t.Errorf("the diff: changed %v, %d crawlers", got.Changed, len(got.Crawlers))
	}
	// With no crawler named, the answer is rep diff -json's shape alone.
	_, raw := postRaw(t, ts.URL+"/api/diff", map[string]any{"old": "", "new": ""})
	if strings.Contains(string(raw), `"named"`) {
		t.Errorf("named without names: %s", raw)
	}
}
