package server

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/rep-toolkit/rep/internal/testkit/browsertest"
)

// update rewrites the screenshots under docs/ from the browser tests.
var update = flag.Bool("update", false, "rewrite docs/serve-*.png screenshots from the browser tests")

// browser starts headless Chromium for one test (internal/testkit/browsertest).
func browser(t *testing.T) context.Context {
	return browsertest.Start(t, 1280, 900)
}

// console collects what a tab reports as an error: console.error calls,
// uncaught exceptions and browser log errors (failed loads, CSP
// violations).
type console struct {
	mu   sync.Mutex
	errs []string
	done chan struct{}
}

func (c *console) check(t *testing.T, cancel context.CancelFunc) {
	t.Helper()
	cancel()
	<-c.done
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.errs {
		t.Errorf("console: %s", e)
	}
}

// tab opens a new tab of the browser with its console watched; the tab
// times out after a minute so a broken page cannot hang the test. Call
// con.check(t, cancel) at the end to close the tab and assert a clean
// console.
func tab(t *testing.T, bctx context.Context) (context.Context, context.CancelFunc, *console) {
	t.Helper()
	ctx, cancel := chromedp.NewContext(bctx)
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		t.Fatal(err)
	}
	c := &console{done: make(chan struct{})}
	msgs := chromedp.Console(ctx)
	go func() {
		defer close(c.done)
		for m, err := range msgs {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException || m.Type == chromedp.ConsoleWarning {
				c.mu.Lock()
				c.errs = append(c.errs, fmt.Sprintf("%s %s (%s:%d)", m.Type, m.String(), m.URL, m.Line+1))
				c.mu.Unlock()
			}
		}
	}()
	tctx, cancelT := context.WithTimeout(ctx, time.Minute)
	t.Cleanup(func() { cancelT(); cancel() })
	return tctx, func() { cancelT(); cancel() }, c
}

// paste sets a textarea's value and fires the input event a paste fires.
func paste(sel, text string) chromedp.Action[chromedp.Void] {
	q, _ := json.Marshal(text)
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`{ const e = document.querySelector(%q); e.value = %s; e.dispatchEvent(new Event('input', {bubbles: true})); }`, sel, q))
}

// retype clears an input and types into it key by key.
func retype(sel, text string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).value = ''`, sel)),
		chromedp.SendKeys(chromedp.CSS(sel), text),
	)
}

// waitJS polls a JavaScript condition until it is true.
func waitJS(cond string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Poll[bool](cond, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))(ctx, t)
		if err != nil {
			return chromedp.Void{}, fmt.Errorf("waiting for %s: %w", cond, err)
		}
		return chromedp.Void{}, nil
	}
}

// evalJS runs an expression and returns its value.
func evalJS[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// text returns the textContent of the first element matching sel.
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return evalJS[string](t, ctx, fmt.Sprintf(`(document.querySelector(%q) || {textContent: '<missing>'}).textContent`, sel))
}

const browserRobots = `# example.com robots.txt
User-agent: *
Disallow: /private/
Allow: /private/press/
Disalow /tmp

User-agent: Googlebot
Disallow: /search
Crawl-delay: 5

User-agent: GPTBot
Disallow: /

