package crawl

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep"
)

// site serves robots.txt, a sitemap listing the pages that are not
// noindex (as a correct sitemap does), and the pages:
// each path maps to its HTML (a noindex page says so in a meta element).
func site(t *testing.T, robots string, pages map[string]string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	var srv *httptest.Server
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.ReplaceAll(robots, "$SITE", srv.URL))
	})
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
		for p, body := range pages {
			if strings.Contains(body, "noindex") || !strings.HasPrefix(body, "<html") {
				continue
			}
			io.WriteString(w, "<url><loc>"+srv.URL+p+"</loc></url>")
		}
		io.WriteString(w, "</urlset>")
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, body)
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

const (
	home    = `<html><head><link rel="stylesheet" href="/assets/site.css"></head><body><a href="/private/old">old</a> <a href="/news">news</a></body></html>`
	noindex = `<html><head><meta name="robots" content="noindex"></head><body>old</body></html>`
	plain   = `<html><body>news</body></html>`
)

// TestAdviceByKind: correct setups draw no warning or error; real
// mistakes still do, naming the crawler misled.
func TestAdviceByKind(t *testing.T) {
	pages := map[string]string{"/": home, "/private/old": noindex, "/news": plain, "/assets/site.css": "body{}"}
	for _, tc := range []struct {
		name   string
		robots string
		agents []string
		want   []string // "code agent" of every warning and error
	}{
		{"AI crawlers blocked on purpose", "User-agent: *\nDisallow:\n\nUser-agent: GPTBot\nUser-agent: CCBot\nUser-agent: PerplexityBot\nDisallow: /\n\nSitemap: $SITE/sitemap.xml\n",
			[]string{"Googlebot", "bingbot", "GPTBot", "CCBot", "PerplexityBot"}, nil},
		{"control tokens", "User-agent: Google-Extended\nUser-agent: Applebot-Extended\nDisallow: /\n\nUser-agent: *\nDisallow:\n\nSitemap: $SITE/sitemap.xml\n",
			[]string{"Googlebot", "Google-Extended", "Applebot-Extended"}, nil},
		{"AdsBot and AdSense groups", "User-agent: *\nDisallow: /private/\nDisallow: /assets/\n\nUser-agent: AdsBot-Google\nUser-agent: Mediapartners-Google\nDisallow:\n\nSitemap: $SITE/sitemap.xml\n",
			[]string{"AdsBot-Google", "Mediapartners-Google"}, nil},
		{"a search crawler refused the whole site on purpose", "User-agent: Baiduspider\nDisallow: /\n\nUser-agent: *\nDisallow:\n\nSitemap: $SITE/sitemap.xml\n",
			[]string{"Googlebot", "Baiduspider"}, nil},
		{"a search crawler let into one part only", "User-agent: Baiduspider\nDisallow: /\nAllow: /news\n\nUser-agent: *\nDisallow:\n\nSitemap: $SITE/sitemap.xml\n",
			[]string{"Baiduspider"}, []string{"noindex-unseen Baiduspider", "sitemap-disallowed Baiduspider"}},
		{"noindex behind a Disallow for a search crawler", "User-agent: *\nDisallow: /private/\n\nSitemap: $SITE/sitemap.xml\n",
			[]string{"Googlebot", "GPTBot"}, []string{"noindex-unseen Googlebot"}},
		{"a stylesheet blocked for a search crawler", "User-agent: *\nDisallow: /assets/\nDisallow: /private/\n\nSitemap: $SITE/sitemap.xml\n",
			[]string{"Googlebot", "Google-Extended"}, []string{"blocked-resource Googlebot", "noindex-unseen Googlebot"}},
		{"a listed page disallowed for search crawlers", "User-agent: *\nDisallow: /news\n\nUser-agent: Googlebot\nDisallow: /news\n\nSitemap: $SITE/sitemap.xml\n",
			[]string{"Googlebot", "bingbot", "GPTBot"}, []string{"sitemap-disallowed Googlebot", "sitemap-disallowed bingbot"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := site(t, tc.robots, pages)
			agents, err := rep.AgentsFor(tc.agents, rep.AgentOptions{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := Run(context.Background(), Config{Start: srv.URL, AllowPrivate: true, Agents: agents})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range r.Findings {
				if f.Severity >= Warning {
					got = append(got, f.Code+" "+f.Agent)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				for _, f := range r.Findings {
					t.Logf("%s %s [%s] %s: %s (%s)", f.Severity, f.Code, f.Agent, f.URL, f.Message, f.Evidence)
				}
				t.Errorf("warnings and errors %v, want %v", got, tc.want)
			}
		})
	}
}

// TestVerdictWordsByKind: a training crawler or a control token is never
// "indexable" or "noindex"; its verdict says what it may fetch or use.
func TestVerdictWordsByKind(t *testing.T) {
	srv := site(t, "User-agent: GPTBot\nUser-agent: Google-Extended\nDisallow: /private/\n\nUser-agent: *\nDisallow:\n",
		map[string]string{"/": home, "/private/old": noindex, "/news": plain})
	agents, err := rep.AgentsFor([]string{"Googlebot", "GPTBot", "Google-Extended"}, rep.AgentOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Verdict{}
	_, err = Run(context.Background(), Config{Start: srv.URL, AllowPrivate: true, Agents: agents, OnPage: func(p *Page) {
		for _, v := range p.Verdicts {
			got[strings.TrimPrefix(p.URL, srv.URL)+" "+v.Agent] = v
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]struct{ kind, state, why string }{
		"/news Googlebot":              {"search", "indexable", "crawlable"},
		"/private/old Googlebot":       {"search", "noindex", "noindex"},
		"/news GPTBot":                 {"ai-training", "allowed", "may fetch it and use it for AI training"},
		"/private/old GPTBot":          {"ai-training", "blocked", "may not use it for AI training"},
		"/news Google-Extended":        {"control-token", "allowed", "may use it"},
		"/private/old Google-Extended": {"control-token", "blocked", "may not use it"},
	} {
		v, ok := got[k]
		if !ok || v.Kind != want.kind || v.State != want.state || !strings.Contains(v.Why, want.why) {
			t.Errorf("%s: %+v, want kind %s, state %s, why containing %q", k, v, want.kind, want.state, want.why)
		}
	}
}

// TestUnreachable: a site that does not answer is reported with the
// cause, not as disallowed, and nothing else is reported.
func TestUnreachable(t *testing.T) {
	closed := func(t *testing.T) string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		return "http://" + addr + "/"
	}
	hang := func(t *testing.T) string {
		stop := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-stop:
			}
		}))
		t.Cleanup(func() { close(stop); srv.Close() })
		return srv.URL
	}
	for _, tc := range []struct {
		name  string
		start func(*testing.T) string
		cause string
	}{
		{"connection refused", closed, CauseConnectionRefused},
		{"timeout", hang, CauseTimeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Run(context.Background(), Config{Start: tc.start(t), AllowPrivate: true, Timeout: 100e6})
			var se *SiteError
			if !errors.As(err, &se) || se.Cause != tc.cause {
				t.Fatalf("err %v, want a SiteError with cause %s", err, tc.cause)
			}
			if r.Unreachable != se || len(r.Findings) != 0 || len(r.Sitemaps) != 0 || r.Crawled != 0 {
				t.Errorf("report %+v: want only the cause", r)
			}
			if strings.Contains(se.Error(), "disallow") {
				t.Errorf("%q speaks of disallowing", se.Error())
			}
		})
	}
}
