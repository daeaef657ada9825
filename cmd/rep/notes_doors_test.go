package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/server"
	"github.com/rep-toolkit/rep/verdict"
)

// TestNotesDoors asks each door for the notes of one answer and asserts
// that every JSON door gives the notes that apply to it (verdict.NotesFor),
// in one shape (a list of sentences, left out when empty), as the text
// doors print them: rep check -json (a file, and fetching), /api/check
// (the answer's notes and each verdict's), GET and POST /api/allowed,
// /api/page (each crawler's notes and its robots verdict's) and rep page
// -json (its notes and its robots verdict's). A note that does not apply
// ("bingbot falls back to the msnbot group" where a group names bingbot)
// is in none of them.
func TestNotesDoors(t *testing.T) {
	const (
		msnOnly   = "User-agent: msnbot\nDisallow: /m\n\nUser-agent: *\nDisallow: /\n"
		bingOwn   = "User-agent: bingbot\nDisallow: /b\n\nUser-agent: msnbot\nDisallow: /m\n"
		star      = "User-agent: *\nDisallow: /private\n"
		adsOwn    = "User-agent: AdsBot-Google\nDisallow: /ads\n\nUser-agent: *\nDisallow: /\n"
		googleOwn = "User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /\n"
		extended  = "User-agent: Google-Extended\nDisallow: /\n\nUser-agent: *\nAllow: /\n"
	)
	tests := []struct {
		name, robots, agent, path string
		want, not                 []string // parts some note has; parts no note has
	}{
		{"bingbot falls back to msnbot", msnOnly, "bingbot", "/m/x", []string{"no group names bingbot: it falls back to the msnbot group (line 1)"}, nil},
		{"bingbot named: no fallback note", bingOwn, "bingbot", "/b/x", []string{"follows the bing engine"}, []string{"falls back"}},
		{"AdsBot-Google with no group of its own", star, "AdsBot-Google", "/private/x", []string{"ignores the * group: only a group naming it applies, and none does"}, nil},
		{"AdsBot-Google with its own group", adsOwn, "AdsBot-Google", "/ads/x", nil, []string{"ignores the * group"}},
		{"Googlebot: no note", googleOwn, "Googlebot", "/g/x", nil, []string{""}},
		{"a misspelt Googlebot", googleOwn, "Googlebto", "/g/x", []string{"unknown crawler Googlebto — did you mean Googlebot?"}, nil},
		{"a control token", extended, "Google-Extended", "/x", []string{"Google-Extended is a robots.txt control token"}, nil},
	}
	srv, err := server.New(server.Config{AllowPrivate: true, RatePerSecond: -1, OriginRate: -1})
	if err != nil {
		t.Fatal(err)
	}
	api := httptest.NewServer(srv)
	defer api.Close()
	sites := &doorSites{sites: map[string]*httptest.Server{}}
	dir := t.TempDir()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := rep.NewAgent(tt.agent, rep.AgentOptions{})
			if err != nil {
				t.Fatal(err)
			}
			d := a.Decide(robotstxt.ParseWith([]byte(tt.robots), a.ParseOptions()), tt.path)
			want := verdict.NotesFor(a, d.Group)
			all := strings.Join(want, "\n")
			for _, w := range tt.want {
				if !strings.Contains(all, w) {
					t.Fatalf("notes.For %q: want one with %q", want, w)
				}
			}
			for _, n := range tt.not {
				if n == "" && len(want) > 0 || n != "" && strings.Contains(all, n) {
					t.Fatalf("notes.For %q: want none with %q", want, n)
				}
			}
			base := sites.url(t, tt.robots)
			file := filepath.Join(dir, "robots"+string(rune('a'+i))+".txt")
			if err := os.WriteFile(file, []byte(tt.robots), 0o644); err != nil {
				t.Fatal(err)
			}
			got := map[string][]string{}
			// rep check -json, a file and fetching.
			var v struct{ Notes []string }
			cliJSON(t, &v, "check", "-json", "-robots", file, "-agent", tt.agent, tt.path)
			got["rep check -robots"] = v.Notes
			cliJSON(t, &v, "check", "-json", "-allow-private", "-agent", tt.agent, base+tt.path)
			got["rep check fetching"] = v.Notes
			// /api/check: the answer's notes and its verdict's.
			var check struct {
				Notes   []string
				Results []struct{ Notes []string }
			}
			post(t, api.URL+"/api/check", map[string]any{"robots": tt.robots, "agent": tt.agent, "urls": []string{tt.path}}, &check)
			got["/api/check"], got["/api/check results"] = check.Notes, check.Results[0].Notes
			// /api/allowed, one query and a batch.
			q := url.Values{"agent": {tt.agent}, "url": {base + tt.path}}
			res, err := http.Get(api.URL + "/api/allowed?" + q.Encode())
			if err != nil {
				t.Fatal(err)
			}
			v.Notes = nil
			if err := json.NewDecoder(res.Body).Decode(&v); err != nil || res.StatusCode != 200 {
				t.Fatalf("GET /api/allowed: %d %v", res.StatusCode, err)
			}
			res.Body.Close()
			got["GET /api/allowed"] = v.Notes
			var batch struct{ Results []struct{ Notes []string } }
			post(t, api.URL+"/api/allowed", map[string]any{"agent": tt.agent, "queries": []map[string]string{{"url": base + tt.path}}}, &batch)
			got["POST /api/allowed"] = batch.Results[0].Notes
			// /api/page: a crawler's notes and its robots verdict's.
			var page struct {
				Crawlers []struct {
					Notes  []string
					Robots struct{ Notes []string }
				}
			}
			post(t, api.URL+"/api/page", map[string]any{"url": base + tt.path, "agents": []string{tt.agent}}, &page)
			got["/api/page"], got["/api/page robots"] = page.Crawlers[0].Notes, page.Crawlers[0].Robots.Notes
			// rep page -json: its notes and its robots verdict's.
			var rp struct {
				Notes  []string
				Robots struct{ Notes []string }
			}
			cliJSON(t, &rp, "page", "-json", "-allow-private", "-agent", tt.agent, base+tt.path)
			got["rep page"], got["rep page robots"] = rp.Notes, rp.Robots.Notes
			for door, n := range got {
				if !slices.Equal(n, want) {
					t.Errorf("%s: notes %q, want %q", door, n, want)
				}
			}
		})
	}
}

// cliJSON runs rep with args and decodes its standard output into v.
func cliJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, nil, &out, &errb)
	if err := json.Unmarshal(out.Bytes(), v); err != nil {
		t.Fatalf("rep %s: exit %d, %v: %s%s", strings.Join(args, " "), code, err, out.String(), errb.String())
	}
}

// post sends body as JSON and decodes a 200 answer into v.
func post(t *testing.T, u string, body, v any) {
	t.Helper()
	b, _ := json.Marshal(body)
	res, err := http.Post(u, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil || res.StatusCode != 200 {
		t.Fatalf("%s: %d %v", u, res.StatusCode, err)
	}
}
