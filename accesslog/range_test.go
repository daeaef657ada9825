package accesslog

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// readAll reads every record of log in format and returns the records'
// times and the stats.
func readAll(t *testing.T, format, log string) ([]time.Time, Stats) {
	t.Helper()
	f, err := ParseFormat(format)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(strings.NewReader(log), "t.log", f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var times []time.Time
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		times = append(times, rec.When())
	}
	return times, r.Stats()
}

// TestTimeOutOfRange: a timestamp Record.Time cannot hold (after
// 2262-04-11 or before 1677-09-21 in int64 nanoseconds), or one missing
// where the format requires it, makes a bad line with its line number, in
// every format; it never wraps to 1815 or falls to 1970.
func TestTimeOutOfRange(t *testing.T) {
	const w3cHead = "#Version: 1.0\n#Fields: date time c-ip cs-method cs-uri-stem sc-status sc-bytes cs(User-Agent)\n"
	const cfHead = "#Version: 1.0\n#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent)\n"
	const albRest = ` app/lb/1 66.249.66.1:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 "GET http://h:80/a HTTP/1.1" "Googlebot/2.1"` + "\n"
	tests := []struct {
		name, format, log string
		badLine           int64
	}{
		{"combined 9999", "combined", `66.249.66.1 - - [01/Mar/9999:00:00:01 +0000] "GET /a HTTP/1.1" 200 5 "-" "Googlebot/2.1"` + "\n", 1},
		{"combined 2263", "combined", `66.249.66.1 - - [01/Jan/2263:00:00:00 +0000] "GET /a HTTP/1.1" 200 5 "-" "Googlebot/2.1"` + "\n", 1},
		{"combined 1600", "combined", `66.249.66.1 - - [01/Jan/1600:00:00:00 +0000] "GET /a HTTP/1.1" 200 5 "-" "Googlebot/2.1"` + "\n", 1},
		{"common 9999", "common", `66.249.66.1 - - [01/Mar/9999:00:00:01 +0000] "GET /a HTTP/1.1" 200 5` + "\n", 1},
		{"w3c 9999", "w3c", w3cHead + "9999-03-01 00:00:01 66.249.66.1 GET /a 200 5 Googlebot/2.1\n", 3},
		{"w3c without date and time", "w3c", "#Fields: c-ip cs-method cs-uri-stem sc-status sc-bytes cs(User-Agent)\n66.249.66.1 GET /a 200 5 Googlebot/2.1\n", 2},
		{"w3c without time", "w3c", "#Fields: date c-ip cs-method cs-uri-stem sc-status\n2026-03-01 66.249.66.1 GET /a 200\n", 2},
		{"cloudfront 9999", "cloudfront", cfHead + "9999-03-01\t00:00:01\tX\t5\t66.249.66.1\tGET\th\t/a\t200\t-\tGooglebot/2.1\n", 3},
		{"alb 9999", "alb", "http 9999-03-01T00:00:01.000000Z" + albRest, 1},
		{"alb 2262-12", "alb", "http 2262-12-01T00:00:01.000000Z" + albRest, 1},
		{"caddy ts 253402300799 (seconds, 9999)", "caddy", `{"ts":253402300799,"request":{"method":"GET","uri":"/a"},"status":200}` + "\n", 1},
		{"caddy ts 253402300799.5", "caddy", `{"ts":253402300799.5,"request":{"method":"GET","uri":"/a"},"status":200}` + "\n", 1},
		{"caddy ts 1e20", "caddy", `{"ts":1e20,"request":{"method":"GET","uri":"/a"},"status":200}` + "\n", 1},
		{"caddy ts 0", "caddy", `{"ts":0,"request":{"method":"GET","uri":"/a"},"status":200}` + "\n", 1},
		{"json 9999 ISO", "json", `{"time":"9999-03-01T00:00:01Z","uri":"/a","status":200}` + "\n", 1},
		{"json 9999 CLF", "json", `{"time_local":"01/Mar/9999:00:00:01 +0000","uri":"/a","status":200}` + "\n", 1},
		{"json ts alone", "json", `{"ts":1772323201}` + "\n", 1},
		{"caddy ts and message only", "caddy", `{"level":"info","ts":1772323201.5,"logger":"tls","msg":"renewed"}` + "\n", 1},
		{"json status 1e23", "json", `{"ts":1772323201,"uri":"/a","status":1e23}` + "\n", 1},
		{"json status 99999", "json", `{"ts":1772323201,"uri":"/a","status":"99999"}` + "\n", 1},
		{"json size 1e23", "json", `{"ts":1772323201,"uri":"/a","status":200,"size":1e23}` + "\n", 1},
		{"nginx $time_local 9999", `nginx:$remote_addr [$time_local] "$request" $status`, `1.2.3.4 [01/Mar/9999:00:00:01 +0000] "GET /a HTTP/1.1" 200` + "\n", 1},
		{"nginx $time_iso8601 9999", `nginx:$remote_addr $time_iso8601 "$request" $status`, `1.2.3.4 9999-03-01T00:00:01+00:00 "GET /a HTTP/1.1" 200` + "\n", 1},
		{"nginx $msec 9999", `nginx:$remote_addr $msec "$request" $status`, `1.2.3.4 253402300799.000 "GET /a HTTP/1.1" 200` + "\n", 1},
		{"apache %t 9999", `apache:%h %t "%r" %>s`, `1.2.3.4 [01/Mar/9999:00:00:01 +0000] "GET /a HTTP/1.1" 200` + "\n", 1},
		{"apache %{msec}t 1e19", `apache:%h %{msec}t "%r" %>s`, `1.2.3.4 9999999999999999999 "GET /a HTTP/1.1" 200` + "\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			times, st := readAll(t, tt.format, tt.log)
			if len(times) != 0 {
				t.Errorf("read %d record(s) dated %v; want a bad line", len(times), times)
			}
			if st.Bad != 1 || len(st.Samples) != 1 || st.Samples[0].Line != tt.badLine {
				t.Fatalf("stats %+v; want 1 bad line, line %d", st, tt.badLine)
			}
			t.Logf("line %d: %s", st.Samples[0].Line, st.Samples[0].Error)
		})
	}
}

