package accesslog

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// goldenCases name a log in testdata, the -format to read it with, and the
// golden file holding the records and stats it must produce.
var goldenCases = []struct {
	log, format, clientIP, golden string
}{
	{"combined.log", "combined", "", "combined.golden"},
	{"combined.log", "combined", "X-Forwarded-For", "combined_xff.golden"},
	{"w3c.log", "w3c", "", "w3c.golden"},
	{"cloudfront.log", "cloudfront", "", "cloudfront.golden"},
	{"alb.log", "alb", "", "alb.golden"},
	{"caddy.log", "caddy", "", "caddy.golden"},
	{"caddy.log", "caddy", "X-Forwarded-For", "caddy_xff.golden"},
	{"json.log", "json", "", "json.golden"},
	{"json_sig.log", "json", "", "json_sig.golden"},
	{"nginx.log", `nginx:$host $remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" "$http_x_forwarded_for" $request_time`, "X-Forwarded-For", "nginx.golden"},
	{"nginx_concat.log", `nginx:log_format x '$time_iso8601|$host$request_uri|' '$status|$http_user_agent';`, "", "nginx_concat.golden"},
	{"apache_vhost.log", "apache:vhost_combined", "", "apache_vhost.golden"},
	{"apache_vhost.log", `apache:LogFormat "%v:%p %h %l %u %t \"%r\" %>s %O \"%{Referer}i\" \"%{User-Agent}i\"" vhost_combined`, "", "apache_vhost.golden"},
}

// dump renders records and stats as stable text for golden files.
func dump(t *testing.T, r *Reader) string {
	t.Helper()
	var b strings.Builder
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "line=%d time=%s ip=%q method=%q host=%q target=%q path=%q proto=%q status=%d bytes=%d ref=%q ua=%q hasua=%v xff=%q\n",
			rec.Line, rec.When().Format(time.RFC3339Nano), rec.IP, rec.Method, rec.Host, rec.Target, rec.Path(), rec.Proto,
			rec.Status, rec.Bytes, rec.Referer, rec.UserAgent, rec.HasUserAgent, rec.ForwardedFor)
		// Fields only JSON logs fill, shown when they are.
		for _, f := range []struct {
			name string
			v    []byte
		}{{"scheme", rec.Scheme}, {"authority", rec.Authority}, {"signature", rec.Signature},
			{"signature-input", rec.SignatureInput}, {"signature-agent", rec.SignatureAgent}} {
			if len(f.v) > 0 {
				fmt.Fprintf(&b, "  %s=%q\n", f.name, f.v)
			}
		}
	}
	st := r.Stats()
	for i := range st.Samples {
		st.Samples[i].Source = filepath.Base(st.Samples[i].Source)
	}
	js, _ := json.MarshalIndent(st, "", "  ")
	b.Write(js)
	b.WriteByte('\n')
	return b.String()
}

func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		t.Run(c.golden, func(t *testing.T) {
			f, err := ParseFormat(c.format)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Open(filepath.Join("testdata", c.log), f, Options{ClientIP: c.clientIP})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			got := dump(t, r)
			path := filepath.Join("testdata", c.golden)
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if got != string(want) {
				t.Errorf("records differ from %s (run with -update and review the diff):\n%s", path, got)
			}
		})
	}
}

func TestDetect(t *testing.T) {
	for _, c := range []struct{ log, want string }{
		{"combined.log", "combined"},
		{"w3c.log", "w3c"},
		{"cloudfront.log", "cloudfront"},
		{"alb.log", "alb"},
		{"caddy.log", "caddy"},
		{"json.log", "json"},
		{"apache_vhost.log", "apache:vhost_combined"},
	} {
		r, err := Open(filepath.Join("testdata", c.log), nil, Options{})
		if err != nil {
			t.Errorf("%s: %v", c.log, err)
			continue
		}
		if got := r.Format().String(); got != c.want {
			t.Errorf("%s: detected %q, want %q", c.log, got, c.want)
		}
		r.Close()
	}
	if _, err := Detect([]byte("what is this\nnot a log\n")); err == nil || !strings.Contains(err.Error(), "what is this") {
		t.Errorf("Detect(garbage) = %v, want an error quoting the first line", err)
	}
	if _, err := Detect(nil); err == nil {
		t.Error("Detect(empty) succeeded")
	}
}

