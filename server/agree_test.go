package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/verdict"
)

// TestAgreesWithLibrary runs each case through the library (rep.NewAgent,
// Agent.Decide: what rep check answers), /api/check with the file inline
// and /api/allowed with the file served by a loopback origin, and asserts
// one verdict, one deciding line, one group and the same notes everywhere:
// those that apply to the answer (verdict.NotesFor), as rep check prints.
func TestAgreesWithLibrary(t *testing.T) {
	const (
		star      = "User-agent: *\nDisallow: /private\n"
		fallback  = "User-agent: googlebot\nDisallow: /nogoogle\n\nUser-agent: *\nDisallow: /private\n"
		bing      = "User-agent: bingbot\nCrawl-delay: 5\nDisallow: /nobing\n\nUser-agent: *\nDisallow: /\n"
		yandex    = "User-agent: YandexBot\nCrawl-delay: 2\nDisallow: /noyandex\n\nUser-agent: *\nDisallow: /\n"
		percent   = "User-agent: *\nDisallow: /%62az\n"
		adsOwn    = "User-agent: *\nDisallow: /\n\nUser-agent: AdsBot-Google\nDisallow: /ads-private\n"
		googleUA  = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
		imageUA   = "Googlebot-Image/1.0"
		noteStar  = "ignores the * group"
		noteFall  = "falls back to the Googlebot group"
		noteBing  = "the bing engine's rules"
		noteParse = "parser only"
	)
	tests := []struct {
		name, robots, agent, profile, path string
		parserOnly                         bool
		allowed                            bool
		line                               int
		group, via, engine                 string
		note                               string // part of one of the notes; "" for none
		delay                              string // /api/check's delay.from; "" for none
	}{
		{"AdsBot-Google ignores the * group", star, "AdsBot-Google", "", "/private/x", false, true, 0, "", "none", "google", noteStar, ""},
		{"Mediapartners-Google ignores the * group", star, "Mediapartners-Google", "", "/private/x", false, true, 0, "", "none", "google", noteStar, ""},
		{"AdsBot-Google obeys its own group", adsOwn, "AdsBot-Google", "", "/ads-private/x", false, false, 5, "adsbot-google", "token", "google", noteStar, ""},
		{"AdsBot-Google, parser only, obeys *", star, "AdsBot-Google", "", "/private/x", true, false, 2, "*", "star", "google", noteParse, ""},
		{"Googlebot-Image falls back to googlebot", fallback, "Googlebot-Image", "", "/nogoogle/a", false, false, 2, "googlebot", "fallback", "google", noteFall, ""},
		{"Googlebot-Image is not held by the * group", fallback, "Googlebot-Image", "", "/private/x", false, true, 0, "googlebot", "fallback", "google", noteFall, ""},
		{"Googlebot-Image as a User-Agent header", fallback, imageUA, "", "/nogoogle/a", false, false, 2, "googlebot", "fallback", "google", noteFall, ""},
		{"Googlebot-Image, parser only, obeys *", fallback, "Googlebot-Image", "", "/private/x", true, false, 5, "*", "star", "google", noteParse, ""},
		{"Googlebot as a User-Agent header", fallback, googleUA, "", "/nogoogle/a", false, false, 2, "googlebot", "token", "google", "", ""},
		{"explicit chain", fallback, "Googlebot-News, Googlebot", "", "/nogoogle/a", false, false, 2, "googlebot", "fallback", "google", "", ""},
		{"bingbot follows bing", bing, "bingbot", "", "/nobing/x", false, false, 3, "bingbot", "token", "bing", noteBing, "crawl-delay (line 2)"},
		{"bingbot under google rules reads no delay", bing, "bingbot", "google", "/nobing/x", false, false, 3, "bingbot", "token", "google", "falls back to the msnbot group", ""},
		{"YandexBot follows yandex", yandex, "YandexBot", "", "/noyandex/x", false, false, 3, "yandexbot", "token", "yandex", "the yandex engine's rules", "crawl-delay (line 2)"},
		{"engine google", percent, "ExampleBot", "google", "/baz", false, true, 0, "*", "star", "google", "", ""},
		{"engine bing", percent, "ExampleBot", "bing", "/baz", false, true, 0, "*", "star", "bing", "", ""},
		{"engine yandex", percent, "ExampleBot", "yandex", "/baz", false, true, 0, "*", "star", "yandex", "", ""},
		{"engine rfc9309", percent, "ExampleBot", "rfc9309", "/baz", false, false, 2, "*", "star", "rfc9309", "", ""},
		{"engine in capitals", percent, "ExampleBot", "RFC9309", "/baz", false, false, 2, "*", "star", "rfc9309", "", ""},
		{"engine auto", percent, "ExampleBot", "auto", "/baz", false, true, 0, "*", "star", "google", "", ""},
	}
	ts, _ := newGuardedServer(t, Config{RatePerSecond: -1})
	// The verdict fields every door must agree on.
	keys := []string{"agent", "allowed", "line", "rule", "group", "via", "reason", "group_lines", "engine", "tokens", "notes", "parser_only"}
	pick := func(m map[string]any) map[string]any {
		out := map[string]any{}
		for _, k := range keys {
			out[k] = m[k]
		}
		return out
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The library, as rep check -robots FILE answers.
			e, err := engine.Parse(tt.profile)
			if err != nil {
				t.Fatal(err)
			}
			a, err := rep.NewAgent(tt.agent, rep.AgentOptions{Engine: e, ParserOnly: tt.parserOnly})
			if err != nil {
				t.Fatal(err)
			}
			lib := a.Decide(robotstxt.ParseWith([]byte(tt.robots), a.ParseOptions()), tt.path)
			// Every door's JSON gives the notes that apply to the answer
			// (verdict.NotesFor), as its text does: not every note of
			// a.Notes.
			raw, _ := json.Marshal(lib)
			var want map[string]any
			json.Unmarshal(raw, &want)
			if lib.Allowed != tt.allowed || lib.Rule.Line != tt.line || lib.Group.Agent != tt.group || want["via"] != tt.via || a.Engine.String() != tt.engine {
				t.Errorf("library: %s (group %q via %v engine %s)", lib, lib.Group.Agent, want["via"], a.Engine)
			}
			if all := strings.Join(a.Notes, "\n"); tt.note != "" && !strings.Contains(all, tt.note) || tt.note == "" && all != "" {
				t.Errorf("library notes %q, want %q", all, tt.note)
			}

			// /api/check, the file inline.
			body := map[string]any{"robots": tt.robots, "agent": tt.agent, "urls": []string{tt.path}, "profile": tt.profile, "parser_only": tt.parserOnly}
			st, m := call(t, "POST", ts.URL+"/api/check", jsonBody(t, body))
			if st != 200 {
				t.Fatalf("/api/check: %d %v", st, m)
			}
			got := m["results"].([]any)[0].(map[string]any)
			if !reflect.DeepEqual(pick(got), pick(want)) {
				t.Errorf("/api/check verdict\n got %v\nwant %v", pick(got), pick(want))
			}
			// The tester's notes are those that apply to the file
			// (verdict.NotesFor), as rep check prints them.
			wantNotes := []any{}
			for _, n := range verdict.NotesFor(a, lib.Group) {
				wantNotes = append(wantNotes, n)
			}
			if m["engine"] != tt.engine || !reflect.DeepEqual(m["notes"], wantNotes) {
				t.Errorf("/api/check engine %v notes %v, want %v", m["engine"], m["notes"], wantNotes)
			}
			if d, _ := m["delay"].(map[string]any); tt.delay == "" && d != nil || tt.delay != "" && (d == nil || d["from"] != tt.delay) {
				t.Errorf("/api/check delay %v, want from %q", m["delay"], tt.delay)
			}

			// /api/allowed, the file fetched from a loopback origin.
			o := newOrigin(t, func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/robots.txt" {
					http.NotFound(w, r)
					return
				}
				w.Header().Set("Content-Type", "text/plain")
				w.Write([]byte(tt.robots))
			})
			q := url.Values{"url": {o.URL + tt.path}, "agent": {tt.agent}, "profile": {tt.profile}}
			if tt.parserOnly {
				q.Set("parser_only", "true")
			}
			st, m = call(t, "GET", ts.URL+"/api/allowed?"+q.Encode(), "")
			if st != 200 {
				t.Fatalf("/api/allowed: %d %v", st, m)
			}
			if !reflect.DeepEqual(pick(m), pick(want)) {
				t.Errorf("/api/allowed verdict\n got %v\nwant %v", pick(m), pick(want))
			}
			if f, _ := m["fetch"].(map[string]any); f == nil || f["verdict"] != "use-rules" {
				t.Errorf("/api/allowed fetch %v", m["fetch"])
			}
		})
	}
}