// TestTimeInRange: the edges of the span and the usual units still read.
func TestTimeInRange(t *testing.T) {
	tests := []struct {
		name, format, log string
		want              time.Time
	}{
		{"combined 2262-04-11", "combined", `1.2.3.4 - - [11/Apr/2262:00:00:00 +0000] "GET /a HTTP/1.1" 200 5 "-" "x"` + "\n", time.Date(2262, 4, 11, 0, 0, 0, 0, time.UTC)},
		{"combined 1969", "combined", `1.2.3.4 - - [31/Dec/1969:23:00:00 +0000] "GET /a HTTP/1.1" 200 5 "-" "x"` + "\n", time.Date(1969, 12, 31, 23, 0, 0, 0, time.UTC)},
		{"caddy seconds", "caddy", `{"ts":1772323201.5,"request":{"method":"GET","uri":"/a"},"status":200}` + "\n", time.Unix(1772323201, 5e8).UTC()},
		{"json ms", "json", `{"ts":1772323201500,"uri":"/a"}` + "\n", time.Unix(1772323201, 5e8).UTC()},
		{"json µs", "json", `{"ts":1772323201500000,"uri":"/a"}` + "\n", time.Unix(1772323201, 5e8).UTC()},
		{"json ns", "json", `{"ts":1772323201500000000,"uri":"/a"}` + "\n", time.Unix(1772323201, 5e8).UTC()},
		{"json status 0 (aborted)", "json", `{"ts":1772323201,"uri":"/a","status":0}` + "\n", time.Unix(1772323201, 0).UTC()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			times, st := readAll(t, tt.format, tt.log)
			if len(times) != 1 || !times[0].Equal(tt.want) {
				t.Fatalf("times %v, stats %+v; want %v", times, st, tt.want)
			}
		})
	}
}

// TestALBUnquoted: an ALB line whose request or User-Agent is not quoted
// is a bad line, not a request with the URL as its User-Agent.
func TestALBUnquoted(t *testing.T) {
	const head = "http 2026-03-01T00:00:01.000000Z app/lb/1 66.249.66.1:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 "
	for _, log := range []string{
		head + `GET http://h:80/a HTTP/1.1 "Googlebot/2.1"` + "\n",
		head + `"GET http://h:80/a HTTP/1.1" Googlebot/2.1` + "\n",
		"http 2026-03-01T00:00:01.000000Z app/lb/1 66.249.66.1:2817 0.000 0.001 0.000 200 200 34 366 \"GET http://h:80/a HTTP/1.1\" \"Googlebot/2.1\"\n",
	} {
		times, st := readAll(t, "alb", log)
		if len(times) != 0 || st.Bad != 1 {
			t.Errorf("%q: %d record(s), stats %+v; want 1 bad line", log, len(times), st)
		}
	}
}

// TestCorruptCompressed: gzip followed by garbage keeps the lines decoded
// before it and counts the break as a bad line saying what to do; a zstd
// stream corrupt from the start is an error that says what to do, not
// "output bigger than max block size".
func TestCorruptCompressed(t *testing.T) {
	const line = `66.249.66.1 - - [01/Mar/2026:00:00:01 +0000] "GET /a HTTP/1.1" 200 5 "-" "G"` + "\n"
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(strings.Repeat(line, 20)))
	zw.Close()
	gz.WriteString("garbage after the gzip stream\n")
	r, err := NewReader(&gz, "t.log.gz", nil, Options{})
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
			t.Fatalf("after %d records: %v", n, err)
		}
		n++
	}
	st := r.Stats()
	if n != 20 || st.Bad != 1 || st.Samples[0].Line != 21 || !strings.Contains(st.Samples[0].Error, "gzip -t") {
		t.Errorf("%d records, stats %+v; want 20 and the break as bad line 21", n, st)
	}

	var zs bytes.Buffer
	enc, _ := zstd.NewWriter(&zs)
	enc.Write([]byte(strings.Repeat(line, 20)))
	enc.Close()
	b := zs.Bytes()
	for i := 12; i < len(b)-4; i++ {
		b[i] ^= 0x5a
	}
	r, err = NewReader(bytes.NewReader(b), "t.log.zst", nil, Options{})
	if err == nil {
		_, err = r.Next()
	}
	if err == nil || !strings.Contains(err.Error(), "zstd -t") {
		t.Errorf("corrupt zstd: %v; want an error saying to check it with zstd -t", err)
	}
}
