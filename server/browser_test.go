package server

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/rep-toolkit/rep/internal/testkit"
	"github.com/rep-toolkit/rep/internal/testkit/browsertest"
	"github.com/rep-toolkit/rep/internal/testkit/sitegen"
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
	// expected holds parts of messages a test provokes on purpose (an
	// API answering 400 is logged by the browser as a failed load).
	expected []string
}

// expect lets messages containing part through check.
func (c *console) expect(part string) {
	c.mu.Lock()
	c.expected = append(c.expected, part)
	c.mu.Unlock()
}

func (c *console) check(t *testing.T, cancel context.CancelFunc) {
	t.Helper()
	cancel()
	<-c.done
	c.mu.Lock()
	defer c.mu.Unlock()
next:
	for _, e := range c.errs {
		for _, x := range c.expected {
			if strings.Contains(e, x) {
				continue next
			}
		}
		t.Errorf("console: %s", e)
	}
}

// tab opens a new tab of the browser with its console watched; the tab
// times out after 5 minutes so a broken page cannot hang the test. Call
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
	tctx, cancelT := context.WithTimeout(ctx, 5*time.Minute)
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

// waitJS waits until a JavaScript condition on the page is true
// (browsertest.Wait).
func waitJS(cond string) chromedp.Action[chromedp.Void] { return browsertest.Wait(cond) }

