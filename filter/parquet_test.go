package filter

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// TestParquetReader reads the url and date columns of a Parquet file
// whose other columns it does not know.
func TestParquetReader(t *testing.T) {
	type doc struct {
		ID   int64  `parquet:"id"`
		URL  string `parquet:"url"`
		Text string `parquet:"text"`
		Date string `parquet:"date,optional"`
	}
	p := filepath.Join(t.TempDir(), "docs.parquet")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[doc](f)
	if _, err := w.Write([]doc{{1, "https://a.test/x", "t", "2024-01-01"}, {2, "https://b.test/y", "u", ""}, {3, "", "no url", ""}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	f, err = os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := NewParquetReader(f, "url", "date")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	bad := 0
	var d Doc
	for {
		err := r.Next(&d)
		if err == io.EOF {
			break
		}
		if _, ok := err.(*DocError); ok {
			bad++
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, d.URL+" "+d.Date)
	}
	if len(got) != 2 || got[0] != "https://a.test/x 2024-01-01" || got[1] != "https://b.test/y " || bad != 1 {
		t.Errorf("got %q, %d bad", got, bad)
	}
	if _, err := NewParquetReader(f, "link", ""); err == nil {
		t.Error("a file without the url column was accepted")
	}
}
