package survey

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

// fuzzRead reads data in format f and checks what every capture read
// must satisfy: a host HostOf accepts, a body within MaxBody, a status
// within 0–999.
func fuzzRead(t *testing.T, data []byte, f Format) {
	err := Read(bytes.NewReader(data), f, "fuzz", func(c Capture) error {
		if _, err := HostOf(c.Host); err != nil {
			t.Fatalf("capture with a bad host %q: %v", c.Host, err)
		}
		if len(c.Body) > MaxBody || c.Status < 0 || c.Status > 999 {
			t.Fatalf("capture out of bounds: %d bytes, status %d", len(c.Body), c.Status)
		}
		return nil
	}, func(*InputError) error { return nil })
	var ie *InputError
	if err != nil && !errors.As(err, &ie) {
		t.Fatalf("error %v is not an *InputError", err)
	}
}

func FuzzReadJSONL(f *testing.F) {
	f.Add([]byte(`{"host":"a.test","status":200,"body":"User-agent: *\nDisallow: /\n","time":"2025-01-02"}` + "\n" + `{"url":"https://b.test/robots.txt","status":301,"location":"/x"}`))
	f.Add([]byte(`{"url":"x","body_base64":"!!"}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, data, FormatJSONL) })
}

func FuzzReadTable(f *testing.F) {
	f.Add([]byte("host,status,body\na.test,200,\"User-agent: *\nDisallow: /\"\n"), true)
	f.Add([]byte("url\tstatus\tbody\nhttps://a.test/robots.txt\t404\t\\n\\t\\\\\n"), false)
	f.Fuzz(func(t *testing.T, data []byte, csv bool) {
		if csv {
			fuzzRead(t, data, FormatCSV)
		} else {
			fuzzRead(t, data, FormatTSV)
		}
	})
}

func FuzzReadWARC(f *testing.F) {
	var plain, gz bytes.Buffer
	caps := []Capture{{Host: "a.test", URL: "https://a.test/robots.txt", Time: time.Unix(1e9, 0), Status: 200, Body: []byte("User-agent: *\nDisallow: /\n")},
		{Host: "b.test", URL: "http://b.test/robots.txt", Time: time.Unix(1e9, 0), Status: 301, Location: "https://b.test/robots.txt"}}
	writeWARC(f, &plain, caps, false)
	writeWARC(f, &gz, caps, true)
	f.Add(plain.Bytes())
	f.Add(gz.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, data, FormatWARC) })
}

func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"2025-01-02", "2025-01-02T03:04:05Z", "20250102030405", "1700000000", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if tm, err := ParseTime(s); err == nil && tm.Location() != time.UTC {
			t.Fatalf("ParseTime(%q) not in UTC", s)
		}
	})
}
