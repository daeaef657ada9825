package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/aipref"
)

// TestPageUsage fetches a page whose carriers disagree and checks the
// usage verdict of rep page, text and -json: robots.txt's Content-Usage
// allows train-ai and search for the path, the Content-Usage header and
// tdmrep.json disallow train-ai, noai disallows ai-use.
func TestPageUsage(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /blog/ train-ai=y, search=y\nAllow: /\n")
		case "/blog/post":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Usage", "train-ai=n")
			fmt.Fprint(w, `<html><head><meta name="robots" content="noai"></head></html>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	tdm := filepath.Join(t.TempDir(), "tdmrep.json")
	if err := os.WriteFile(tdm, []byte(`[{"location": "/blog/*", "tdm-reservation": 1}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"page", "-allow-private", "-json", "-tdmrep", tdm, srv.URL + "/blog/post"}, nil, &stdout, &stderr)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, stderr.String())
	}
	var got struct {
		Usage  aipref.Usage `json:"usage"`
		Robots struct {
			Usage *aipref.Usage `json:"usage"`
		} `json:"robots"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	v := got.Usage
	if v.TrainAI != aipref.Disallowed || v.AIUse != aipref.Disallowed || v.Search != aipref.Allowed {
		t.Errorf("usage %s, want train-ai=disallowed ai-use=disallowed search=allowed", v)
	}
	var carriers []string
	for _, e := range v.Deciding(aipref.TrainAI) {
		carriers = append(carriers, string(e.Carrier))
	}
	if want := "Content-Usage header,noai,tdmrep.json"; strings.Join(carriers, ",") != want {
		t.Errorf("train-ai decided by %v, want %s", carriers, want)
	}
	if r := got.Robots.Usage; r == nil || r.TrainAI != aipref.Allowed {
		t.Errorf("robots usage %v, want train-ai allowed by line 3", r)
	}

	stdout.Reset()
	stderr.Reset()
	run(context.Background(), []string{"page", "-allow-private", "-tdmrep", tdm, srv.URL + "/blog/post"}, nil, &stdout, &stderr)
	for _, want := range []string{
		"\n  train-ai  disallowed  by Content-Usage header (line ",
		"\n  search    allowed     by robots.txt line 3: \"Content-Usage: /blog/ train-ai=y, search=y\"",
		"\n  train-ai  allowed     robots.txt line 3: \"Content-Usage: /blog/ train-ai=y, search=y\" (outweighed)",
		"/.well-known/tdmrep.json entry 1",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, stdout.String())
		}
	}

	stderr.Reset()
	if code := run(context.Background(), []string{"page", "-tdmrep", tdm, "-"}, strings.NewReader("<p>x</p>"), &stdout, &stderr); code != exitUsage {
		t.Errorf("-tdmrep with standard input: exit %d, want %d", code, exitUsage)
	}
}

// TestPageTDMRepFetched: in URL mode rep page fetches the site's
// /.well-known/tdmrep.json itself, unless -tdmrep gives it or robots.txt
// keeps the page from being fetched at all.
func TestPageTDMRepFetched(t *testing.T) {
	var asked int
	serveTDM := true
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		case "/.well-known/tdmrep.json":
			asked++
			if !serveTDM {
				http.NotFound(w, r)
				return
			}
			fmt.Fprint(w, `[{"location": "/free/*", "tdm-reservation": 0}, {"location": "/blog/*", "tdm-reservation": 1}]`)
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><head></head></html>`)
		}
	}))
	defer srv.Close()
	page := func(args ...string) (string, int) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append([]string{"page", "-allow-private"}, args...), nil, &stdout, &stderr)
		if code == exitUsage {
			t.Fatalf("%v: exit %d, stderr %s", args, code, stderr.String())
		}
		return stdout.String(), code
	}

	out, _ := page("-json", srv.URL+"/blog/post")
	var got struct {
		Usage  aipref.Usage `json:"usage"`
		TDMRep struct {
			URL      string            `json:"url"`
			Status   int               `json:"status"`
			Evidence []aipref.Evidence `json:"evidence"`
		} `json:"tdmrep"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.TDMRep.URL != srv.URL+"/.well-known/tdmrep.json" || got.TDMRep.Status != 200 || len(got.TDMRep.Evidence) == 0 || got.TDMRep.Evidence[0].Line != 2 {
		t.Errorf("tdmrep %+v, want entry 2 of the fetched file", got.TDMRep)
	}
	if got.Usage.TrainAI != aipref.Disallowed || got.Usage.AIUse != aipref.Disallowed {
		t.Errorf("usage %s, want train-ai and ai-use disallowed by tdmrep.json", got.Usage)
	}
	if asked != 1 {
		t.Errorf("tdmrep.json asked %d times, want 1", asked)
	}

	out, _ = page(srv.URL + "/blog/post")
	if want := "tdmrep.json: " + srv.URL + "/.well-known/tdmrep.json (HTTP 200): entry 2 applies\n"; !strings.Contains(out, want) {
		t.Errorf("text lacks %q:\n%s", want, out)
	}

	// A file given with -tdmrep is used instead; the site is not asked.
	asked = 0
	tdm := filepath.Join(t.TempDir(), "tdmrep.json")
	if err := os.WriteFile(tdm, []byte(`[{"location": "/", "tdm-reservation": 0}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ = page("-json", "-tdmrep", tdm, srv.URL+"/blog/post")
	if asked != 0 || strings.Contains(out, `"tdmrep"`) {
		t.Errorf("with -tdmrep: site asked %d times, output has a tdmrep fetch:\n%s", asked, out)
	}

	// A page robots.txt disallows is not fetched, nor is its tdmrep.json.
	if out, _ = page(srv.URL + "/private/a"); asked != 0 || strings.Contains(out, "tdmrep.json") {
		t.Errorf("disallowed page: tdmrep.json asked %d times:\n%s", asked, out)
	}

	// No tdmrep.json: nothing stated, and the text says so.
	serveTDM = false
	out, _ = page(srv.URL + "/blog/post")
	if want := "tdmrep.json: " + srv.URL + "/.well-known/tdmrep.json: no tdmrep.json (HTTP 404)\n"; !strings.Contains(out, want) {
		t.Errorf("text lacks %q:\n%s", want, out)
	}
	if strings.Contains(out, "train-ai  disallowed") {
		t.Errorf("no tdmrep.json, yet train-ai disallowed:\n%s", out)
	}
}
