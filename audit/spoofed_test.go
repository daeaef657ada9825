package audit

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/internal/testkit/dnstest"
)

// TestSpoofedDisallowed: spoofed requests to allowed and to disallowed URLs
// mixed with genuine ones to both. The "disallowed, spoofed" count is the
// spoofed requests to disallowed URLs only, whether verification is deferred
// to Finish, done inline (rep audit enrich), or the log is audited in two
// parts that are merged; the text report says it.
func TestSpoofedDisallowed(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "spoofed_mix.log"))
	if err != nil {
		t.Fatal(err)
	}
	want := readWant(t, filepath.Join("testdata", "spoofed_mix.tsv"))
	good := netip.MustParseAddr("5.255.253.10")
	srv, err := dnstest.Start(dnstest.Zone{
		PTR: map[netip.Addr][]string{
			good:                                {"5-255-253-10.spider.yandex.com."},
			netip.MustParseAddr("198.51.100.7"): {"spider.yandex.com.evil.example."},
			netip.MustParseAddr("203.0.113.9"):  {"203-0-113-9.example.net."},
		},
		Addrs: map[string][]netip.Addr{"5-255-253-10.spider.yandex.com": {good}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	h, err := NewHistory(Version{Source: "r", File: parseRobots("User-agent: *\nDisallow: /private/\n")})
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Robots: h, Verifier: &identity.Verifier{Resolver: dnstest.Resolver(srv)}, VerifyMode: "dns+lists"}

	lines := bytes.SplitAfter(data, []byte("\n"))
	half := len(lines) / 2
	first, second := bytes.Join(lines[:half], nil), bytes.Join(lines[half:], nil)
	merged, err := Merge(10, auditBytes(t, first, nil, opt), auditBytes(t, second, nil, opt))
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []struct {
		name string
		rep  *Report
	}{
		{"deferred", auditBytes(t, data, nil, opt)},
		{"inline", auditInline(t, data, opt)},
		{"merged", merged},
	} {
		c := mode.rep.Crawler("YandexBot")
		if c == nil {
			t.Fatalf("%s: no YandexBot in the report", mode.name)
		}
		for _, f := range []struct {
			name string
			got  int64
		}{
			{"requests", c.Requests},
			{"verified", c.Verified},
			{"spoofed", c.Spoofed},
			{"disallowed", c.DisallowedRequests},
			{"disallowed_spoofed", c.SpoofedDisallowed},
		} {
			w, ok := want[f.name]
			if !ok {
				t.Fatalf("spoofed_mix.tsv has no %s", f.name)
			}
			if strconv.FormatInt(f.got, 10) != w {
				t.Errorf("%s: %s = %d, want %s", mode.name, f.name, f.got, w)
			}
		}
		var text bytes.Buffer
		if err := WriteText(&text, mode.rep); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text.String(), want["text"]) {
			t.Errorf("%s: the text report does not say %q:\n%s", mode.name, want["text"], text.String())
		}
	}
}

// auditInline audits data with every request verified as it is added.
func auditInline(t *testing.T, data []byte, opt Options) *Report {
	t.Helper()
	r := reader(t, data)
	a := New(opt, true)
	ctx := context.Background()
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		a.Add(ctx, rec)
	}
	a.Finish(ctx, r.Stats(), "log")
	return a.Report()
}

// readWant reads "field<TAB>value" lines, skipping blank and '#' lines.
func readWant(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		k, v, ok := strings.Cut(l, "\t")
		if !ok {
			t.Fatalf("%s: %q has no tab", path, l)
		}
		want[k] = v
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return want
}
