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
	"time"

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
				waitCrawl(`document.getElementById('site-count').textContent.startsWith('Done')`),
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
			waitJS(`document.getElementById('did-you-mean') !== null`),
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

// waitCrawl is waitJS with a 2-minute guard against a hang: the planted
// site's crawl reads a 50 MB sitemap, which under -race on a shared
// machine takes longer than waitJS's 20 s. (browsertest.Wait, when it
// lands, is this wait.)
func waitCrawl(cond string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Poll[bool](cond, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(2*time.Minute))(ctx, t)
		if err != nil {
			return chromedp.Void{}, fmt.Errorf("waiting for %s: %w", cond, err)
		}
		return chromedp.Void{}, nil
	}
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