Sitemap: https://example.com/sitemap.xml
`

func TestBrowser(t *testing.T) {
	bctx := browser(t)
	o := newOrigin(t, site)
	l := &loopbackOnly{}
	s, err := newServer(Config{RatePerSecond: -1}, l.check)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	badges := `[...document.querySelectorAll('#results-body .badge')].map(b => b.textContent).join(',')`

	var shared, pageShared string
	t.Run("robots tab", func(t *testing.T) {
		ctx, cancel, con := tab(t, bctx)
		err := chromedp.Do(ctx,
			chromedp.Navigate(ts.URL+"/"),
			chromedp.WaitVisible(chromedp.ID("robots")),
			paste("#robots", browserRobots),
			retype("#agent", "Googlebot-Image"),
			// Typed, not pasted: each key re-checks.
			chromedp.SendKeys(chromedp.ID("urls"), "/private/report.pdf\n/private/press/launch\n/search?q=x\nhttps://example.com/about"),
			waitJS(`document.querySelectorAll('#results-body tr[data-index]').length === 4 && document.querySelector('#results-body tr[data-index="3"] td.url').textContent === 'https://example.com/about'`),
		)
		if err != nil {
			t.Fatal(err)
		}
		// Googlebot-Image falls back to the Googlebot group: /private is
		// allowed for it, /search is not.
		if got, want := evalJS[string](t, ctx, badges), "Allowed,Allowed,Blocked,Allowed"; got != want {
			t.Errorf("verdicts %s, want %s", got, want)
		}
		if got := text(t, ctx, "#L8 .t"); got != "Disallow: /search" {
			t.Errorf("line 8 of the editor backdrop = %q", got)
		}
		assertClasses(t, ctx, map[string][]string{
			"#L8": {"hit-block", "current", "rule"}, // the deciding line, highlighted
			"#L7": {"ua"},                           // the chosen group's user-agent line
			"#L5": {"lint-warning"},                 // "Disalow /tmp": findings inline
		})
		if got := text(t, ctx, "#L5 .note"); got == "" {
			t.Error("no inline lint note on line 5")
		}
		if got := text(t, ctx, "#lint-list"); !strings.Contains(got, "line 5") {
			t.Errorf("lint list %q does not point at line 5", got)
		}
		if got := text(t, ctx, "#group"); !strings.Contains(got, "falls back") || !strings.Contains(got, "googlebot") || !strings.Contains(got, "Crawl-delay 5") {
			t.Errorf("group explanation %q", got)
		}
		if got := text(t, ctx, "#sitemaps"); !strings.Contains(got, "https://example.com/sitemap.xml") {
			t.Errorf("sitemaps %q", got)
		}
		// Editing re-checks: GPTBot is blocked everywhere by line 12;
		// AdsBot-Google ignores the * group, and the page says so beside
		// the verdicts.
		err = chromedp.Do(ctx,
			retype("#agent", "GPTBot"),
			waitJS(`document.querySelector('#L12').classList.contains('hit-block') && `+badges+` === 'Blocked,Blocked,Blocked,Blocked'`),
			retype("#agent", "AdsBot-Google"),
			waitJS(badges+` === 'Allowed,Allowed,Allowed,Allowed'`),
		)
		if err != nil {
			t.Fatal(err)
		}
		if got := text(t, ctx, "#agent-notes"); !strings.Contains(got, "AdsBot-Google ignores the * group") {
			t.Errorf("agent notes %q", got)
		}
		err = chromedp.Do(ctx,
			retype("#agent", "ExampleBot"),
			waitJS(`document.querySelector('#L3').classList.contains('hit-block') && document.querySelector('#L4').classList.contains('hit-allow')`),
			// Keyboard: a result's line button moves the highlight.
			chromedp.Focus(chromedp.CSS(`#results-body tr[data-index="1"] button`)),
			chromedp.KeyEvent("\r"),
			waitJS(`document.querySelector('#L4').classList.contains('current') && !document.querySelector('#L3').classList.contains('current')`),
			waitJS(`location.hash.includes('agent=ExampleBot')`),
		)
		if err != nil {
			t.Fatal(err)
		}
		if shared, err = chromedp.Run(ctx, chromedp.Location()); err != nil {
			t.Fatal(err)
		}
		if *update {
			screenshot(t, ctx, "serve-robots.png", chromedp.Steps(
				retype("#agent", "Googlebot-Image"),
				waitJS(`document.querySelector('#L8').classList.contains('hit-block')`),
			))
		}
		con.check(t, cancel)
	})

	t.Run("shared URL restores the state", func(t *testing.T) {
		if shared == "" {
			t.Fatal("no shared URL from the robots tab test")
		}
		ctx, cancel, con := tab(t, bctx)
		err := chromedp.Do(ctx,
			chromedp.Navigate(shared),
			waitJS(`document.querySelectorAll('#results-body tr[data-index]').length === 4`),
		)
		if err != nil {
			t.Fatal(err)
		}
		robots := evalJS[string](t, ctx, `document.getElementById('robots').value`)
		agent := evalJS[string](t, ctx, `document.getElementById('agent').value`)
		urls := evalJS[string](t, ctx, `document.getElementById('urls').value`)
		if robots != browserRobots || agent != "ExampleBot" || !strings.HasPrefix(urls, "/private/report.pdf\n") {
			t.Errorf("restored robots %q agent %q urls %q", robots, agent, urls)
		}
		if got, want := evalJS[string](t, ctx, badges), "Blocked,Allowed,Allowed,Allowed"; got != want {
			t.Errorf("restored verdicts %s, want %s", got, want)
		}
		assertClasses(t, ctx, map[string][]string{"#L3": {"hit-block"}, "#L4": {"hit-allow"}})
		con.check(t, cancel)
	})

	t.Run("page tab", func(t *testing.T) {
		ctx, cancel, con := tab(t, bctx)
		err := chromedp.Do(ctx,
			chromedp.Navigate(ts.URL+"/"),
			chromedp.WaitVisible(chromedp.ID("tab-robots")),
			// Keyboard only: arrow to the Page tab, type the URL, Enter.
			chromedp.Focus(chromedp.ID("tab-robots")),
			chromedp.KeyEvent(kb.ArrowRight),
			chromedp.WaitVisible(chromedp.ID("page-url")),
			chromedp.SendKeys(chromedp.ID("page-url"), o.URL+"/article\r"),
			chromedp.WaitVisible(chromedp.ID("page-table")),
		)
		if err != nil {
			t.Fatal(err)
		}
		if got := text(t, ctx, "#page-blocked"); !strings.Contains(got, "GPTBot") || strings.Contains(got, "Googlebot") {
			t.Errorf("blocked warning %q: want GPTBot only", got)
		}
		if got := text(t, ctx, `#page-table tr[data-agent="bingbot"] td[data-field="archive"]`); !strings.Contains(got, "no") || !strings.Contains(got, "X-Robots-Tag") {
			t.Errorf("bingbot archive cell %q: want no, from the X-Robots-Tag header", got)
		}
		if got := text(t, ctx, `#page-table tr[data-agent="Googlebot"] td[data-field="max_snippet"]`); !strings.Contains(got, "20") || !strings.Contains(got, "meta") {
			t.Errorf("Googlebot max-snippet cell %q: want 20, from the meta tag", got)
		}
		if got := text(t, ctx, `#page-table tr[data-agent="GPTBot"]`); !strings.Contains(got, "Blocked") || !strings.Contains(got, "Disallow: /") {
			t.Errorf("GPTBot row %q", got)
		}
		assertClasses(t, ctx, map[string][]string{`#page-table tr[data-agent="GPTBot"]`: {"blocked"}})
		if *update {
			screenshot(t, ctx, "serve-page.png", chromedp.Steps())
		}
		if err := chromedp.Do(ctx, waitJS(`location.hash.includes('tab=page') && location.hash.includes('purl=')`)); err != nil {
			t.Fatal(err)
		}
		if pageShared, err = chromedp.Run(ctx, chromedp.Location()); err != nil {
			t.Fatal(err)
		}
		con.check(t, cancel)
	})

	t.Run("page tab with a pasted response", func(t *testing.T) {
		ctx, cancel, con := tab(t, bctx)
		err := chromedp.Do(ctx,
			chromedp.Navigate(ts.URL+"/#tab=page"),
			chromedp.WaitVisible(chromedp.ID("page-url")),
			chromedp.Click(chromedp.CSS("#page-paste summary")),
			chromedp.WaitVisible(chromedp.ID("page-html")),
			paste("#page-headers", "X-Robots-Tag: googlebot: nosnippet"),
			paste("#page-html", "<html><head>\n<meta name=\"robots\" content=\"noindex\">\n</head></html>"),
			retype("#page-agents", "Googlebot, YandexBot"),
			chromedp.Click(chromedp.ID("page-go")),
			chromedp.WaitVisible(chromedp.ID("page-table")),
		)
		if err != nil {
			t.Fatal(err)
		}
		if got := text(t, ctx, `#page-table tr[data-agent="Googlebot"] td[data-field="snippet"]`); !strings.Contains(got, "no") || !strings.Contains(got, "X-Robots-Tag header (line 1)") {
			t.Errorf("Googlebot snippet cell %q", got)
		}
		if got := text(t, ctx, `#page-table tr[data-agent="YandexBot"] td[data-field="index"]`); !strings.Contains(got, "no") || !strings.Contains(got, "meta") {
			t.Errorf("YandexBot index cell %q", got)
		}
		if got := text(t, ctx, `#page-table tr[data-agent="YandexBot"] td[data-field="snippet"]`); got != "yes" {
			t.Errorf("YandexBot snippet cell %q: the googlebot header must not reach it", got)
		}
		if got := text(t, ctx, "#page-out"); !strings.Contains(got, "robots.txt was not checked") {
			t.Errorf("without a URL the page must say robots.txt was not checked: %q", got)
		}
		con.check(t, cancel)
	})

	t.Run("fetch robots.txt by URL", func(t *testing.T) {
		ctx, cancel, con := tab(t, bctx)
		err := chromedp.Do(ctx,
			chromedp.Navigate(ts.URL+"/"),
			chromedp.WaitEnabled(chromedp.ID("fetch-go")),
			chromedp.SendKeys(chromedp.ID("fetch-url"), o.URL+"/\r"),
			waitJS(`document.getElementById('robots').value.startsWith('User-agent: *\nDisallow: /private')`),
			retype("#agent", "GPTBot"),
			waitJS(`document.querySelector('#results-body tr[data-index="0"] .badge')?.textContent === 'Blocked' && document.querySelector('#L5').classList.contains('hit-block')`),
		)
		if err != nil {
			t.Fatal(err)
		}
		if got := text(t, ctx, "#fetch-outcome"); !strings.Contains(got, "HTTP 200") || !strings.Contains(got, "the rules in the file apply") {
			t.Errorf("fetch outcome %q", got)
		}
		if got := evalJS[string](t, ctx, `document.getElementById('urls').value`); got != o.URL+"/" {
			t.Errorf("URLs after a fetch = %q, want the site's root", got)
		}
		con.check(t, cancel)
	})

	// The console watch must see what it is meant to catch, or the checks
	// above could never fail.
	t.Run("console watch sees errors", func(t *testing.T) {
		ctx, cancel, con := tab(t, bctx)
		err := chromedp.Do(ctx,
			chromedp.Navigate(ts.URL+"/"),
			chromedp.Evaluate[chromedp.Void](`console.error('deliberate'); fetch('/no-such-file.png')`),
		)
		if err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			con.mu.Lock()
			n := len(con.errs)
			con.mu.Unlock()
			if n >= 2 || time.Now().After(deadline) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		cancel()
		<-con.done
		all := strings.Join(con.errs, "\n")
		if !strings.Contains(all, "deliberate") || !strings.Contains(all, "404") {
			t.Errorf("console watch saw %q, want the console.error and the failed load", all)
		}
	})

	t.Run("phone width", func(t *testing.T) {
		if shared == "" {
			t.Fatal("no shared URL from the robots tab test")
		}
		ctx, cancel, con := tab(t, bctx)
		err := chromedp.Do(ctx,
			chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile),
			chromedp.Navigate(shared),
			waitJS(`document.querySelectorAll('#results-body tr[data-index]').length === 4`),
		)
		if err != nil {
			t.Fatal(err)
		}
		if evalJS[bool](t, ctx, `document.documentElement.scrollWidth > window.innerWidth + 1`) {
			t.Errorf("the robots.txt tab scrolls sideways at 390 px: %v px wide", evalJS[float64](t, ctx, `document.documentElement.scrollWidth`))
		}
		// The Page tab's shared link runs the check again; its wide table
		// scrolls inside its box, not the page.
		if pageShared == "" {
			t.Fatal("no shared URL from the page tab test")
		}
		err = chromedp.Do(ctx,
			chromedp.Navigate("about:blank"),
			chromedp.Navigate(pageShared),
			chromedp.WaitVisible(chromedp.ID("page-table")),
		)
		if err != nil {
			t.Fatal(err)
		}
		if evalJS[bool](t, ctx, `document.documentElement.scrollWidth > window.innerWidth + 1`) {
			t.Errorf("the Page tab scrolls sideways at 390 px: %v px wide", evalJS[float64](t, ctx, `document.documentElement.scrollWidth`))
		}
		if got := text(t, ctx, "#page-blocked"); !strings.Contains(got, "GPTBot") {
			t.Errorf("restored Page tab warning %q", got)
		}
		con.check(t, cancel)
	})
}

func assertClasses(t *testing.T, ctx context.Context, want map[string][]string) {
	t.Helper()
	for sel, classes := range want {
		got := evalJS[string](t, ctx, fmt.Sprintf(`(document.querySelector(%q) || {className: '<missing>'}).className`, sel))
		have := strings.Fields(got)
		for _, c := range classes {
			found := false
			for _, h := range have {
				found = found || h == c
			}
			if !found {
				t.Errorf("%s has classes %q, want %q", sel, got, c)
			}
		}
	}
}

// screenshot writes docs/NAME from the tab after running prep.
func screenshot(t *testing.T, ctx context.Context, name string, prep chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, prep); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "docs", name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", path)
}