// TestCompressed checks that gzip (two members), zstd and plain input give
// the same records.
func TestCompressed(t *testing.T) {
	plain, err := os.ReadFile("testdata/combined.log")
	if err != nil {
		t.Fatal(err)
	}
	half := bytes.IndexByte(plain[len(plain)/2:], '\n') + len(plain)/2 + 1
	var gz bytes.Buffer
	for _, part := range [][]byte{plain[:half], plain[half:]} {
		w := gzip.NewWriter(&gz)
		w.Write(part)
		w.Close()
	}
	var zs bytes.Buffer
	zw, _ := zstd.NewWriter(&zs)
	zw.Write(plain)
	zw.Close()
	read := func(b []byte) string {
		r, err := NewReader(bytes.NewReader(b), "x", nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		return dump(t, r)
	}
	want := read(plain)
	if got := read(gz.Bytes()); got != want {
		t.Errorf("multi-member gzip differs from plain:\n%s\nwant:\n%s", got, want)
	}
	if got := read(zs.Bytes()); got != want {
		t.Errorf("zstd differs from plain:\n%s", got)
	}
}

// TestLongLine checks that a line over MaxLineSize is counted bad and the
// lines around it still parse.
func TestLongLine(t *testing.T) {
	ok := `1.2.3.4 - - [01/Mar/2026:00:00:01 +0000] "GET / HTTP/1.1" 200 1 "-" "ua"` + "\n"
	var b bytes.Buffer
	b.WriteString(ok)
	b.WriteString(strings.Repeat("x", MaxLineSize+10))
	b.WriteString("\n")
	b.WriteString(ok)
	r, err := NewReader(&b, "long", MustFormat("combined"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		_, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	st := r.Stats()
	if n != 2 || st.Bad != 1 || st.Lines != 3 || len(st.Samples) != 1 || !strings.Contains(st.Samples[0].Error, "longer") {
		t.Errorf("records=%d stats=%+v", n, st)
	}
}

func TestParseFormatErrors(t *testing.T) {
	for _, spec := range []string{"bogus", "nginx:$host$remote_addr", "nginx:${host", "apache:%{Referer", "apache:%{%d}t", "nginx:", "apache:%", "nginx:$remote_addr", "nginx:$remote_addr \"$http_user_agent\"", "apache:%h \"%{User-Agent}i\""} {
		if _, err := ParseFormat(spec); err == nil {
			t.Errorf("ParseFormat(%q) succeeded", spec)
		}
	}
	if _, err := MustFormat("combined").NewParser(Options{ClientIP: "X-Real-IP"}); err == nil {
		t.Error("unsupported client IP header accepted")
	}
}

func TestTrustedHops(t *testing.T) {
	p := ipPicker{header: hdrXFF, hops: 2}
	r := Record{IP: []byte("10.0.0.1"), ForwardedFor: []byte("1.1.1.1, 2.2.2.2, 3.3.3.3")}
	p.apply(&r)
	if string(r.IP) != "2.2.2.2" {
		t.Errorf("hops=2: IP %s, want 2.2.2.2", r.IP)
	}
	p.hops = 5
	r.ForwardedFor = []byte("1.1.1.1 , 2.2.2.2")
	p.apply(&r)
	if string(r.IP) != "1.1.1.1" {
		t.Errorf("hops beyond the list: IP %s, want the leftmost", r.IP)
	}
}

func TestClock(t *testing.T) {
	var c clock
	for _, s := range []string{"01/Mar/2026:00:00:01 +0000", "29/Feb/2024:23:59:59 -0730", "[31/Dec/1999:12:00:00 +1400]"} {
		got, ok := c.clf([]byte(s))
		want, err := time.Parse("02/Jan/2006:15:04:05 -0700", strings.Trim(s, "[]"))
		if !ok || err != nil || got != want.UnixNano() {
			t.Errorf("clf(%q) = %d %v, want %d", s, got, ok, want.UnixNano())
		}
	}
	for _, s := range []string{"2026-03-01T00:00:01.186641Z", "2026-03-01T00:00:01+05:30", "2026-03-01 00:00:01", "2026-03-01T00:00:01.5-0800"} {
		got, ok := c.iso([]byte(s))
		want, err := time.Parse("2006-01-02T15:04:05.999999999Z07:00", normISO(s))
		if !ok || err != nil || got != want.UnixNano() {
			t.Errorf("iso(%q) = %d %v, want %d (%v)", s, got, ok, want.UnixNano(), err)
		}
	}
	for _, s := range []string{"29/Feb/2026:00:00:01 +0000", "01/Foo/2026:00:00:01 +0000", "01/Mar/2026:24:00:01 +0000", "2026-13-01T00:00:00Z", "2026-03-01T00:00:00+5"} {
		if _, ok := c.clf([]byte(s)); ok {
			t.Errorf("clf(%q) accepted", s)
		}
		if _, ok := c.iso([]byte(s)); ok {
			t.Errorf("iso(%q) accepted", s)
		}
	}
	for s, want := range map[string]int64{"1772323201": 1772323201e9, "1772323201.5": 1772323201500000000, "1772323201500": 1772323201500000000, "1.7723232015e9": 1772323201500000000, "1772323201000000000": 1772323201e9} {
		if got, ok := epoch([]byte(s)); !ok || got != want {
			t.Errorf("epoch(%q) = %d %v, want %d", s, got, ok, want)
		}
	}
}

func normISO(s string) string {
	s = strings.Replace(s, " ", "T", 1)
	if !strings.ContainsAny(s[19:], "Z+-") {
		s += "Z"
	}
	if n := len(s); s[n-5] == '-' || s[n-5] == '+' {
		s = s[:n-2] + ":" + s[n-2:]
	}
	return s
}

// TestEmptyInput checks that an empty log, plain or compressed, reads as no
// records when the format is to be detected: a quiet day's rotated file must
// not fail an audit of the whole directory.
func TestEmptyInput(t *testing.T) {
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Close()
	for name, in := range map[string][]byte{"empty": nil, "blank lines": []byte("\n\r\n\n"), "empty gzip": gz.Bytes()} {
		r, err := NewReader(bytes.NewReader(in), name, nil, Options{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if rec, err := r.Next(); err != io.EOF {
			t.Errorf("%s: Next() = %v, %v; want io.EOF", name, rec, err)
		}
		if st := r.Stats(); st.Records != 0 || st.Bad != 0 {
			t.Errorf("%s: stats %+v", name, st)
		}
		r.Close()
	}
}

// TestTruncatedCompressed checks that a compressed log cut short (a copy
// taken while logrotate was still writing it) is an error that says so,
// not a bare "unexpected EOF".
func TestTruncatedCompressed(t *testing.T) {
	plain, err := os.ReadFile("testdata/combined.log")
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write(plain)
	w.Close()
	var zs bytes.Buffer
	zw, _ := zstd.NewWriter(&zs)
	zw.Write(plain)
	zw.Close()
	for _, c := range []struct {
		name string
		data []byte
	}{{"gzip", gz.Bytes()}, {"zstd", zs.Bytes()}} {
		cut := c.data[:len(c.data)*2/3]
		r, err := NewReader(bytes.NewReader(cut), "cut", nil, Options{})
		for err == nil {
			_, err = r.Next()
		}
		if err == io.EOF || !strings.Contains(err.Error(), "the "+c.name+" data ends early") {
			t.Errorf("%s cut short: %v, want an error saying the data ends early", c.name, err)
		}
	}
}