// matrixDrawn is a condition for waitJS: the matrix shows the crawlers
// the box names, as its columns in order, over rows URLs. A row count or
// one crawler's cell is not enough: a table drawn earlier for another list
// (the page's default one has GPTBot) can have them too, and stays on
// screen until the redraw the last edit asked for lands.
func matrixDrawn(rows int) string {
	return fmt.Sprintf(`(() => {
		const want = document.getElementById('matrix-agents').value.split(',').map(s => s.trim()).filter(Boolean).join('|');
		const got = [...document.querySelectorAll('#matrix thead th[data-agent]')].map(th => th.dataset.agent).join('|');
		return got === want && document.querySelectorAll('#matrix tbody tr').length === %d;
	})()`, rows)
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

// run runs steps in the tab, failing the test on the first error.
func run(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// evalAsync runs an expression whose value is a promise and returns what
// it resolves to.
func evalAsync[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
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

// usageRobots states usage preferences two ways: Content-Signal for the
// whole site, and a Content-Usage line for /docs/ that disagrees with it
// on train-ai.
const usageRobots = `User-agent: *
Content-Signal: search=yes, ai-train=yes
Content-Usage: /docs/ train-ai=n
Allow: /
Disallow: /private/
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
		// GPTBot, an AI training crawler blocked on purpose, draws no
		// warning: its line says what the refusal means for it.
		if evalJS[bool](t, ctx, `document.getElementById('page-blocked') !== null`) {
			t.Errorf("blocked warning %q: want none, for GPTBot keeps no index", text(t, ctx, "#page-blocked"))
		}
		if got := text(t, ctx, `#page-table td[data-agent="bingbot"][data-field="archive"]`); !strings.Contains(got, "no") || !strings.Contains(got, "X-Robots-Tag") {
			t.Errorf("bingbot archive cell %q: want no, from the X-Robots-Tag header", got)
		}
		if got := text(t, ctx, `#page-table td[data-agent="Googlebot"][data-field="max_snippet"]`); !strings.Contains(got, "20") || !strings.Contains(got, "meta") {
			t.Errorf("Googlebot max-snippet cell %q: want 20, from the meta tag", got)
		}
		if got := text(t, ctx, `#page-table td[data-agent="GPTBot"][data-field="robots"]`); !strings.Contains(got, "Blocked") || !strings.Contains(got, "Disallow: /") {
			t.Errorf("GPTBot robots.txt cell %q", got)
		}
		assertClasses(t, ctx, map[string][]string{`#page-table th[data-agent="GPTBot"]`: {"blocked"}})
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
			paste("#page-headers", "X-Robots-Tag: googlebot: nosnippet\nRobots-Tag: *;noindex"),
			paste("#page-html", "<html><head>\n<meta name=\"robots\" content=\"noindex\">\n</head></html>"),
			retype("#page-agents", "Googlebot, YandexBot"),
			chromedp.Click(chromedp.ID("page-go")),
			chromedp.WaitVisible(chromedp.ID("page-table")),
		)
		if err != nil {
			t.Fatal(err)
		}
		if got := text(t, ctx, `#page-table td[data-agent="Googlebot"][data-field="snippet"]`); !strings.Contains(got, "no") || !strings.Contains(got, "X-Robots-Tag header (line 1)") {
			t.Errorf("Googlebot snippet cell %q", got)
		}
		if got := text(t, ctx, `#page-table td[data-agent="YandexBot"][data-field="index"]`); !strings.Contains(got, "no") || !strings.Contains(got, "meta") {
			t.Errorf("YandexBot index cell %q", got)
		}
		// Google's and Yandex's rules read no Robots-Tag: each crawler's
		// column says so, and its index value stays its own.
		if got := text(t, ctx, `#page-table th[data-agent="Googlebot"] .not-read`); got != `Robots-Tag header (line 2, member "*;noindex"): not read` {
			t.Errorf("Googlebot column: %q, want the unread Robots-Tag member named", got)
		}
		if got := evalJS[string](t, ctx, `document.querySelector('#page-table th[data-agent="YandexBot"] .not-read').title`); !strings.HasPrefix(got, "not read under yandex rules") {
			t.Errorf("YandexBot column's note %q", got)
		}
		if got := text(t, ctx, `#page-table td[data-agent="YandexBot"][data-field="snippet"]`); got != "yes" {
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

	t.Run("errors mark results stale", func(t *testing.T) {
		ctx, cancel, con := tab(t, bctx)
		con.expect("status of 400")
		run(t, ctx,
			chromedp.Navigate(ts.URL+"/"),
			chromedp.WaitVisible(chromedp.ID("robots")),
			paste("#robots", browserRobots),
			paste("#urls", "/private/x\n/search"),
			waitJS(`document.querySelectorAll('#results-body tr[data-index]').length === 2 && !!document.querySelector('#L8.hit-block')`),
			// An agent that names no crawler: the server refuses it.
			chromedp.Evaluate[chromedp.Void](`0`),
			retype("#agent", ","),
			waitJS(`!document.getElementById('check-error').hidden`),
		)
		for _, id := range []string{"check-out", "lint-box", "matrix-box"} {
			if !evalJS[bool](t, ctx, `document.getElementById('`+id+`').classList.contains('stale')`) {
				t.Errorf("#%s is not marked out of date after the error", id)
			}
			if !evalJS[bool](t, ctx, `getComputedStyle(document.querySelector('#`+id+` .stale-note')).display !== 'none'`) {
				t.Errorf("#%s shows no out-of-date note", id)
			}
		}
		if n := evalJS[int](t, ctx, `document.querySelectorAll('#backdrop .hit-block, #backdrop .hit-allow, #backdrop .lint-warning').length`); n != 0 {
			t.Errorf("%d editor lines still marked by the previous results", n)
		}
		if *update {
			screenshot(t, ctx, "serve-stale.png", chromedp.Steps())
		}
		run(t, ctx,
			retype("#agent", "Googlebot"),
			waitJS(`document.getElementById('check-error').hidden && !document.getElementById('check-out').classList.contains('stale') && !document.getElementById('lint-box').classList.contains('stale')`),
			waitJS(`!document.getElementById('matrix-box').classList.contains('stale')`),
		)
		con.check(t, cancel)
	})

	t.Run("each bad URL on its own line", func(t *testing.T) {
		ctx, cancel, con := tab(t, bctx)
		run(t, ctx,
			chromedp.Navigate(ts.URL+"/"),
			chromedp.WaitVisible(chromedp.ID("robots")),
			paste("#robots", browserRobots),
			retype("#agent", "ExampleBot"),
			paste("#urls", "/private/x\nftp://example.com/a\n\n/private/press/y\nnot a url"),
			waitJS(`document.querySelectorAll('#results-body tr[data-index]').length === 4`),
		)
		rows := evalJS[[]string](t, ctx, `[...document.querySelectorAll('#results-body tr[data-index]')].map(r => r.dataset.line + ' ' + r.querySelector('.badge').textContent + ' ' + (r.querySelector('.url-error') || {textContent: ''}).textContent)`)
		want := []string{"1 Blocked", "2 Bad URL line 2 of the URL list", "4 Allowed", "5 Bad URL line 5 of the URL list"}
		if len(rows) != len(want) {
			t.Fatalf("rows %q", rows)
		}
		for i, w := range want {
			if !strings.HasPrefix(rows[i], w) {
				t.Errorf("row %d = %q, want it to start %q", i, rows[i], w)
			}
		}
		if !evalJS[bool](t, ctx, `document.getElementById('check-error').hidden`) {
			t.Error("a bad URL hides the verdicts behind an error banner")
		}
		con.check(t, cancel)
	})

	t.Run("large file cut where crawlers cut it", func(t *testing.T) {
		ctx, cancel, con := tab(t, bctx)
		var b strings.Builder
		b.WriteString("User-agent: *\nDisallow: /first\n")
		for b.Len() < 1300<<10 {
			fmt.Fprintf(&b, "Allow: /filler/%07d/a/path/long/enough/to/fill/the/file\n", b.Len())
		}
		b.WriteString("Disallow: /beyond\n")
		run(t, ctx,
			chromedp.Navigate(ts.URL+"/"),
			chromedp.WaitVisible(chromedp.ID("robots")),
			paste("#urls", "/first\n/beyond"),
			paste("#robots", b.String()),
			waitJS(`!document.getElementById('cut-note').hidden`),
			waitJS(`document.querySelectorAll('#results-body tr[data-index]').length === 2`),
		)
		if got, want := evalJS[string](t, ctx, badges), "Blocked,Allowed"; got != want {
			t.Errorf("verdicts %s, want %s: the rule past 500 KiB must not apply, the one before must", got, want)
		}
		note := text(t, ctx, "#cut-note")
		if !strings.Contains(note, "500 KiB") || !strings.Contains(note, "lines 1 to") || !strings.Contains(note, "1.27 MiB") {
			t.Errorf("cut note %q", note)
		}
		if !evalJS[bool](t, ctx, `document.getElementById('check-error').hidden`) {
			t.Errorf("error shown for a large file: %s", text(t, ctx, "#check-error"))
		}
		if got := text(t, ctx, "#group"); strings.Contains(got, "empty") || !strings.Contains(got, "*") {
			t.Errorf("group %q", got)
		}
		cut := evalJS[int](t, ctx, `+document.querySelector('#backdrop .cut-start').id.slice(1)`)
		if got := text(t, ctx, "#cut-note"); !strings.Contains(got, fmt.Sprintf("from line %s on", commas(cut))) {
			t.Errorf("editor cut at line %d, note says %q", cut, got)
		}
		if *update {
			screenshot(t, ctx, "serve-large-file.png", chromedp.Evaluate[chromedp.Void](`{ const r = document.getElementById('robots'); const lh = parseFloat(getComputedStyle(r).lineHeight); r.scrollTop = (`+fmt.Sprint(cut)+` - 8) * lh; r.dispatchEvent(new Event('scroll')); }`))
		}
		con.check(t, cancel)
	})

	t.Run("fetch outcomes styled by meaning", func(t *testing.T) {
		ctx, cancel, con := tab(t, bctx)
		missing := newOrigin(t, func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) })
		down := newOrigin(t, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
		run(t, ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitEnabled(chromedp.ID("fetch-go")))
		for _, tt := range []struct {
			site           string
			class, verdict string
			text           string
		}{
			{o.URL, "ok", "use-rules", "The rules in the file apply"},
			{missing.URL, "allow", "allow-all", "No restrictions"},
			{down.URL, "bad", "disallow-all", "Everything is disallowed"},
		} {
			run(t, ctx,
				retype("#fetch-url", tt.site+"/"),
				chromedp.Click(chromedp.ID("fetch-go")),
				waitJS(`document.getElementById('fetch-outcome').dataset.verdict === '`+tt.verdict+`'`),
			)
			assertClasses(t, ctx, map[string][]string{"#fetch-outcome": {tt.class}})
			if got := text(t, ctx, "#fetch-outcome .verdict"); !strings.Contains(got, tt.text) {
				t.Errorf("%s: outcome %q, want %q", tt.verdict, got, tt.text)
			}
			if tt.verdict == "disallow-all" && *update {
				screenshot(t, ctx, "serve-fetch-503.png", waitJS(`document.querySelectorAll('#results-body tr[data-index]').length > 0`))
			}
		}
		// Green for rules that apply, red for everything disallowed.
		bg := func(verdict string) string {
			return evalJS[string](t, ctx, `(() => { const d = document.createElement('div'); d.className = 'outcome `+verdict+`'; document.body.appendChild(d); const c = getComputedStyle(d).backgroundColor; d.remove(); return c; })()`)
		}
		if ok, bad, allow := bg("ok"), bg("bad"), bg("allow"); ok == bad || ok == allow || bad == allow {
			t.Errorf("outcome colours ok %s, allow %s, bad %s: want three", ok, allow, bad)
		}
		// A failed fetch says the editor still holds the old text.
		con.expect("status of 403")
		run(t, ctx,
			retype("#fetch-url", "http://10.0.0.1/"),
			chromedp.Click(chromedp.ID("fetch-go")),
			waitJS(`document.getElementById('fetch-outcome').dataset.verdict === 'error'`),
		)
		if got := text(t, ctx, "#fetch-outcome"); !strings.Contains(got, "still holds the text from before") {
			t.Errorf("failed fetch outcome %q", got)
		}
		con.check(t, cancel)
	})

	t.Run("lint filter and groups", func(t *testing.T) {
		ctx, cancel, con := tab(t, bctx)
		var b strings.Builder
		// examplebot's own Disallow: / keeps the * group's from being the
		// "everyone else" of an allow-list (an info): it stays an error.
		b.WriteString("User-agent: *\nDisallow: /\n\nUser-agent: examplebot\nDisalow /tmp\nDisallow: /\nFoo: bar\n")
		for i := range 40 {
			fmt.Fprintf(&b, "Allow: /page-%d*\n", i)
		}
		run(t, ctx,
			chromedp.Navigate(ts.URL+"/"),
			chromedp.WaitVisible(chromedp.ID("robots")),
			paste("#robots", b.String()),
			waitJS(`document.getElementById('count-info').textContent !== '0'`),
		)
		// The counts and groups agree with the API.
		type finding struct{ Severity, Code string }
		api := evalAsync[[]finding](t, ctx, `fetch('/api/lint', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({robots: document.getElementById('robots').value})}).then(r => r.json()).then(j => j.findings.map(f => ({Severity: f.severity, Code: f.code})))`)
		count := map[string]int{}
		byCode := map[string]int{}
		for _, f := range api {
			count[f.Severity]++
			byCode[f.Code]++
		}
		if count["error"] == 0 || count["warning"] == 0 || count["info"] < 40 {
			t.Fatalf("test file findings %v: want errors, warnings and many infos", count)
		}
		for _, sev := range []string{"error", "warning", "info"} {
			if got := text(t, ctx, "#count-"+sev); got != fmt.Sprint(count[sev]) {
				t.Errorf("%s count %s, want %d", sev, got, count[sev])
			}
		}
		groups := func() map[string]string {
			return evalJS[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll('#lint-list details')].map(d => [d.dataset.code, d.dataset.severity + ' ' + d.dataset.count]))`)
		}
		g := groups()
		for code, sev := range g {
			if strings.HasPrefix(sev, "info") {
				t.Errorf("info group %s shown by default", code)
			}
		}
		if len(g) == 0 {
			t.Fatal("no groups shown")
		}
		if !strings.Contains(text(t, ctx, "#lint-summary"), "hidden") {
			t.Errorf("summary %q does not say infos are hidden", text(t, ctx, "#lint-summary"))
		}
		run(t, ctx, chromedp.Click(chromedp.ID("sev-info")), waitJS(`!!document.querySelector('#lint-list details[data-severity="info"]')`))
		g = groups()
		for code, n := range byCode {
			if !strings.HasSuffix(g[code], " "+fmt.Sprint(n)) {
				t.Errorf("group %s = %q, want %d findings", code, g[code], n)
			}
		}
		run(t, ctx, chromedp.Click(chromedp.ID("sev-info")), chromedp.Click(chromedp.ID("sev-warning")), waitJS(`!document.querySelector('#lint-list details[data-severity="warning"], #lint-list details[data-severity="info"]')`))
		con.check(t, cancel)
	})

	t.Run("matrix and download", func(t *testing.T) {
		ctx, cancel, con := tab(t, bctx)
		run(t, ctx,
			chromedp.Navigate(ts.URL+"/"),
			chromedp.WaitVisible(chromedp.ID("robots")),
			paste("#robots", browserRobots),
			paste("#urls", "/private/report.pdf\n/private/press/launch\n/search?q=x"),
			retype("#matrix-agents", "Googlebot, AdsBot-Google"),
			// The page settled (verdicts and matrix drawn for this input)
			// before the click: nothing above the chips moves under it.
			waitJS(`document.querySelectorAll('#results-body tr[data-index]').length === 3`),
			waitJS(matrixDrawn(3)),
			waitJS(`!!document.querySelector('#matrix-purposes button[data-purpose="ai-training"]')`),
			chromedp.Click(chromedp.CSS(`#matrix-purposes button[data-purpose="ai-training"]`)),
			waitJS(`document.getElementById('matrix-agents').value.includes('GPTBot')`),
			waitJS(matrixDrawn(3)),
		)
		cols := evalJS[int](t, ctx, `document.querySelectorAll('#matrix thead th').length`)
		if cols < 5 {
			t.Errorf("%d matrix columns: want the URL, two crawlers and the AI-training ones", cols)
		}
		cell := func(agent string, row int) string {
			return text(t, ctx, fmt.Sprintf(`#matrix tbody tr:nth-child(%d) td[data-agent=%q]`, row, agent))
		}
		for _, tt := range []struct {
			agent string
			row   int
			want  string
		}{
			{"Googlebot", 1, "Allowedno rule"},
			{"Googlebot", 3, "Blockedline 8"},
			{"GPTBot", 2, "Blockedline 12"},
			{"AdsBot-Google", 1, "Allowedno rule"},
		} {
			if got := cell(tt.agent, tt.row); got != tt.want {
				t.Errorf("matrix %s row %d = %q, want %q", tt.agent, tt.row, got, tt.want)
			}
		}
		// Editing the file redraws the matrix.
		run(t, ctx,
			paste("#robots", strings.Replace(browserRobots, "User-agent: GPTBot\nDisallow: /", "User-agent: GPTBot\nDisallow: /private/", 1)),
			waitJS(`document.querySelector('#matrix tbody tr:nth-child(3) td[data-agent="GPTBot"]').textContent === 'Allowedno rule'`),
		)
		if *update {
			screenshot(t, ctx, "serve-robots.png", chromedp.Steps(
				paste("#robots", browserRobots),
				paste("#urls", "/private/report.pdf\n/private/press/launch\nhttps://example.com/search?q=running+shoes&sort=price\nmailto:x@example.com"),
				retype("#agent", "Googlebot-Image"),
				waitJS(`document.querySelector('#L8').classList.contains('hit-block') && document.querySelectorAll('#matrix tbody tr').length === 4`),
			))
		}
		// Download: the file saved is the editor's text, named robots.txt.
		run(t, ctx,
			paste("#robots", "User-agent: *\nDisallow: /edited\n"),
			chromedp.Evaluate[chromedp.Void](`{ const orig = URL.createObjectURL; URL.createObjectURL = b => { window.blob = b; return orig(b); }; document.addEventListener('click', e => { if (e.target.download) window.saved = e.target.download; }, true); }`),
			chromedp.Click(chromedp.ID("download")),
			waitJS(`!!window.saved`),
		)
		type saved struct{ Name, Text string }
		got := evalAsync[saved](t, ctx, `window.blob.text().then(t => ({Name: window.saved, Text: t}))`)
		if got.Name != "robots.txt" || got.Text != "User-agent: *\nDisallow: /edited\n" {
			t.Errorf("downloaded %q: %q", got.Name, got.Text)
		}
		con.check(t, cancel)
	})

	// usageRows reads a usage table: per category its preference and its
	// statements as "role carrier line pref".
	usageRows := func(t *testing.T, ctx context.Context, sel string) map[string]string {
		t.Helper()
		return evalJS[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll(`+"`"+sel+" table.usage tbody tr`"+`)].map(r => [r.dataset.category,
			r.dataset.pref + ': ' + [...r.querySelectorAll('li')].map(li => [li.dataset.role, li.dataset.carrier, li.dataset.line || '-', li.dataset.pref].join(' ')).join('; ')]))`)
	}

	t.Run("usage preferences in the robots tab", func(t *testing.T) {
		ctx, cancel, con := tab(t, bctx)
		run(t, ctx,
			chromedp.Navigate(ts.URL+"/"),
			chromedp.WaitVisible(chromedp.ID("robots")),
			paste("#robots", usageRobots),
			retype("#agent", "ExampleBot"),
			retype("#matrix-agents", "ExampleBot"),
			paste("#urls", "/blog/b\n/docs/a\n/private/x"),
			waitJS(`document.querySelectorAll('#usage-out section.usage-url').length === 3`),
			waitJS(matrixDrawn(3)),
		)
		for _, tt := range []struct {
			index int
			want  map[string]string
		}{
			// Content-Signal alone: it decides train-ai and search.
			{0, map[string]string{
				"train-ai": "allowed: decides robots.txt Content-Signal 2 allowed",
				"ai-use":   "unknown: ",
				"search":   "allowed: decides robots.txt Content-Signal 2 allowed",
			}},
			// The carriers disagree on train-ai: Content-Usage's n wins,
			// Content-Signal's yes is listed after it, outweighed.
			{1, map[string]string{
				"train-ai": "disallowed: decides robots.txt Content-Usage 3 disallowed; outweighed robots.txt Content-Signal 2 allowed",
				"ai-use":   "unknown: ",
				"search":   "allowed: decides robots.txt Content-Signal 2 allowed",
			}},
			// Blocked: its Content-Usage line is not read.
			{2, map[string]string{
				"train-ai": "allowed: decides robots.txt Content-Signal 2 allowed",
				"ai-use":   "unknown: ",
				"search":   "allowed: decides robots.txt Content-Signal 2 allowed",
			}},
		} {
			sel := fmt.Sprintf(`#usage-out section[data-index="%d"]`, tt.index)
			got := usageRows(t, ctx, sel)
			for cat, want := range tt.want {
				if got[cat] != want {
					t.Errorf("URL %d %s: %q, want %q", tt.index, cat, got[cat], want)
				}
			}
		}
		// In words, not colour alone: the preference, what each statement
		// did and said, and where.
		conflict := text(t, ctx, `#usage-out section[data-index="1"] tr[data-category="train-ai"]`)
		for _, want := range []string{"AI training", "Disallowed", "decides", "robots.txt Content-Usage", "line 3", "disallows", "Content-Usage: /docs/ train-ai=n",
			"outweighed", "robots.txt Content-Signal", "line 2", "allows", "Content-Signal: search=yes, ai-train=yes"} {
			if !strings.Contains(conflict, want) {
				t.Errorf("train-ai row of /docs/a %q lacks %q", conflict, want)
			}
		}
		if got := text(t, ctx, `#usage-out section[data-index="1"] h3`); !strings.Contains(got, "/docs/a") || !strings.Contains(got, "train-ai=n search=y") {
			t.Errorf("heading %q", got)
		}
		if got := text(t, ctx, `#usage-out section[data-index="2"]`); !strings.Contains(got, "robots.txt blocks this URL") {
			t.Errorf("blocked URL's usage %q does not say why its Content-Usage line is not read", got)
		}
		// A table with headers: three columns, a row header per category.
		if got := evalJS[string](t, ctx, `[...document.querySelectorAll('#usage-out section[data-index="1"] table.usage thead th[scope="col"]')].length + ' ' + document.querySelectorAll('#usage-out section[data-index="1"] table.usage tbody th[scope="row"]').length + ' ' + !!document.querySelector('#usage-out section[data-index="1"] table.usage caption')`); got != "3 3 true" {
			t.Errorf("usage table headers: %s, want 3 column headers, 3 row headers and a caption", got)
		}
		// The matrix sums each cell's verdict up.
		if got := evalJS[string](t, ctx, `[...document.querySelectorAll('#matrix td[data-agent="ExampleBot"] .cell-usage')].map(e => e.dataset.usage).join(',')`); got != "train-ai=y search=y,train-ai=n search=y,train-ai=y search=y" {
			t.Errorf("matrix usage %q", got)
		}
		// A statement's line button shows it in the editor.
		run(t, ctx,
			chromedp.Click(chromedp.CSS(`#usage-out section[data-index="1"] li[data-line="3"] button`)),
			waitJS(`document.querySelector('#L3').classList.contains('current')`),
		)
		if *update {
			screenshot(t, ctx, "serve-usage.png", chromedp.Steps())
		}
		// A file without usage lines says it states none.
		run(t, ctx,
			paste("#robots", browserRobots),
			waitJS(`document.querySelectorAll('#usage-out section').length === 0`),
		)
		if got := text(t, ctx, "#usage-out"); !strings.Contains(got, "No Content-Usage or Content-Signal line") {
			t.Errorf("usage without usage lines: %q", got)
		}
		con.check(t, cancel)
	})

	t.Run("usage preferences in the page tab", func(t *testing.T) {
		pub := newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/robots.txt":
				fmt.Fprint(w, "User-agent: *\nContent-Signal: ai-train=yes, search=yes\nAllow: /\n")
			case "/blog/post":
				w.Header().Set("Content-Type", "text/html")
				w.Header().Set("Content-Usage", "ai-use=n")
				fmt.Fprint(w, "<html><head>\n<meta name=\"GPTBot\" content=\"noai\">\n<meta name=\"robots\" content=\"noimageai\">\n</head></html>")
			default:
				http.NotFound(w, r)
			}
		})
		ctx, cancel, con := tab(t, bctx)
		run(t, ctx,
			chromedp.Navigate(ts.URL+"/#tab=page"),
			chromedp.WaitVisible(chromedp.ID("page-url")),
			retype("#page-agents", "Googlebot, GPTBot"),
			chromedp.SendKeys(chromedp.ID("page-url"), pub.URL+"/blog/post\r"),
			chromedp.WaitVisible(chromedp.ID("page-usage")),
		)
		// The site's tdmrep.json was asked for, and there is none.
		if got := text(t, ctx, "#page-tdmrep"); got != pub.URL+"/.well-known/tdmrep.json: no tdmrep.json (HTTP 404)" {
			t.Errorf("tdmrep.json line %q", got)
		}
		// The directive table: one row per category, each crawler's
		// preference and what decided it.
		cell := func(agent, cat string) string {
			return evalJS[string](t, ctx, fmt.Sprintf(`(td => td ? td.dataset.pref + ': ' + td.textContent : '<missing>')(document.querySelector('#page-table td[data-agent=%q][data-field="usage-%s"]'))`, agent, cat))
		}
		for _, tt := range []struct{ agent, cat, want string }{
			{"Googlebot", "train-ai", "allowed: allowedby robots.txt Content-Signal"},
			{"GPTBot", "train-ai", "disallowed: disallowedby noai1 statement outweighed"},
			{"Googlebot", "ai-use", "disallowed: disallowedby Content-Usage header"},
			{"GPTBot", "search", "allowed: allowedby robots.txt Content-Signal"},
		} {
			if got := cell(tt.agent, tt.cat); got != tt.want {
				t.Errorf("%s %s cell %q, want %q", tt.agent, tt.cat, got, tt.want)
			}
		}
		// The evidence: the two crawlers differ (noai names GPTBot), so
		// each has its table; noai wins over robots.txt's yes for GPTBot.
		if got := evalJS[string](t, ctx, `[...document.querySelectorAll('#page-usage section')].map(s => s.dataset.agents).join(' | ')`); got != "Googlebot | GPTBot" {
			t.Errorf("usage sections %q", got)
		}
		rows := usageRows(t, ctx, `#page-usage section[data-agents="GPTBot"]`)
		for cat, want := range map[string]string{
			"train-ai": "disallowed: decides noai 2 disallowed; outweighed robots.txt Content-Signal 2 allowed; scoped noimageai 3 disallowed",
			// The header is line 3 of the fetched headers, sorted by name:
			// Content-Length, Content-Type, Content-Usage, Date.
			"ai-use": "disallowed: decides Content-Usage header 3 disallowed; decides noai 2 disallowed; scoped noimageai 3 disallowed",
			"search": "allowed: decides robots.txt Content-Signal 2 allowed",
		} {
			if rows[cat] != want {
				t.Errorf("GPTBot %s: %q, want %q", cat, rows[cat], want)
			}
		}
		if got := text(t, ctx, `#page-usage section[data-agents="GPTBot"] tr[data-category="train-ai"]`); !strings.Contains(got, `<meta name="GPTBot"> at 2:1`) || !strings.Contains(got, "for images only") || !strings.Contains(got, "outweighed") {
			t.Errorf("GPTBot train-ai row %q", got)
		}
		rows = usageRows(t, ctx, `#page-usage section[data-agents="Googlebot"]`)
		if want := "allowed: decides robots.txt Content-Signal 2 allowed; scoped noimageai 3 disallowed"; rows["train-ai"] != want {
			t.Errorf("Googlebot train-ai: %q, want %q", rows["train-ai"], want)
		}
		if evalJS[bool](t, ctx, `(() => { const w = document.querySelector('#page-out .table-wrap'); return w.scrollWidth > w.clientWidth + 1 || document.documentElement.scrollWidth > window.innerWidth + 1; })()`) {
			t.Error("the Page tab scrolls sideways at 1280 px")
		}
		if *update {
			screenshot(t, ctx, "serve-page-usage.png", chromedp.Steps())
		}
		con.check(t, cancel)
	})

	t.Run("page tab says indexable and why", func(t *testing.T) {
		ctx, cancel, con := tab(t, bctx)
		run(t, ctx,
			chromedp.Navigate(ts.URL+"/#tab=page"),
			chromedp.WaitVisible(chromedp.ID("page-url")),
			chromedp.SendKeys(chromedp.ID("page-url"), o.URL+"/article\r"),
			chromedp.WaitVisible(chromedp.ID("page-summary")),
		)
		lines := evalJS[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll('#page-summary li')].map(l => [l.dataset.agent, l.dataset.indexable + ' ' + l.textContent]))`)
		if len(lines) != 8 {
			t.Errorf("%d summary lines, want one per crawler (8)", len(lines))
		}
		if got := lines["GPTBot"]; !strings.HasPrefix(got, "undefined GPTBot: may not fetch it, so it may not use it for AI training") || !strings.Contains(got, "robots.txt line 5: Disallow: /") {
			t.Errorf("GPTBot: %q", got)
		}
		assertClasses(t, ctx, map[string][]string{`#page-summary li[data-agent="GPTBot"]`: {"fact"}})
		if got := lines["Googlebot"]; !strings.HasPrefix(got, "true") || !strings.Contains(got, "max-snippet") {
			t.Errorf("Googlebot: %q", got)
		}
		if got := lines["bingbot"]; !strings.HasPrefix(got, "true") || !strings.Contains(got, "noarchive") {
			t.Errorf("bingbot: %q", got)
		}
		if !evalJS[bool](t, ctx, `document.getElementById('page-summary').getBoundingClientRect().bottom <= document.getElementById('page-table').getBoundingClientRect().top`) {
			t.Error("the summary is not above the directive table")
		}
		if evalJS[bool](t, ctx, `(() => { const w = document.querySelector('#page-out .table-wrap'); return w.scrollWidth > w.clientWidth + 1 || document.documentElement.scrollWidth > window.innerWidth + 1; })()`) {
			t.Errorf("the Page tab scrolls sideways at 1280 px: table %v px in %v", evalJS[float64](t, ctx, `document.getElementById('page-table').scrollWidth`), evalJS[float64](t, ctx, `document.querySelector('#page-out .table-wrap').clientWidth`))
		}
		if *update {
			screenshot(t, ctx, "serve-page.png", chromedp.Steps())
		}
		con.check(t, cancel)
	})

	t.Run("site tab", func(t *testing.T) {
		site := httptest.NewServer(sitegen.Planted())
		defer site.Close()
		l := &loopbackOnly{}
		s, err := newServer(Config{RatePerSecond: -1, OriginRate: -1}, l.check)
		if err != nil {
			t.Fatal(err)
		}
		s.crawlFetchTimeout = 5 * time.Minute // see TestCrawlEndpoint
		ts := httptest.NewServer(s)
		defer ts.Close()
		ctx, cancel, con := tab(t, bctx)
		con.expect("status of 403")
		run(t, ctx,
			chromedp.Navigate(ts.URL+"/"),
			chromedp.WaitVisible(chromedp.ID("tab-robots")),
			// Keyboard: End goes to the last tab.
			chromedp.Focus(chromedp.ID("tab-robots")),
			chromedp.KeyEvent(kb.End),
			chromedp.WaitVisible(chromedp.ID("site-url")),
			waitJS(`document.querySelectorAll('#site-purposes button').length > 0`),
			// Every text the progress line shows, kept to check it moved.
			chromedp.Evaluate[chromedp.Void](`window.seen = []; new MutationObserver(rs => { for (const r of rs) for (const n of r.addedNodes) window.seen.push(n.textContent); }).observe(document.getElementById('site-count'), {childList: true, characterData: true, subtree: true})`),
			chromedp.SendKeys(chromedp.ID("site-url"), site.URL+"/"),
			chromedp.Click(chromedp.ID("site-go")),
			waitJS(`document.getElementById('site-count').textContent.startsWith('Done')`),
			waitJS(`document.querySelectorAll('#site-codes details').length > 0`),
		)
		if n := evalJS[int](t, ctx, `window.seen.filter(s => s.startsWith('Crawled ')).length`); n < 5 {
			t.Errorf("%d progress lines shown: %q", n, evalJS[[]string](t, ctx, `window.seen`))
		}
		if got := text(t, ctx, "#site-count"); !strings.Contains(got, "17 URLs crawled") {
			t.Errorf("progress line %q", got)
		}
		want := sitegen.PlantedWant(site.URL)
		if n := evalJS[int](t, ctx, `document.querySelectorAll('#site-findings tbody tr').length`); n != len(want) {
			t.Errorf("%d findings shown, %d planted", n, len(want))
		}
		shown := evalJS[[]string](t, ctx, `[...document.querySelectorAll('#site-findings tbody tr')].map(r => r.dataset.code + ' ' + r.dataset.agent + ' ' + r.querySelector('td.url').textContent)`)
		have := map[string]bool{}
		for _, s := range shown {
			have[s] = true
		}
		for _, w := range want {
			if !have[w.String()] {
				t.Errorf("planted finding not shown: %s", w)
			}
		}
		// Counts by code and crawler: noindex-unseen once for each.
		for _, agent := range []string{"Googlebot", "bingbot"} {
			if got := text(t, ctx, `#site-counts tr[data-code="noindex-unseen"] td[data-agent="`+agent+`"]`); got != "1" {
				t.Errorf("noindex-unseen count for %s = %q", agent, got)
			}
		}
		// A code's button opens its explanation.
		run(t, ctx,
			chromedp.Click(chromedp.CSS(`#site-counts tr[data-code="noindex-unseen"] button.code`)),
			waitJS(`document.querySelector('#site-codes details[data-code="noindex-unseen"]').open`),
		)
		if got := text(t, ctx, `#site-codes details[data-code="noindex-unseen"]`); !strings.Contains(got, "never reads the noindex") && !strings.Contains(got, "never fetches the page") {
			t.Errorf("explanation %q", got)
		}
		// Per page and crawler: the verdicts.
		states := evalJS[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll('#site-pages tbody tr')].map(r => [new URL(r.dataset.url).pathname, [...r.querySelectorAll('td[data-state]')].map(td => td.dataset.state).join(' ')]))`)
		if len(states) != 17 || states["/private/secret"] != "blocked blocked" || states["/bing-only/page"] != "indexable blocked" || states["/report.pdf"] != "noindex noindex" {
			t.Errorf("page states %v", states)
		}
		if *update {
			screenshot(t, ctx, "serve-site.png", chromedp.Evaluate[chromedp.Void](`document.querySelector('#site-codes details[data-code="noindex-unseen"]').open = false`))
		}
		// An error marks the results out of date; the next crawl clears it.
		run(t, ctx,
			chromedp.SetValue(chromedp.ID("site-url"), "http://10.0.0.1/"),
			chromedp.Click(chromedp.ID("site-go")),
			waitJS(`!document.getElementById('site-error').hidden && document.getElementById('site-out').classList.contains('stale')`),
		)
		if got := text(t, ctx, "#site-error"); !strings.Contains(got, "10.0.0.1 is a private address") {
			t.Errorf("error banner %q", got)
		}
		run(t, ctx,
			chromedp.SetValue(chromedp.ID("site-url"), site.URL+"/"),
			chromedp.SetValue(chromedp.ID("site-max"), "5"),
			chromedp.Click(chromedp.ID("site-go")),
			waitJS(`document.getElementById('site-count').textContent.startsWith('Done')`),
		)
		if evalJS[bool](t, ctx, `document.getElementById('site-out').classList.contains('stale') || !document.getElementById('site-error').hidden`) {
			t.Error("the results stay out of date after a crawl that worked")
		}
		if n := evalJS[int](t, ctx, `document.querySelectorAll('#site-pages tbody tr').length`); n != 5 {
			t.Errorf("%d pages after a crawl of 5", n)
		}
		if err := chromedp.Do(ctx, waitJS(`location.hash.includes('tab=site') && location.hash.includes('surl=') && location.hash.includes('smax=5')`)); err != nil {
			t.Fatal(err)
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
		testkit.Until(10*time.Second, func() bool {
			con.mu.Lock()
			defer con.mu.Unlock()
			return len(con.errs) >= 2
		})
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
		// The crawler and URL inputs and the verdicts come before the
		// findings.
		top := func(sel string) float64 {
			return evalJS[float64](t, ctx, `document.querySelector('`+sel+`').getBoundingClientRect().top + window.scrollY`)
		}
		lint := top("#lint-box")
		for _, sel := range []string{"#agent", "#urls", "#results"} {
			if top(sel) >= lint {
				t.Errorf("%s is below the findings at 390 px", sel)
			}
		}
		// Long URLs wrap at their parts, in a column wide enough to read;
		// nothing but code scrolls sideways.
		err = chromedp.Do(ctx,
			paste("#urls", "https://example.com/a/rather/long/path/to/some/report-2026-11-25.pdf?session=abcdef0123456789&utm_source=newsletter\n/private/x"),
			waitJS(`document.querySelectorAll('#results-body tr[data-index]').length === 2`),
		)
		if err != nil {
			t.Fatal(err)
		}
		if w := evalJS[float64](t, ctx, `document.querySelector('#results-body td.url').getBoundingClientRect().width`); w < 200 {
			t.Errorf("URL column %v px wide at 390 px", w)
		}
		if n := evalJS[int](t, ctx, `document.querySelectorAll('#results-body td.url wbr').length`); n < 5 {
			t.Errorf("%d break points in the long URL", n)
		}
		const wideJS = `[...document.querySelectorAll('#panel-robots *')].filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible' && !e.closest('.editor') && !e.matches('input, textarea, .sr')).map(e => e.id || e.className || e.tagName)`
		wide := evalJS[[]string](t, ctx, wideJS)
		if len(wide) > 0 {
			t.Errorf("scroll sideways at 390 px: %q", wide)
		}
		if *update {
			screenshot(t, ctx, "serve-phone.png", chromedp.Steps())
		}
		// The usage tables turn into one block per category, long
		// statements wrapped.
		err = chromedp.Do(ctx,
			paste("#robots", "User-agent: *\nContent-Usage: /docs/reference/api/v2/ train-ai=n, ai-use=n, search=y\nAllow: /\n"),
			paste("#urls", "/docs/reference/api/v2/x"),
			waitJS(`document.querySelectorAll('#usage-out table.usage').length === 1`),
		)
		if err != nil {
			t.Fatal(err)
		}
		if wide := evalJS[[]string](t, ctx, wideJS); len(wide) > 0 {
			t.Errorf("scroll sideways at 390 px with usage tables: %q", wide)
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
		if got := text(t, ctx, `#page-summary li[data-agent="GPTBot"]`); !strings.Contains(got, "may not use it for AI training") {
			t.Errorf("restored Page tab line for GPTBot %q", got)
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

// commas formats n as the page does (en-US thousands separators).
func commas(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
