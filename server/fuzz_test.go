package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzHeaderLines: pasted headers never panic the splitter, and every
// line it returns is a "Name: value" field.
func FuzzHeaderLines(f *testing.F) {
	f.Add("HTTP/1.1 200 OK\r\nX-Robots-Tag: noindex\r\n folded\r\n\r\n")
	f.Add("X-Robots-Tag: googlebot: nofollow\nContent-Type: text/html")
	f.Add(" leading fold\nA: b")
	f.Fuzz(func(t *testing.T, s string) {
		lines, err := headerLines(s)
		if err != nil {
			return
		}
		for _, l := range lines {
			if !strings.Contains(l, ":") {
				t.Errorf("line %q has no colon", l)
			}
		}
	})
}

// FuzzAPI: any body sent to the endpoints that need no network gets a
// JSON answer with a 200, 400 or 413 status, never a panic or a 500.
func FuzzAPI(f *testing.F) {
	f.Add("/api/check", `{"robots":"User-agent: *\nDisallow: /x","agent":"Googlebot","urls":["/x","https://e.com/y"]}`)
	f.Add("/api/lint", `{"robots":"Disalow /x\nSitemap: /s.xml"}`)
	f.Add("/api/page", `{"headers":"X-Robots-Tag: noindex","html":"<meta name=robots content=nosnippet>","robots":"User-agent: *\nDisallow: /"}`)
	f.Add("/api/check", `{"robots":null,"agent":[],"urls":{}}`)
	s, err := New(Config{Hosts: []string{"example.com"}}) // httptest.NewRequest's Host
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, path, body string) {
		switch path {
		case "/api/check", "/api/lint", "/api/page":
		default:
			return
		}
		// A body naming a URL (encoding/json matches keys in any case and
		// decodes escapes) could make /api/page fetch: never in a fuzz loop.
		var keys map[string]json.RawMessage
		if json.Unmarshal([]byte(body), &keys) == nil {
			for k := range keys {
				if strings.EqualFold(k, "url") {
					return
				}
			}
		}
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
		s.ServeHTTP(w, r)
		switch w.Code {
		case 200, 400, 413:
		default:
			t.Fatalf("%s %q: status %d %s", path, body, w.Code, w.Body)
		}
		var v map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &v); err != nil {
			t.Fatalf("%s %q: answer is not JSON: %v", path, body, err)
		}
	})
}
