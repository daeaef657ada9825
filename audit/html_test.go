package audit

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/internal/testkit/browsertest"
	"github.com/rep-toolkit/rep/internal/testkit/loggen"
)

// TestHTMLInBrowser opens the HTML report of a generated log in headless
// Chromium and checks that it renders, that its three charts are drawn
// with visible series and bars, and that it loads nothing from elsewhere.
// With -update it saves the screenshot docs/audit-report.png. A missing
// browser fails the test: make test installs Debian's chromium.
func TestHTMLInBrowser(t *testing.T) {
	data, tr := generate(t, loggen.Config{Seed: 1, Requests: 20000})
	rep := auditBytes(t, data, nil, Options{Robots: history(t, tr), Verifier: &identity.Verifier{}, VerifyMode: "lists"})
	rep.Sources = []string{"access.log"}
	path := filepath.Join(t.TempDir(), "report.html")
	fh, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(fh, rep); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	html, _ := os.ReadFile(path)
	for _, ext := range []string{"<script", "src=", "<link", "@import", "url("} {
		if strings.Contains(string(html), ext) {
			t.Errorf("report refers to an external resource or script: %q", ext)
		}
	}

	ctx := browser(t)
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+path), chromedp.WaitVisible(chromedp.ID("chart-violations"))); err != nil {
		t.Fatal(err)
	}
	type box struct {
		W, H     float64
		Series   int
		Bars     int
		Children int
	}
	var got struct {
		Title     string
		Charts    map[string]box
		Resources int
		Rows      int
	}
	got, err = chromedp.Run(ctx, chromedp.Evaluate[struct {
		Title     string
		Charts    map[string]box
		Resources int
		Rows      int
	}](`(() => {
		const charts = {};
		for (const svg of document.querySelectorAll('svg.chart')) {
			const r = svg.getBoundingClientRect();
			charts[svg.id] = {W: r.width, H: r.height,
				Series: svg.querySelectorAll('polyline.series').length,
				Bars: [...svg.querySelectorAll('rect.bar')].filter(b => b.getBoundingClientRect().width > 0).length,
				Children: svg.children.length};
		}
		return {Title: document.title, Charts: charts,
			Resources: performance.getEntriesByType('resource').length,
			Rows: document.querySelectorAll('table tr').length};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got.Title, "Crawler audit, 1 Mar 2026") {
		t.Errorf("title %q", got.Title)
	}
	if got.Resources != 0 {
		t.Errorf("the page loaded %d resources; it must be self-contained", got.Resources)
	}
	if got.Rows != len(rep.Crawlers)+1 {
		t.Errorf("crawler table has %d rows, want %d", got.Rows, len(rep.Crawlers)+1)
	}
	days, status, viol := got.Charts["chart-days"], got.Charts["chart-status"], got.Charts["chart-violations"]
	switch {
	case len(got.Charts) != 3:
		t.Errorf("charts %v, want chart-days, chart-status, chart-violations", got.Charts)
	case days.W < 300 || days.H < 100 || days.Series != 7:
		t.Errorf("requests-per-day chart %+v: want a visible chart with 6 crawlers and 'other crawlers'", days)
	case status.W < 300 || status.Bars < len(rep.Crawlers):
		t.Errorf("status chart %+v: want a visible bar per crawler and class", status)
	case viol.W < 300 || viol.Bars < 8:
		t.Errorf("violations chart %+v: want visible bars", viol)
	}
	if *update {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join("..", "docs", "audit-report.png")
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", out)
	}
}

// browser starts headless Chromium for one test (internal/testkit/browsertest).
func browser(t *testing.T) context.Context {
	return browsertest.Start(t, 1200, 900)
}
