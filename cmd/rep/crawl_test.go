package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/internal/testkit/sitegen"
)

// TestCrawlPlanted runs rep crawl -json on the planted site: exactly the
// planted findings, exit 1, and the CSV and HTML reports written.
func TestCrawlPlanted(t *testing.T) {
	srv := httptest.NewServer(sitegen.Planted())
	defer srv.Close()
	dir := t.TempDir()
	var out, errb bytes.Buffer
	// -timeout 5m: the 50 MB sitemap must be read to its end to be found
	// too large, which can take a loaded machine over the default 30 s.
	code := run(context.Background(), []string{"crawl", "-json", "-allow-private", "-delay", "0", "-timeout", "5m",
		"-csv", filepath.Join(dir, "c.csv"), "-html", filepath.Join(dir, "r.html"), srv.URL + "/"}, nil, &out, &errb)
	if code != exitFinding {
		t.Fatalf("exit %d, stderr %s", code, errb.String())
	}
	var got struct {
		Pages []struct {
			URL      string `json:"url"`
			Status   int    `json:"status"`
			Verdicts []struct {
				Agent  string `json:"agent"`
				State  string `json:"state"`
				Robots struct {
					Allowed bool `json:"allowed"`
					Line    int  `json:"line"`
				} `json:"robots"`
			} `json:"verdicts"`
		} `json:"pages"`
		Findings []struct {
			Code, Severity, Agent, URL, Message, Evidence string
		} `json:"findings"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v in %s", err, out.String())
	}
	var have, want []string
	for _, f := range got.Findings {
		have = append(have, f.Code+" "+f.Agent+" "+f.URL)
	}
	for _, w := range sitegen.PlantedWant(srv.URL) {
		want = append(want, w.String())
	}
	sort.Strings(have)
	sort.Strings(want)
	if strings.Join(have, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(have, "\n"), strings.Join(want, "\n"))
	}
	if len(got.Pages) != 17 {
		t.Errorf("%d pages", len(got.Pages))
	}
	for _, p := range got.Pages {
		if p.URL == srv.URL+"/private/secret" && (p.Status != 200 || p.Verdicts[0].Robots.Allowed || p.Verdicts[0].Robots.Line != 2 || p.Verdicts[1].State != "blocked") {
			t.Errorf("/private/secret: %+v", p)
		}
	}
	f, err := os.Open(filepath.Join(dir, "c.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) != 1+2*17 {
		t.Errorf("csv: %d rows, %v", len(rows), err)
	}
	h, _ := os.ReadFile(filepath.Join(dir, "r.html"))
	if !bytes.Contains(h, []byte("noindex-unseen")) || bytes.Contains(h, []byte("<script")) {
		t.Errorf("html report: %d bytes", len(h))
	}
}

func TestCrawlUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"crawl", "-explain", "noindex-unseen"}, exitOK, "noindex-unseen (error, reported once per crawler)"},
		{[]string{"crawl", "-explain", "nope"}, exitUsage, "unknown code"},
		{[]string{"crawl"}, exitUsage, "give one site URL"},
		{[]string{"crawl", "ftp://x/"}, exitUsage, "start URL"},
		{[]string{"crawl", "-agent", "", "https://x/"}, exitUsage, "empty crawler name"},
		{[]string{"crawl", "-include", "(", "https://x/"}, exitUsage, "-include"},
		{[]string{"crawl", "-h"}, exitOK, "usage: rep crawl"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), tc.args, nil, &out, &errb)
		if code != tc.code || !strings.Contains(out.String()+errb.String(), tc.out) {
			t.Errorf("%v: exit %d, %q; want %d, %q", tc.args, code, out.String()+errb.String(), tc.code, tc.out)
		}
	}
}

func TestCrawlAgents(t *testing.T) {
	as, err := rep.AgentsFor([]string{"ai-training", "Googlebot"}, rep.AgentOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range as {
		names = append(names, a.Token())
	}
	s := strings.Join(names, ",")
	if !strings.Contains(s, "GPTBot") || !strings.Contains(s, "CCBot") || !strings.HasSuffix(s, "Googlebot") {
		t.Errorf("ai-training: %s", s)
	}
}
