package server

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/rep-toolkit/rep/internal/testkit/sitegen"
)

// shots, when set, is a directory the tests below write their screenshots
// to, for a person to look at the layout (REP_SHOTS=/tmp/shots go test
// -run TestBrowserDoors ./server).
var shots = os.Getenv("REP_SHOTS")

// widths are the two layouts the web tester is checked at: a laptop and a
// phone (390 px, an iPhone 12 to 15 held upright).
var widths = []struct {
	name          string
	width, height int64
	mobile        bool
}{
	{"1280", 1280, 900, false},
	{"390", 390, 844, true},
}

func TestBrowserDoors(t *testing.T) {
	bctx := browser(t)
	planted := httptest.NewServer(sitegen.Planted())
	defer planted.Close()
	o := newOrigin(t, site)
	down := newOrigin(t, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
	// A site where nothing answers: its port closed.
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	// A correct setup (AI crawlers and a control token refused on
	// purpose) and a mistake (a noindex behind a Disallow for search
	// crawlers).
	aiBlocked := adviceSite(t, "User-agent: GPTBot\nUser-agent: CCBot\nUser-agent: Google-Extended\nDisallow: /\n\nUser-agent: *\nDisallow:\n\nSitemap: $SITE/sitemap.xml\n")
	noindexBehind := adviceSite(t, "User-agent: *\nDisallow: /private/\n\nSitemap: $SITE/sitemap.xml\n")
	l := &loopbackOnly{}
	s, err := newServer(Config{RatePerSecond: -1, OriginRate: -1}, l.check)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()

	for _, w := range widths {
		viewport := chromedp.EmulateViewport(w.width, w.height)
		if w.mobile {
			viewport = chromedp.EmulateViewport(w.width, w.height, chromedp.EmulateMobile)
		}
		// noSideways fails when the page, or any box of the panel but
		// code and inputs, scrolls sideways, or when a cell of sel
		// reaches past the window's edges.
		noSideways := func(t *testing.T, ctx context.Context, panel, cells string) {
			t.Helper()
			if evalJS[bool](t, ctx, `document.documentElement.scrollWidth > window.innerWidth + 1`) {
				t.Errorf("the page scrolls sideways at %d px: %v px wide", w.width, evalJS[float64](t, ctx, `document.documentElement.scrollWidth`))
			}
			wide := evalJS[[]string](t, ctx, `[...document.querySelectorAll('`+panel+` *')].filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible' && !e.closest('.editor') && !e.matches('input, textarea, .sr, pre')).map(e => e.id || e.className || e.tagName)`)
			if len(wide) > 0 {
				t.Errorf("boxes scroll sideways at %d px: %q", w.width, wide)
			}
			if cells == "" {
				return
			}
			out := evalJS[[]string](t, ctx, `[...document.querySelectorAll('`+cells+`')].filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && (r.left < -1 || r.right > window.innerWidth + 1); }).map(e => e.textContent.slice(0, 60))`)
			if len(out) > 0 {
				t.Errorf("%d cells of %s reach past the window at %d px, e.g. %q", len(out), cells, w.width, out[0])
			}
		}

		t.Run("site tab "+w.name, func(t *testing.T) {
			ctx, cancel, con := tab(t, bctx)
			run(t, ctx,
				viewport,
				chromedp.Navigate(ts.URL+"/#tab=site"),
				chromedp.WaitVisible(chromedp.ID("site-url")),
				chromedp.SetValue(chromedp.ID("site-url"), planted.URL+"/"),
				chromedp.Click(chromedp.ID("site-go")),
				waitJS(`document.getElementById('site-count').textContent.startsWith('Done')`),
				waitJS(`document.querySelectorAll('#site-codes details').length > 0`),
			)
			n := evalJS[int](t, ctx, `document.querySelectorAll('#site-findings tbody tr').length`)
			if n == 0 {
				t.Fatal("no findings shown")
			}
			noSideways(t, ctx, "#panel-site", "#site-findings td, #site-pages td, #site-counts td, #site-counts th")
			// The count table's severity and code are apart, in text and
			// on screen.
			for _, row := range evalJS[[]string](t, ctx, `[...document.querySelectorAll('#site-counts tbody th')].map(th => th.textContent)`) {
				if !strings.Contains(row, " ") {
					t.Errorf("count row %q runs severity into code", row)
				}
			}
			if evalJS[bool](t, ctx, `[...document.querySelectorAll('#site-counts tbody th')].some(th => th.querySelector('.sev').getBoundingClientRect().right > th.querySelector('button.code').getBoundingClientRect().left)`) {
				t.Error("a severity overlaps its code in the count table")
			}
			// Every finding's URL, message and evidence are on screen, and
			// no row is a tall blank: each row's height is taken by text.
			blank := evalJS[[]string](t, ctx, `[...document.querySelectorAll('#site-findings tbody tr, #site-pages tbody tr')].filter(tr => { const r = tr.getBoundingClientRect(); const range = document.createRange(); range.selectNodeContents(tr); const rects = [...range.getClientRects()]; const covered = new Set(); for (const x of rects) for (let y = Math.floor(x.top); y < Math.ceil(x.bottom); y++) covered.add(y); return r.height - covered.size > 60; }).map(tr => tr.dataset.url || tr.dataset.code)`)
			if len(blank) > 0 {
				t.Errorf("%d rows with over 60 px of blank at %d px, e.g. %q", len(blank), w.width, blank[0])
			}
			if w.mobile {
				// Cards: no header row, each crawler's verdict under its name.
				if evalJS[bool](t, ctx, `getComputedStyle(document.querySelector('#site-findings thead')).display !== 'none'`) {
					t.Error("the findings table keeps its header row at 390 px")
				}
				if got := evalJS[string](t, ctx, `getComputedStyle(document.querySelector('#site-pages td[data-agent]'), '::before').content`); got != `attr(data-label)` && !strings.Contains(got, "Googlebot") {
					t.Errorf("a page's verdict is not labelled with its crawler: ::before %s", got)
				}
			} else if evalJS[string](t, ctx, `getComputedStyle(document.querySelector('#site-findings tbody tr')).display`) != "table-row" {
				t.Error("the findings are not a table at 1280 px")
			}
			writeShot(t, ctx, "site-"+w.name, "#site-out", "#site-findings", "#site-pages")
			if *update && w.mobile {
				run(t, ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById('site-findings').scrollIntoView({block: 'start'})`))
				png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join("..", "docs", "serve-site-phone.png"), png, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			con.check(t, cancel)
		})

		t.Run("page tab advice and names "+w.name, func(t *testing.T) {
			ctx, cancel, con := tab(t, bctx)
			// A correct setup: nothing is flagged; each crawler that keeps
			// no index is told what its refusal means.
			run(t, ctx,
				viewport,
				chromedp.Navigate(ts.URL+"/#tab=page"),
				chromedp.WaitVisible(chromedp.ID("page-url")),
				chromedp.SetValue(chromedp.ID("page-agents"), "Googlebot, GPTBot, Google-Extended, Googlebto"),
				chromedp.SetValue(chromedp.ID("page-url"), aiBlocked.URL+"/news"),
				chromedp.Click(chromedp.ID("page-go")),
				waitJS(`document.querySelectorAll('#page-summary li').length === 4`),
			)
			if evalJS[bool](t, ctx, `document.getElementById('page-blocked') !== null || document.querySelector('#page-summary li.no') !== null`) {
				t.Errorf("a correct setup is flagged: %q", text(t, ctx, "#page-out"))
			}
			lines := evalJS[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll('#page-summary li')].map(l => [l.dataset.agent, l.className + ' ' + l.textContent]))`)
			for agent, want := range map[string]string{
				"Googlebot":       "yes ✓ Googlebot: indexable",
				"GPTBot":          "fact GPTBot: may not fetch it, so it may not use it for AI training",
				"Google-Extended": "fact Google-Extended: may not use it",
				"Googlebto":       "yes ✓ Googlebto: indexable",
			} {
				if !strings.HasPrefix(lines[agent], want) {
					t.Errorf("%s: %q, want it to start %q", agent, lines[agent], want)
				}
			}
			// A misspelt name: said once, above, one click from the fix.
			if got := text(t, ctx, "#page-did-you-mean"); !strings.Contains(got, "Unknown crawler “Googlebto” — did you mean Googlebot?") {
				t.Errorf("did you mean %q", got)
			}
			if n := evalJS[int](t, ctx, `[...document.querySelectorAll('#page-table .note')].filter(n => n.textContent.includes('did you mean')).length`); n != 0 {
				t.Errorf("the misspelt name is told %d more times in the table", n)
			}
			// The directive table scrolls inside its box (see TestBrowser's
			// phone width); nothing else does.
			noSideways(t, ctx, "#page-out > :not(.table-wrap)", "#page-summary li, #page-did-you-mean")
			writeShot(t, ctx, "page-names-"+w.name, "#page-out")
			run(t, ctx,
				chromedp.Click(chromedp.CSS(`#page-did-you-mean button[data-name="Googlebot"]`)),
				waitJS(`document.getElementById('page-agents').value === 'Googlebot, GPTBot, Google-Extended' && document.getElementById('page-did-you-mean') === null && document.querySelectorAll('#page-summary li').length === 3`),
			)
			// A mistake: the search crawler never reads the noindex; the
			// training crawler refused too is not a problem.
			run(t, ctx,
				chromedp.SetValue(chromedp.ID("page-agents"), "Googlebot, GPTBot"),
				chromedp.SetValue(chromedp.ID("page-url"), noindexBehind.URL+"/private/old"),
				chromedp.Click(chromedp.ID("page-go")),
				waitJS(`document.getElementById('page-blocked') !== null && document.querySelectorAll('#page-summary li').length === 2`),
			)
			if got := text(t, ctx, "#page-blocked"); !strings.Contains(got, "Googlebot") || strings.Contains(got, "GPTBot") {
				t.Errorf("blocked warning %q: want Googlebot only", got)
			}
			assertClasses(t, ctx, map[string][]string{`#page-summary li[data-agent="Googlebot"]`: {"no"}, `#page-summary li[data-agent="GPTBot"]`: {"fact"}})
			noSideways(t, ctx, "#page-out > :not(.table-wrap)", "#page-summary li, #page-blocked")
			con.check(t, cancel)
		})

		t.Run("site tab of a dead or refused site "+w.name, func(t *testing.T) {
			ctx, cancel, con := tab(t, bctx)
			run(t, ctx,
				viewport,
				chromedp.Navigate(ts.URL+"/#tab=site"),
				chromedp.WaitVisible(chromedp.ID("site-url")),
				chromedp.SetValue(chromedp.ID("site-agents"), "Googlebto, GPTBot"),
				chromedp.SetValue(chromedp.ID("site-url"), deadURL+"/"),
				chromedp.Click(chromedp.ID("site-go")),
				waitJS(`!document.getElementById('site-error').hidden && !document.getElementById('site-go').disabled`),
			)
			got := text(t, ctx, "#site-error")
			if !strings.Contains(got, "The site could not be read") || !strings.Contains(got, "connection refused") || !strings.Contains(got, "not one whose robots.txt disallows anything") {
				t.Errorf("dead site: %q, want the cause and that nothing is disallowed", got)
			}
			if cause := evalJS[string](t, ctx, `document.getElementById('site-error').dataset.cause`); cause != "connection-refused" {
				t.Errorf("cause %q", cause)
			}
			if evalJS[bool](t, ctx, `!document.getElementById('site-progress').hidden && document.getElementById('site-count').textContent.startsWith('Done')`) {
				t.Errorf("a dead site reported done: %q", text(t, ctx, "#site-count"))
			}
			if evalJS[bool](t, ctx, `!document.getElementById('site-out').hidden`) {
				t.Error("results are shown for a site nothing of which was read")
			}
			if got := text(t, ctx, "#site-names"); !strings.Contains(got, "Unknown crawler “Googlebto” — did you mean Googlebot?") || strings.Contains(got, "GPTBot") {
				t.Errorf("names %q", got)
			}
			noSideways(t, ctx, "#panel-site", "#site-error, #site-names")
			writeShot(t, ctx, "site-dead-"+w.name, "#panel-site")
			// A refused address: before anything is fetched, with the flag
			// that allows it; the name fixed in one click.
			run(t, ctx,
				chromedp.Click(chromedp.CSS(`#site-names button[data-name="Googlebot"]`)),
				waitJS(`document.getElementById('site-agents').value === 'Googlebot, GPTBot'`),
				chromedp.SetValue(chromedp.ID("site-url"), "http://10.0.0.1/"),
				chromedp.Click(chromedp.ID("site-go")),
				waitJS(`document.getElementById('site-error').textContent.includes('10.0.0.1') && !document.getElementById('site-go').disabled`),
			)
			if got := text(t, ctx, "#site-error"); !strings.Contains(got, "10.0.0.1 is a private address") || !strings.Contains(got, "-allow-private") {
				t.Errorf("refused site: %q", got)
			}
			if evalJS[bool](t, ctx, `!document.getElementById('site-names').hidden`) {
				t.Errorf("names still shown: %q", text(t, ctx, "#site-names"))
			}
			noSideways(t, ctx, "#panel-site", "#site-error")
			con.expect("status of 403")
			con.check(t, cancel)
		})

		t.Run("failed fetch keeps the editor "+w.name, func(t *testing.T) {
			ctx, cancel, con := tab(t, bctx)
			const mine = "User-agent: *\nDisallow: /drafts/\n# my edit\n"
			run(t, ctx,
				viewport,
				chromedp.Navigate(ts.URL+"/"),
				chromedp.WaitEnabled(chromedp.ID("fetch-go")),
				paste("#robots", mine),
				paste("#urls", "/drafts/x\n/public"),
				waitJS(`document.querySelectorAll('#results-body tr[data-index]').length === 2`),
				retype("#fetch-url", down.URL+"/"),
				chromedp.Click(chromedp.ID("fetch-go")),
				waitJS(`document.getElementById('fetch-outcome').dataset.verdict === 'disallow-all' && document.getElementById('fetch-kept') !== null`),
			)
			if got := evalJS[string](t, ctx, `document.getElementById('robots').value`); got != mine {
				t.Errorf("a fetch of a 503 replaced the editor's text with %q", got)
			}
			if got := text(t, ctx, "#fetch-outcome"); !strings.Contains(got, "HTTP 503") || !strings.Contains(got, "Everything is disallowed") || !strings.Contains(got, "keeps your text") {
				t.Errorf("outcome %q: want the 503, its verdict and that the text is kept", got)
			}
			// The fetch's verdict sits beside the editor: on screen
			// together with the editor's top.
			if evalJS[bool](t, ctx, `document.getElementById('fetch-outcome').getBoundingClientRect().bottom > document.getElementById('editor').getBoundingClientRect().top + 1`) {
				t.Error("the fetch outcome is not above the editor")
			}
			noSideways(t, ctx, "#panel-robots", "")
			writeShot(t, ctx, "fetch-503-"+w.name, "#panel-robots")
			// Asked for, the equivalent file goes in; Undo puts the text back.
			run(t, ctx,
				chromedp.Click(chromedp.ID("fetch-load")),
				waitJS(`document.getElementById('robots').value.includes('Disallow: /\n') && document.getElementById('fetch-undo') !== null`),
				waitJS(`[...document.querySelectorAll('#results-body .badge')].map(b => b.textContent).join(',') === 'Blocked,Blocked'`),
				chromedp.Click(chromedp.ID("fetch-undo")),
				waitJS(`document.getElementById('robots').value === `+jsString(mine)),
				waitJS(`[...document.querySelectorAll('#results-body .badge')].map(b => b.textContent).join(',') === 'Blocked,Allowed'`),
			)
			// A fetch that works replaces the text, with an Undo.
			run(t, ctx,
				retype("#fetch-url", o.URL+"/"),
				chromedp.Click(chromedp.ID("fetch-go")),
				waitJS(`document.getElementById('fetch-outcome').dataset.verdict === 'use-rules' && document.getElementById('fetch-undo') !== null`),
			)
			if got := evalJS[string](t, ctx, `document.getElementById('robots').value`); !strings.Contains(got, "Disallow: /private") {
				t.Errorf("the served file is not in the editor: %q", got)
			}
			run(t, ctx,
				chromedp.Click(chromedp.ID("fetch-undo")),
				waitJS(`document.getElementById('robots').value === `+jsString(mine)+` && document.getElementById('fetch-undone') !== null`),
			)
			con.check(t, cancel)
		})
	}

	t.Run("page URL without a scheme", func(t *testing.T) {
		ctx, cancel, con := tab(t, bctx)
		run(t, ctx,
			chromedp.Navigate(ts.URL+"/#tab=page"),
			chromedp.WaitVisible(chromedp.ID("page-url")),
			chromedp.SetValue(chromedp.ID("page-url"), strings.TrimPrefix(o.URL, "http://")+"/article"),
			chromedp.Click(chromedp.ID("page-go")),
			waitJS(`!document.getElementById('page-error').hidden`),
		)
		got := text(t, ctx, "#page-error")
		if !strings.Contains(got, "has no scheme") || strings.Contains(got, "parse") {
			t.Errorf("error %q: want it to say the scheme is missing, in words", got)
		}
		// The fix offered is one click away, and works.
		run(t, ctx,
			chromedp.Click(chromedp.ID("page-url-fix")),
			waitJS(`document.getElementById('page-url').value.startsWith('https://')`),
		)
		con.expect("status of")
		con.check(t, cancel)
	})

	t.Run("did you mean", func(t *testing.T) {
		ctx, cancel, con := tab(t, bctx)
		run(t, ctx,
			chromedp.Navigate(ts.URL+"/"),
			chromedp.WaitVisible(chromedp.ID("robots")),
			paste("#robots", "User-agent: *\nDisallow: /x\n\nUser-agent: Googlebot\nDisallow: /g\n"),
			paste("#urls", "/g"),
			retype("#agent", "Googlebto"),
			// Keys are sent one by one and each edit asks again: wait for
			// the answer to the whole name, not to a prefix of it
			// ("Googleb" is misspelt too).
			waitJS(`document.getElementById('did-you-mean')?.textContent.includes('“Googlebto”')`),
		)
		if got := text(t, ctx, "#did-you-mean"); !strings.Contains(got, "Unknown crawler “Googlebto” — did you mean Googlebot?") {
			t.Errorf("did you mean %q", got)
		}
		// The matrix marks a misspelt crawler's column too.
		run(t, ctx,
			paste("#matrix-agents", "Googlebot, bingbott"),
			waitJS(`document.querySelector('#matrix th[data-agent="bingbott"]') !== null`),
		)
		if got := text(t, ctx, `#matrix th[data-agent="bingbott"]`); !strings.Contains(got, "did you mean bingbot?") {
			t.Errorf("matrix column %q", got)
		}
		run(t, ctx,
			chromedp.Click(chromedp.CSS(`#did-you-mean button[data-name="Googlebot"]`)),
			waitJS(`document.getElementById('agent').value === 'Googlebot' && document.getElementById('did-you-mean') === null && document.querySelector('#results-body .badge').textContent === 'Blocked'`),
		)
		con.check(t, cancel)
	})
}

func jsString(s string) string { return fmt.Sprintf("%q", s) }

// writeShot writes, when $REP_SHOTS is set, one screenshot of the window
// per selector, scrolled to the element: NAME-1.png, NAME-2.png...
func writeShot(t *testing.T, ctx context.Context, name string, sels ...string) {
	t.Helper()
	if shots == "" {
		return
	}
	for i, sel := range sels {
		run(t, ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).scrollIntoView({block: 'start'})`, sel)))
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(shots, fmt.Sprintf("%s-%d.png", name, i+1)), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
