package robotsmeta_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/robotsmeta"
)

// TestMaxBytesEdge: Options.MaxBytes cuts a body longer than it, with a
// limit-bytes warning; a body of exactly MaxBytes is read whole and not
// reported as cut; a negative MaxBytes reads everything.
func TestMaxBytesEdge(t *testing.T) {
	const doc = `<meta name="robots" content="noindex">` // 38 bytes
	for _, tc := range []struct {
		max   int64
		stop  robotsmeta.Stop
		read  int64
		rules int
	}{
		{37, robotsmeta.StopMaxBytes, 37, 0},
		{38, robotsmeta.StopEOF, 38, 1},
		{39, robotsmeta.StopEOF, 38, 1},
		{1, robotsmeta.StopMaxBytes, 1, 0},
		{-1, robotsmeta.StopEOF, 38, 1},
	} {
		p, err := robotsmeta.ParseLines(nil, strings.NewReader(doc), robotsmeta.Options{MaxBytes: tc.max})
		if err != nil {
			t.Fatal(err)
		}
		warned := false
		for _, d := range p.Diagnostics {
			if d.Code == "limit-bytes" {
				warned = true
				if d.Severity != robotsmeta.Warning || d.Source != -1 {
					t.Errorf("MaxBytes %d: %+v; want a warning with source -1 (the page)", tc.max, d)
				}
			}
		}
		if p.Stop != tc.stop || p.BytesRead != tc.read || len(p.Rules) != tc.rules || warned != (tc.stop == robotsmeta.StopMaxBytes) {
			t.Errorf("MaxBytes %d: stop %s after %d bytes, %d rules, findings %v; want %s after %d, %d rules",
				tc.max, p.Stop, p.BytesRead, len(p.Rules), p.Diagnostics, tc.stop, tc.read, tc.rules)
		}
	}
}

// failAfter returns data, then err.
type failAfter struct {
	data string
	err  error
}

func (f *failAfter) Read(b []byte) (int, error) {
	if f.data == "" {
		return 0, f.err
	}
	n := copy(b, f.data)
	f.data = f.data[n:]
	return n, nil
}

var errBroken = errors.New("connection reset")

// TestBodyReadError: a failing body reader is the only error Parse
// returns; it wraps the reader's error, and the Page keeps what was read
// before it.
func TestBodyReadError(t *testing.T) {
	for _, tc := range []struct {
		name  string
		data  string
		read  int64
		rules int
	}{
		{"at once", "", 0, 0},
		{"in the preview", `<meta name="robots" content="noindex">`, 38, 0},
		{"after the preview", `<meta name="robots" content="noindex">` + strings.Repeat(" ", 2000), 2038, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := robotsmeta.ParseLines(nil, &failAfter{tc.data, errBroken}, robotsmeta.Options{})
			if !errors.Is(err, errBroken) {
				t.Fatalf("error %v, want one wrapping %v", err, errBroken)
			}
			if p == nil || p.BytesRead != tc.read || len(p.Rules) != tc.rules {
				t.Fatalf("page %+v; want %d bytes read, %d rules", p, tc.read, tc.rules)
			}
		})
	}
}

