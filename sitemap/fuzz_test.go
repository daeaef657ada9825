package sitemap

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse holds Parse to its contract on any input: no panic, no more
// entries than the limit, every entry an in-scope absolute URL, byte
// counts within the limit.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.*"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(`<urlset><url><loc>https://a.example/x</loc></url></urlset>`))
	zw.Close()
	f.Add(buf.Bytes())
	f.Add([]byte("https://a.example/\nhttps://a.example/b\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const max = 20
		n := 0
		res, err := Parse(bytes.NewReader(data), Options{URL: "https://www.example.com/s.xml", MaxURLs: max, MaxBytes: 4096}, func(e Entry) error {
			n++
			if !hasPrefixFold(e.Loc, "https://www.example.com/") {
				t.Errorf("out-of-scope entry passed on: %q", e.Loc)
			}
			return nil
		})
		if res == nil {
			t.Fatal("nil result")
		}
		if err != nil {
			var re *ReadError
			if !errors.As(err, &re) {
				t.Errorf("unexpected error type %T: %v", err, err)
			}
		}
		if n > max || n != res.Entries || res.Bytes > 4096 {
			t.Errorf("%d entries (res %d), %d bytes", n, res.Entries, res.Bytes)
		}
	})
}
