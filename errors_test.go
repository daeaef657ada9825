package rep_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/robotsfetch"
)

// TestRefusals: every refusal of the client matches rep.ErrDisallowed and
// says which kind it is.
func TestRefusals(t *testing.T) {
	rules := newSite(t, "User-agent: *\nDisallow: /private\n", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") })
	down := newSite(t, "", func(w http.ResponseWriter, r *http.Request) {})
	down.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	plain, _ := rep.New("ExampleBot/1.0", fast)
	guarded, _ := rep.New("ExampleBot/1.0", fast, rep.WithFetchOptions(robotsfetch.Options{Guard: true}))
	for _, tt := range []struct {
		name    string
		c       *rep.Crawler
		url     string
		kind    rep.Refusal
		retryAt bool
	}{
		{"rule", plain, rules.URL + "/private/x", rep.RefusedByRule, false},
		{"unreachable", plain, down.URL + "/x", rep.RefusedUnreachable, true},
		{"refused address", guarded, rules.URL + "/x", rep.RefusedAddress, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := get(context.Background(), tt.c.Client(), tt.url)
			if err == nil {
				resp.Body.Close()
				t.Fatalf("fetched %s", tt.url)
			}
			if !errors.Is(err, rep.ErrDisallowed) {
				t.Errorf("errors.Is(%v, ErrDisallowed) = false", err)
			}
			var de *rep.DisallowedError
			if !errors.As(err, &de) {
				t.Fatalf("no *DisallowedError in %v", err)
			}
			if de.Kind != tt.kind || de.URL != tt.url || de.Decision.Allowed {
				t.Errorf("refusal %v of %s, want %v", de.Kind, de.URL, tt.kind)
			}
			if !de.RetryAt.IsZero() != tt.retryAt {
				t.Errorf("RetryAt %v", de.RetryAt)
			}
			if tt.retryAt && !strings.Contains(err.Error(), "retry after") {
				t.Errorf("error %q does not say when to retry", err)
			}
			if tt.kind == rep.RefusedAddress && !errors.Is(err, robotsfetch.ErrRefused) {
				t.Errorf("refused address does not wrap robotsfetch.ErrRefused: %v", err)
			}
		})
	}
	if errors.Is(context.Canceled, rep.ErrDisallowed) {
		t.Error("a cancelled request is no refusal")
	}
}

// TestPageVerdictTruncated: a verdict built from a prefix says so.
func TestPageVerdictTruncated(t *testing.T) {
	page := "<html><head><title>x</title></head><body>" + strings.Repeat("<p>text</p>", 200) +
		`<meta name="robots" content="noindex"></body></html>`
	s := newSite(t, "", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, page)
	})
	c, _ := rep.New("ExampleBot/1.0", fast)
	for _, tt := range []struct {
		prefix         int64
		truncated, idx bool
	}{{512, true, true}, {0, false, false}} {
		client := &http.Client{Transport: &rep.Transport{Crawler: c, PagePrefix: tt.prefix}}
		resp, err := get(context.Background(), client, s.URL+"/p")
		if err != nil {
			t.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		v := rep.PageVerdictOf(resp)
		if v.Truncated != tt.truncated || v.Index != tt.idx || n != int64(len(page)) {
			t.Errorf("prefix %d: truncated %v index %v (%d bytes), want %v %v", tt.prefix, v.Truncated, v.Index, n, tt.truncated, tt.idx)
		}
	}
}

// TestGuardCoversPages: with the fetcher's guard set, the page requests
// are guarded too, not only robots.txt: a loopback page whose robots.txt
// is already known (from the store) is still refused, as a refused
// address.
func TestGuardCoversPages(t *testing.T) {
	var hits int
	s := newSite(t, "", func(w http.ResponseWriter, r *http.Request) { hits++ })
	store := &robotsfetch.MemoryStore{}
	storeRobots(store, "ExampleBot/1.0", s.URL, "User-agent: *\nAllow: /\n")
	c, err := rep.New("ExampleBot/1.0", fast, rep.WithStore(store), rep.WithFetchOptions(robotsfetch.Options{Guard: true}))
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := c.Check(context.Background(), s.URL+"/page"); !d.Allowed {
		t.Fatalf("robots.txt from the store: %v", d)
	}
	_, err = get(context.Background(), c.Client(), s.URL+"/page")
	var de *rep.DisallowedError
	if !errors.As(err, &de) || de.Kind != rep.RefusedAddress || !errors.Is(err, rep.ErrDisallowed) {
		t.Fatalf("loopback page: %v", err)
	}
	pf, err := c.FetchPage(context.Background(), s.URL+"/page", rep.PageOptions{})
	if err != nil || !pf.Verdict.Blocked || pf.Verdict.Refusal() != rep.RefusedAddress {
		t.Fatalf("FetchPage: %+v %v", pf, err)
	}
	if hits != 0 {
		t.Errorf("the loopback page was asked %d times", hits)
	}
}
