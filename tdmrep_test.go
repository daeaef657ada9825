package rep_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/aipref"
)

// TestFetchTDMRep asks a loopback site's /.well-known/tdmrep.json about a
// page (TDMRep section 4.1): what the file says, and every way it can say
// nothing.
func TestFetchTDMRep(t *testing.T) {
	const rules = `[{"location": "/free/*", "tdm-reservation": 0}, {"location": "/*", "tdm-reservation": 1, "tdm-policy": "https://example.com/policy.json"}]`
	for _, c := range []struct {
		name   string
		status int
		body   string
		page   string
		pref   aipref.Pref // of train-ai; Unknown for no statement
		entry  int         // the deciding entry
		note   string
		parse  bool // Err is a *aipref.TDMRepError
	}{
		{name: "reserved", status: 200, body: rules, page: "/books/1.html", pref: aipref.Disallowed, entry: 2},
		// tdm-reservation 0 reserves nothing and grants nothing either.
		{name: "not reserved, first match wins", status: 200, body: rules, page: "/free/1.html", pref: aipref.Unknown, entry: 1},
		{name: "no rule for the path", status: 200, body: `[{"location": "/books/*", "tdm-reservation": 1}]`, page: "/news/1.html", note: "1 rules, none for this path"},
		{name: "not found", status: 404, page: "/a", note: "no tdmrep.json (HTTP 404)"},
		{name: "gone", status: 410, page: "/a", note: "no tdmrep.json (HTTP 410)"},
		{name: "server error", status: 503, page: "/a", note: "not read: HTTP 503"},
		// Every 2xx is a success (RFC 9110 section 15.3), no other status.
		{name: "HTTP 299", status: 299, body: rules, page: "/books/1.html", pref: aipref.Disallowed, entry: 2},
		{name: "HTTP 300", status: 300, body: rules, page: "/books/1.html", note: "not read: HTTP 300"},
		{name: "not JSON", status: 200, body: "<html>", page: "/a", note: "not read: tdmrep.json", parse: true},
		{name: "bad reservation", status: 200, body: `[{"location": "/", "tdm-reservation": 2}]`, page: "/a", note: "entry 1", parse: true},
		// 512 KiB is read; one byte more is refused whole.
		{name: "524288 bytes", status: 200, body: padded(`[{"location": "/", "tdm-reservation": 1}]`, 524288), page: "/a", pref: aipref.Disallowed, entry: 1},
		{name: "524289 bytes", status: 200, body: padded(`[{"location": "/", "tdm-reservation": 1}]`, 524289), page: "/a", note: "longer than 524288 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var asked string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				asked = r.URL.Path
				w.WriteHeader(c.status)
				w.Write([]byte(c.body))
			}))
			defer srv.Close()
			f, err := rep.FetchTDMRep(context.Background(), srv.Client(), srv.URL+c.page)
			if err != nil {
				t.Fatal(err)
			}
			if asked != "/.well-known/tdmrep.json" || f.URL != srv.URL+"/.well-known/tdmrep.json" || f.Status != c.status {
				t.Errorf("asked %q, URL %q status %d", asked, f.URL, f.Status)
			}
			v := aipref.Combine(f.Evidence)
			if got := v.Get(aipref.TrainAI); got != c.pref {
				t.Errorf("train-ai %v, want %v (evidence %+v)", got, c.pref, f.Evidence)
			}
			if c.entry > 0 && (len(f.Evidence) == 0 || f.Evidence[0].Line != c.entry || f.Evidence[0].Carrier != aipref.TDMRepFile) {
				t.Errorf("evidence %+v, want entry %d of tdmrep.json", f.Evidence, c.entry)
			}
			if !strings.Contains(f.Note, c.note) || (c.note == "" && f.Note != "") {
				t.Errorf("note %q, want %q", f.Note, c.note)
			}
			var pe *aipref.TDMRepError
			if errors.As(f.Err, &pe) != c.parse {
				t.Errorf("Err %v, want a TDMRepError: %v", f.Err, c.parse)
			}
		})
	}
}

// padded pads a JSON document with spaces to n bytes.
func padded(doc string, n int) string { return doc + strings.Repeat(" ", n-len(doc)) }

// countingTransport counts the requests that reach it and answers none.
type countingTransport struct{ n int }

func (c *countingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	c.n++
	return nil, errors.New("no network here")
}

func TestFetchTDMRepErrors(t *testing.T) {
	for _, u := range []string{"/a", "ftp://example.com/a", "https:///a", "://", "mailto:a@example.com"} {
		ct := &countingTransport{}
		if _, err := rep.FetchTDMRep(context.Background(), &http.Client{Transport: ct}, u); err == nil || ct.n != 0 {
			t.Errorf("%q: error %v after %d requests, want one before any", u, err, ct.n)
		}
	}
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	if f, err := rep.FetchTDMRep(context.Background(), srv.Client(), srv.URL+"/a"); err == nil || !strings.HasPrefix(f.Note, "not fetched: ") {
		t.Errorf("closed server: error %v, note %q", err, f.Note)
	}
}
