package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// TestBadInput runs every command on broken and hostile input: empty,
// binary, invalid UTF-8, huge lines, a directory, an unreadable file, a
// closed pipe, a full disk, corrupt gzip and zstd, absurd flag values and
// malformed logs in every format. Each must exit with the status the
// README lists, say what is wrong (a substring of stderr, or of stdout
// for a report that counts bad lines), and stay within bounded memory.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	w := func(name, content string) string { return writeFile(t, dir, name, content) }
	robots := w("ok.txt", "User-agent: *\nDisallow: /x\n")
	empty := w("empty", "")
	binary := w("binary", "\x00\x01\x02\xff\xfe\x00PK\x03\x04"+strings.Repeat("\x00", 4096))
	invalid := w("invalid.txt", "User-agent: *\nDisallow: /\xff\xfe\xc0\xae\n")
	huge := w("huge.txt", "User-agent: *\nDisallow: /"+strings.Repeat("a", 8<<20)+"\n")
	// An unreadable file: mode 0, or, for root, who reads every file,
	// /proc/self/mem, whose first page is unmapped (read fails with EIO).
	unreadable, unreadableMsg := w("unreadable.txt", "User-agent: *\n"), "permission denied"
	os.Chmod(unreadable, 0)
	if f, err := os.Open(unreadable); err == nil {
		f.Close()
		unreadable, unreadableMsg = "/proc/self/mem", "input/output error"
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(`66.249.66.1 - - [01/Mar/2026:00:00:01 +0000] "GET /a HTTP/1.1" 200 5 "-" "Googlebot/2.1"` + "\n"))
	zw.Close()
	gzTrunc := w("trunc.log.gz", gz.String()[:gz.Len()-10])
	gzTrail := w("trail.log.gz", gz.String()+"trailing garbage")
	zstCorrupt := w("corrupt.log.zst", "\x28\xb5\x2f\xfd"+strings.Repeat("\x5a", 64))
	comb := `66.249.66.1 - - [01/Mar/2026:00:00:01 +0000] "GET /a HTTP/1.1" 200 5 "-" "Googlebot/2.1"` + "\n"
	combLog := w("combined.log", strings.Repeat(comb, 15))
	y9999 := w("y9999.log", strings.Replace(comb, "2026", "9999", 1))
	w3cNoDate := w("w3c.log", "#Fields: c-ip cs-method cs-uri-stem sc-status\n1.2.3.4 GET /a 200\n")
	caddy9999 := w("caddy.log", `{"ts":253402300799,"request":{"method":"GET","uri":"/a"},"status":200}`+"\n")
	tsOnly := w("ts.log", `{"ts":1772323201}`+"\n")
	status1e23 := w("status.log", `{"ts":1772323201,"uri":"/a","status":1e23}`+"\n")
	albShift := w("alb.log", `http 2026-03-01T00:00:01.000000Z app/lb/1 66.249.66.1:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 GET http://h:80/a HTTP/1.1 "Googlebot/2.1"`+"\n")
	cloudfront9999 := w("cf.log", "#Version: 1.0\n#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent)\n9999-03-01\t00:00:01\tX\t5\t66.249.66.1\tGET\th\t/a\t200\t-\tGooglebot/2.1\n")
	report := w("p.json", "")
	if code, out, errOut := runRep(t, "", "audit", "-json", combLog); code != exitOK {
		t.Fatalf("audit -json: %d %s", code, errOut)
	} else {
		os.WriteFile(report, []byte(out), 0o644)
	}
	twoReports := w("two.json", "")
	b, _ := os.ReadFile(report)
	os.WriteFile(twoReports, append(append([]byte{}, b...), b...), 0o644)
	longLine := strings.Repeat("a", 2<<20) + "\n"

	type badCase struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string // in stderr, or in stdout when it starts with "stdout:"
	}
	tests := []badCase{
		// empty
		{"check empty robots", "", []string{"check", "-robots", empty, "-agent", "G", "/x"}, exitOK, "stdout:allowed"},
		{"lint empty", "", []string{"lint", empty}, exitFinding, "stdout:"},
		{"page empty", "", []string{"page", empty}, exitOK, "stdout:indexable"},
		{"audit empty", "", []string{"audit", empty}, exitOK, "stdout:0 lines"},
		{"verify empty stdin", "", []string{"verify", "-offline"}, exitUsage, "no IP addresses"},
		{"fetch empty stdin", "", []string{"fetch", "-"}, exitUsage, "give at least one URL"},
		{"audit merge empty", "", []string{"audit", "merge", empty}, exitUsage, "not a rep audit -json report"},
		// binary, invalid UTF-8, huge lines
		{"check binary robots", "", []string{"check", "-robots", binary, "-agent", "G", "/x"}, exitOK, "is not text"},
		{"lint binary", "", []string{"lint", binary}, exitFinding, "stdout:"},
		{"lint invalid UTF-8", "", []string{"lint", invalid}, exitFinding, "stdout:"},
		{"page binary", "", []string{"page", binary}, exitOK, "is not HTML"},
		{"audit binary", "", []string{"audit", binary}, exitUsage, "cannot detect the log format"},
		{"audit merge binary", "", []string{"audit", "merge", binary}, exitUsage, "not a rep audit -json report"},
		{"lint huge line", "", []string{"lint", huge}, exitFinding, "stdout:"},
		{"check stdin line over 1 MiB", longLine, []string{"check", "-robots", robots, "-agent", "G"}, exitUsage, "standard input line 1 is longer than 1 MiB"},
		{"verify stdin line over 1 MiB", longLine, []string{"verify", "-offline", "-cache", dir}, exitUsage, "standard input line 1 is longer than 1 MiB"},
		{"fetch stdin line over 1 MiB", longLine, []string{"fetch", "-"}, exitUsage, "standard input line 1 is longer than 1 MiB"},
		// a directory, a missing file
		{"check directory", "", []string{"check", "-robots", dir, "-agent", "G", "/x"}, exitUsage, "is a directory"},
		{"lint directory", "", []string{"lint", dir}, exitUsage, "is a directory"},
		{"page directory", "", []string{"page", dir}, exitUsage, "is a directory"},
		{"audit directory", "", []string{"audit", dir}, exitUsage, "is a directory"},
		{"audit merge directory", "", []string{"audit", "merge", dir}, exitUsage, "is a directory"},
		{"lint missing", "", []string{"lint", filepath.Join(dir, "nope")}, exitUsage, "no such file"},
		// corrupt compressed logs
		{"audit truncated gzip", "", []string{"audit", gzTrunc}, exitUsage, "ends early"},
		{"audit gzip with trailing garbage", "", []string{"audit", gzTrail}, exitOK, "stdout:gzip -t"},
		{"audit corrupt zstd", "", []string{"audit", zstCorrupt}, exitUsage, "zstd -t"},
		// malformed logs, every format
		{"audit year 9999", "", []string{"audit", "-format", "combined", y9999}, exitUsage, "years 1678 to 2262"},
		{"audit wrong format", "", []string{"audit", "-format", "w3c", combLog}, exitUsage, "give -format combined"},
		{"audit w3c without date", "", []string{"audit", "-format", "w3c", w3cNoDate}, exitUsage, "date and time fields"},
		{"audit cloudfront 9999", "", []string{"audit", "-format", "cloudfront", cloudfront9999}, exitUsage, "years 1678 to 2262"},
		{"audit caddy ts 9999", "", []string{"audit", "-format", "caddy", caddy9999}, exitUsage, "years 1678 to 2262"},
		{"audit json ts only", "", []string{"audit", "-format", "json", tsOnly}, exitUsage, "a request field"},
		{"audit json status 1e23", "", []string{"audit", "-format", "json", status1e23}, exitUsage, "3-digit status"},
		{"audit alb unquoted", "", []string{"audit", "-format", "alb", albShift}, exitUsage, `"request" (quoted)`},
		{"audit merge two reports", "", []string{"audit", "merge", twoReports}, exitUsage, "two.json (report 2) are the same part"},
		// absurd flag values
		{"lint negative timeout", "", []string{"lint", "-timeout", "-5s", "https://example.com/"}, exitUsage, "-timeout -5s: want a positive duration"},
		{"lint CRLF user-agent", "", []string{"lint", "-user-agent", "a\r\nb", "https://example.com/"}, exitUsage, "-user-agent"},
		{"fetch CRLF user-agent", "", []string{"fetch", "-user-agent", "a\r\nb", "https://example.com/"}, exitUsage, "-user-agent"},
		{"fetch zero timeout", "", []string{"fetch", "-timeout", "0s", "https://example.com/"}, exitUsage, "want a positive duration"},
		{"fetch port 99999", "", []string{"fetch", "http://127.0.0.1:99999/"}, exitUsage, "from 1 to 65535"},
		{"lint port 99999", "", []string{"lint", "http://127.0.0.1:99999/"}, exitUsage, "from 1 to 65535"},
		{"page port 99999", "", []string{"page", "http://127.0.0.1:99999/"}, exitUsage, "from 1 to 65535"},
		{"page CRLF header", "", []string{"page", "-H", "X-Robots-Tag: noindex\r\nX: y", robots}, exitUsage, "control characters"},
		{"verify resolver port", "", []string{"verify", "-resolver", "127.0.0.1:99999", "66.249.66.1"}, exitUsage, "from 1 to 65535"},
		{"verify zero timeout", "", []string{"verify", "-timeout", "0s", "66.249.66.1"}, exitUsage, "want a positive duration"},
		{"audit zero jobs", "", []string{"audit", "-jobs", "0", combLog}, exitUsage, "-jobs 0"},
		{"audit negative grace", "", []string{"audit", "-grace", "-1h", combLog}, exitUsage, "-grace"},
		{"audit resolver port", "", []string{"audit", "-verify", "-resolver", "h:0", combLog}, exitUsage, "from 1 to 65535"},
		// URL arguments
		{"check javascript: and a robots line", "", []string{"check", "-robots", robots, "-agent", "G", "javascript:alert(1)", "User-agent: *"}, exitUsage, "2 URL(s) not checked"},
		{"fetch non-http", "", []string{"fetch", "javascript:alert(1)", "/x"}, exitUsage, "argument 2: "},
		{"fetch stdin non-http", "\n# c\nftp://h/\n", []string{"fetch", "-"}, exitUsage, "standard input line 3: "},
		{"lint non-http", "", []string{"lint", "javascript:alert(1)"}, exitUsage, "no such file"},
	}
	tests = append(tests,
		badCase{"lint unreadable", "", []string{"lint", unreadable}, exitUsage, unreadableMsg},
		badCase{"audit unreadable", "", []string{"audit", unreadable}, exitUsage, unreadableMsg})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			code, out, errOut := runRep(t, tt.stdin, tt.args...)
			runtime.ReadMemStats(&after)
			where, text := errOut, tt.want
			if s, ok := strings.CutPrefix(tt.want, "stdout:"); ok {
				where, text = out, s
			}
			if code != tt.code || !strings.Contains(where, text) {
				t.Errorf("exit %d, want %d; %q not found\nstdout: %.500s\nstderr: %.500s", code, tt.code, text, out, errOut)
			}
			if code == exitUsage && errOut == "" {
				t.Error("exit 2 with nothing on stderr")
			}
			// Bounded: no input here is over 9 MiB, and none may cost
			// more than a small multiple of its size.
			if got := after.TotalAlloc - before.TotalAlloc; got > 256<<20 {
				t.Errorf("allocated %d MiB", got>>20)
			}
		})
	}
}

// TestBadInputPipes: a closed standard output ends a command quietly (the
// reader went away), a full one is exit 2 with the error, for every
// command writing a report; see also TestWritesChecked.
func TestBadInputPipes(t *testing.T) {
	robots := writeFile(t, t.TempDir(), "ok.txt", "User-agent: *\nDisallow: /x\n")
	r, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	defer pw.Close()
	var stderr bytes.Buffer
	code := run(context.Background(), []string{"check", "-robots", robots, "-agent", "G"}, strings.NewReader(strings.Repeat("/x\n", 100000)), pw, &stderr)
	if code != exitOK || stderr.Len() > 0 {
		t.Errorf("closed pipe: exit %d, stderr %q; want 0 and nothing", code, stderr.String())
	}
	if f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0); err == nil {
		defer f.Close()
		stderr.Reset()
		code := run(context.Background(), []string{"check", "-robots", robots, "-agent", "G", "/x"}, strings.NewReader(""), f, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), "no space left on device") {
			t.Errorf("/dev/full: exit %d, stderr %q", code, stderr.String())
		}
	}
}
