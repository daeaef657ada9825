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

	use "github.com/rep-toolkit/rep/usage"
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
		Usage  use.Verdict `json:"usage"`
		Robots struct {
			Usage *use.Verdict `json:"usage"`
		} `json:"robots"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	v := got.Usage
	if v.TrainAI != use.Disallowed || v.AIUse != use.Disallowed || v.Search != use.Allowed {
		t.Errorf("usage %s, want train-ai=disallowed ai-use=disallowed search=allowed", v)
	}
	var carriers []string
	for _, e := range v.Deciding(use.TrainAI) {
		carriers = append(carriers, string(e.Carrier))
	}
	if want := "Content-Usage header,noai,tdmrep.json"; strings.Join(carriers, ",") != want {
		t.Errorf("train-ai decided by %v, want %s", carriers, want)
	}
	if r := got.Robots.Usage; r == nil || r.TrainAI != use.Allowed {
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