// TestProfileField: every profile field takes the four engines and
// refuses anything else with the same message.
func TestProfileField(t *testing.T) {
	ts, _ := newGuardedServer(t, Config{RatePerSecond: -1})
	const use = "use google, bing, yandex or rfc9309"
	for _, p := range []string{"google", "bing", "yandex", "rfc9309", ""} {
		for _, req := range []struct{ method, path, body string }{
			{"POST", "/api/check", jsonBody(t, map[string]any{"robots": "", "agent": "x", "urls": []string{"/"}, "profile": p})},
			{"POST", "/api/lint", jsonBody(t, map[string]any{"robots": "", "profile": p})},
			{"POST", "/api/page", jsonBody(t, map[string]any{"html": "<p>", "agents": []string{"x"}, "profile": p})},
		} {
			if st, m := call(t, req.method, ts.URL+req.path, req.body); st != 200 {
				t.Errorf("%s profile %q: %d %v", req.path, p, st, m)
			}
		}
	}
	for _, req := range []struct{ method, path, body string }{
		{"POST", "/api/check", `{"robots":"","agent":"x","urls":["/"],"profile":"msn"}`},
		{"POST", "/api/lint", `{"robots":"","profile":"msn"}`},
		{"POST", "/api/page", `{"html":"<p>","profile":"msn"}`},
		{"GET", "/api/allowed?agent=x&url=https://example.com/&profile=msn", ""},
	} {
		st, m := call(t, req.method, ts.URL+req.path, req.body)
		if msg, _ := m["error"].(string); st != 400 || !strings.Contains(msg, `unknown profile "msn": `+use) {
			t.Errorf("%s with profile msn: %d %v, want 400 saying %q", req.path, st, m, use)
		}
	}
	if st, m := call(t, "GET", ts.URL+"/api/allowed?agent=x&url=https://example.com/&parser_only=maybe", ""); st != 400 {
		t.Errorf("parser_only=maybe: %d %v, want 400", st, m)
	}
}