// TestBodyContentType: only an HTML (or XHTML) body is read; another type
// leaves the headers alone to speak, with a not-html finding that names no
// position; an unparseable Content-Type is read as HTML.
func TestBodyContentType(t *testing.T) {
	const body = `<meta name="robots" content="noindex">`
	for _, tc := range []struct {
		ct    string
		stop  robotsmeta.Stop
		rules int
	}{
		{"text/html; charset=utf-8", robotsmeta.StopEOF, 1},
		{"application/xhtml+xml", robotsmeta.StopEOF, 1},
		{"TEXT/HTML", robotsmeta.StopEOF, 1},
		{"", robotsmeta.StopEOF, 1},
		{"text/html; charset", robotsmeta.StopEOF, 1},
		{"text/plain", robotsmeta.StopNotHTML, 0},
		{"application/pdf", robotsmeta.StopNotHTML, 0},
	} {
		var lines []string
		if tc.ct != "" {
			lines = []string{"Content-Type: " + tc.ct}
		}
		p, err := robotsmeta.ParseLines(lines, strings.NewReader(body), robotsmeta.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if p.Stop != tc.stop || len(p.Rules) != tc.rules {
			t.Errorf("Content-Type %q: stop %s, %d rules; want %s, %d", tc.ct, p.Stop, len(p.Rules), tc.stop, tc.rules)
		}
		if tc.stop != robotsmeta.StopNotHTML {
			continue
		}
		if len(p.Diagnostics) != 1 {
			t.Fatalf("Content-Type %q: findings %v, want one not-html", tc.ct, p.Diagnostics)
		}
		if d := p.Diagnostics[0]; d.Code != "not-html" || d.Severity != robotsmeta.Info || d.Line != 0 || d.Column != 0 || d.Source != -1 || p.BytesRead != 0 {
			t.Errorf("Content-Type %q: %+v after %d bytes; want info not-html at no position, source -1, no byte read", tc.ct, d, p.BytesRead)
		}
	}
}

// TestBodyCharset: the encoding comes from a byte-order mark, the
// Content-Type or a <meta charset> in the first 1024 bytes; an undeclared
// body whose first 1024 bytes are ASCII is read as UTF-8, and one with a
// byte of 0x80 or more among them as windows-1252, as browsers do.
func TestBodyCharset(t *testing.T) {
	const meta = `<meta name="robots" content="noindex">`
	// byteAt is a comment that puts c at byte k (0-based) of the body.
	byteAt := func(k int, c string) string { return "<!--" + strings.Repeat("-", k-4) + c + "-->" }
	const cafe = `<div data-nosnippet>caf` + "\xc3\xa9" + `</div>` // "café" in UTF-8
	for _, tc := range []struct {
		name, ct, body string
		charset        string
		text           string // the nosnippet region's text
	}{
		{"ascii", "", meta + cafe, "utf-8", "café"},
		{"0x80 at byte 1024", "", byteAt(1024, "\x80") + meta + cafe, "utf-8", "café"},
		{"0x80 at byte 1023", "", byteAt(1023, "\x80") + meta + cafe, "windows-1252", "cafÃ©"},
		{"0x7f at byte 100", "", byteAt(100, "\x7f") + meta + cafe, "utf-8", "café"},
		{"0x81 at byte 100", "", byteAt(100, "\x81") + meta + cafe, "windows-1252", "cafÃ©"},
		{"declared windows-1252", "text/html; charset=windows-1252", meta + cafe, "windows-1252", "cafÃ©"},
		{"meta charset", "", `<meta charset="iso-8859-1">` + meta + cafe, "windows-1252", "cafÃ©"},
		{"utf-8 BOM", "", "\xef\xbb\xbf" + meta + cafe, "utf-8", "café"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var lines []string
			if tc.ct != "" {
				lines = []string{"Content-Type: " + tc.ct}
			}
			p, err := robotsmeta.ParseLines(lines, strings.NewReader(tc.body), robotsmeta.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if p.Charset != tc.charset {
				t.Errorf("charset %q, want %q", p.Charset, tc.charset)
			}
			if len(p.NoSnippet) != 1 || p.NoSnippet[0].Text != tc.text {
				t.Errorf("regions %+v, want one with text %q", p.NoSnippet, tc.text)
			}
			if len(p.Sources) != 1 || p.Sources[0].InBody || len(p.Rules) != 1 {
				t.Errorf("sources %+v rules %v; want the robots meta read in <head>", p.Sources, p.Rules)
			}
		})
	}
}

// TestBodyByteOrderMark: a UTF-8 byte-order mark is dropped, so it does
// not open <body> before the first meta; bodies shorter than a mark are
// read as they are.
func TestBodyByteOrderMark(t *testing.T) {
	const meta = `<meta name="robots" content="noindex">`
	for _, tc := range []struct {
		name, body string
		inBody     bool
		rules      int
	}{
		{"mark", "\xef\xbb\xbf" + meta, false, 1},
		{"no mark", meta, false, 1},
		{"text first", "x" + meta, true, 1},
		{"mark and text", "\xef\xbb\xbfx" + meta, true, 1},
		{"mark alone", "\xef\xbb\xbf", false, 0},
		{"empty", "", false, 0},
		{"two bytes", "\xef\xbb", false, 0},
	} {
		p, err := robotsmeta.ParseLines(nil, strings.NewReader(tc.body), robotsmeta.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(p.Rules) != tc.rules || p.BytesRead != int64(len(tc.body)) || p.Stop != robotsmeta.StopEOF {
			t.Errorf("%s: %d rules, %d bytes, stop %s; want %d rules, %d bytes, eof", tc.name, len(p.Rules), p.BytesRead, p.Stop, tc.rules, len(tc.body))
		}
		if tc.rules > 0 && p.Sources[0].InBody != tc.inBody {
			t.Errorf("%s: meta in body %v, want %v", tc.name, p.Sources[0].InBody, tc.inBody)
		}
	}
}

// TestBodyNeed: Options.Need says what to collect: links only for
// NeedLinks, snippet regions only for NeedNoSnippet.
func TestBodyNeed(t *testing.T) {
	const doc = `<body><a href="/a">a</a><div data-nosnippet>quiet</div><p class="robots-nocontent">q</p>`
	for _, tc := range []struct {
		need            robotsmeta.Need
		links, snippets int
	}{
		{0, 1, 1},
		{robotsmeta.NeedAll, 1, 1},
		{robotsmeta.NeedLinks, 1, 0},
		{robotsmeta.NeedNoSnippet, 0, 1},
		{robotsmeta.NeedPolicy, 0, 0},
	} {
		p, err := robotsmeta.ParseLines(nil, strings.NewReader(doc), robotsmeta.Options{Need: tc.need})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Links) != tc.links || len(p.NoSnippet) != tc.snippets || len(p.NoContent) != tc.snippets {
			t.Errorf("Need %d: %d links, %d nosnippet, %d nocontent; want %d, %d, %d", tc.need, len(p.Links), len(p.NoSnippet), len(p.NoContent), tc.links, tc.snippets, tc.snippets)
		}
	}
}

// TestLimitFindings: each limit reached is one info finding for the whole
// page (no position, no source) that counts what was dropped.
func TestLimitFindings(t *testing.T) {
	doc := `<meta name="robots" content="noindex"><meta name="robots" content="nofollow"><meta name="robots" content="noarchive">` +
		`<body><a href="/a">a</a><a href="/b">b</a><a href="/c">c</a>` +
		`<span data-nosnippet>1</span><span data-nosnippet>2</span><span data-nosnippet>3</span>`
	for _, tc := range []struct {
		max  int
		want []string
	}{
		{3, nil},
		{2, []string{"limit-links: 1 links beyond the first 2 not kept", "limit-sources: 1 meta elements beyond the first 2 not read", "limit-regions: 1 snippet regions beyond the first 2 not kept"}},
	} {
		p, err := robotsmeta.ParseLines(nil, strings.NewReader(doc), robotsmeta.Options{MaxLinks: tc.max, MaxSources: tc.max, MaxRegions: tc.max})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range p.Diagnostics {
			if d.Line != 0 || d.Column != 0 || d.Source != -1 || d.Severity != robotsmeta.Info {
				t.Errorf("max %d: %+v; want info with no position and source -1", tc.max, d)
			}
			got = append(got, d.Code+": "+d.Message)
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("max %d: findings\n%s\nwant\n%s", tc.max, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

// TestEarlyStopNeeds: reading stops early only when the caller asks for
// indexing alone and names the crawler; headers that already decide
// leave the body unread then, and only then.
func TestEarlyStopNeeds(t *testing.T) {
	header := []string{"X-Robots-Tag: noindex, nofollow"}
	const body = `<body><a href="/a">a</a><div data-nosnippet>q</div>`
	for _, tc := range []struct {
		name  string
		o     robotsmeta.Options
		stop  robotsmeta.Stop
		read  int64
		links int
	}{
		{"indexing for googlebot", robotsmeta.Options{Need: robotsmeta.NeedIndexing, Agent: "googlebot"}, robotsmeta.StopSettled, 0, 0},
		{"indexing, no agent", robotsmeta.Options{Need: robotsmeta.NeedIndexing}, robotsmeta.StopEOF, int64(len(body)), 0},
		{"everything for googlebot", robotsmeta.Options{Agent: "googlebot"}, robotsmeta.StopEOF, int64(len(body)), 1},
		{"indexing and links", robotsmeta.Options{Need: robotsmeta.NeedIndexing | robotsmeta.NeedLinks, Agent: "googlebot"}, robotsmeta.StopEOF, int64(len(body)), 1},
		{"indexing and policy", robotsmeta.Options{Need: robotsmeta.NeedIndexing | robotsmeta.NeedPolicy, Agent: "googlebot"}, robotsmeta.StopEOF, int64(len(body)), 0},
		{"indexing and snippets", robotsmeta.Options{Need: robotsmeta.NeedIndexing | robotsmeta.NeedNoSnippet, Agent: "googlebot"}, robotsmeta.StopEOF, int64(len(body)), 0},
	} {
		p, err := robotsmeta.ParseLines(header, strings.NewReader(body), tc.o)
		if err != nil {
			t.Fatal(err)
		}
		if p.Stop != tc.stop || p.BytesRead != tc.read || len(p.Links) != tc.links {
			t.Errorf("%s: stop %s after %d bytes, %d links; want %s after %d, %d", tc.name, p.Stop, p.BytesRead, len(p.Links), tc.stop, tc.read, tc.links)
		}
	}
}

// TestMaxBytesCutText: text cut by MaxBytes ends where the cap is, with
// nothing added after it.
func TestMaxBytesCutText(t *testing.T) {
	const head = `<body><div data-nosnippet>abc`
	for _, max := range []int64{int64(len(head)), int64(len(head)) + 2} {
		p, err := robotsmeta.ParseLines(nil, strings.NewReader(head+`def</div>`), robotsmeta.Options{MaxBytes: max})
		if err != nil {
			t.Fatal(err)
		}
		want := "abc" + "def"[:max-int64(len(head))]
		if len(p.NoSnippet) != 1 || p.NoSnippet[0].Text != want || p.Stop != robotsmeta.StopMaxBytes {
			t.Errorf("MaxBytes %d: regions %+v, stop %s; want text %q, max-bytes", max, p.NoSnippet, p.Stop, want)
		}
	}
}
