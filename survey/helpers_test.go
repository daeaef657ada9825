package survey

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/nlnwa/gowarc/v2"
)

// writeWARC writes caps as WARC 1.1 response records, each its own gzip
// member when gz is set, as Common Crawl's robots.txt WARCs are.
func writeWARC(t testing.TB, w io.Writer, caps []Capture, gz bool) {
	t.Helper()
	m := gowarc.NewMarshaler()
	for i, c := range caps {
		b := gowarc.NewRecordBuilder(gowarc.Response, gowarc.WithAddMissingDigest(true), gowarc.WithFixContentLength(true), gowarc.WithAddMissingContentLength(true))
		var h bytes.Buffer
		fmt.Fprintf(&h, "HTTP/1.1 %d %s\r\n", c.Status, "X")
		if c.Location != "" {
			fmt.Fprintf(&h, "Location: %s\r\n", c.Location)
		}
		fmt.Fprintf(&h, "Content-Type: text/plain\r\nContent-Length: %d\r\n\r\n", len(c.Body))
		h.Write(c.Body)
		if _, err := b.Write(h.Bytes()); err != nil {
			t.Fatal(err)
		}
		b.AddWarcHeader(gowarc.WarcRecordID, fmt.Sprintf("<urn:uuid:00000000-0000-4000-8000-%012d>", i))
		b.AddWarcHeader(gowarc.WarcDate, c.Time.UTC().Format(time.RFC3339))
		b.AddWarcHeader(gowarc.WarcTargetURI, c.URL)
		b.AddWarcHeader(gowarc.ContentType, "application/http;msgtype=response")
		if c.Truncated {
			b.AddWarcHeader(gowarc.WarcTruncated, "length")
		}
		rec, _, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		var dst io.Writer = w
		var zw *gzip.Writer
		if gz {
			zw = gzip.NewWriter(w)
			dst = zw
		}
		if _, _, err := m.Marshal(dst, rec, 0); err != nil {
			t.Fatal(err)
		}
		if zw != nil {
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
		}
		rec.Close()
	}
}

// writeJSONL writes caps as JSONL captures.
func writeJSONL(t testing.TB, w io.Writer, caps []Capture) {
	t.Helper()
	enc := json.NewEncoder(w)
	for _, c := range caps {
		m := map[string]any{"url": c.URL, "status": c.Status}
		if utf8.Valid(c.Body) {
			m["body"] = string(c.Body)
		} else {
			m["body_base64"] = base64.StdEncoding.EncodeToString(c.Body)
		}
		if !c.Time.IsZero() {
			m["fetch_time"] = c.Time.Format(time.RFC3339)
		}
		if c.Location != "" {
			m["location"] = c.Location
		}
		if err := enc.Encode(m); err != nil {
			t.Fatal(err)
		}
	}
}

// surveyStore loads inputs into a store and surveys every capture.
func surveyAll(t testing.TB, agents []string, load func(*Store) error) []Row {
	t.Helper()
	st, err := NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := load(st); err != nil {
		t.Fatal(err)
	}
	as, err := Agents(agents)
	if err != nil {
		t.Fatal(err)
	}
	sv := NewSurveyor(as)
	var rows []Row
	for i := 0; i < st.Len(); i++ {
		r, err := st.Record(i)
		if err != nil {
			t.Fatal(err)
		}
		rows = sv.Survey(rows, r)
	}
	return rows
}

// verdictKey is a row's verdict columns: what must not depend on how the
// capture was stored.
func verdictKey(r Row) string {
	return fmt.Sprintf("%s|%s|%s|%s|%s|%s|%d|%v|%d|%q|%g|%d|%s|%s|%s|%d|%d|%d",
		r.Host, r.Crawler, r.Purpose, r.Class, r.Restriction, r.Group, r.GroupLine, r.RootAllowed, r.Line, r.Rule,
		r.CrawlDelay, r.CrawlDelayLine, r.TrainAI, r.AIUse, r.Search, r.Bytes, r.Diagnostics, r.Errors)
}

func keys(rows []Row, f func(Row) string) []string {
	var ks []string
	seen := map[string]bool{}
	for _, r := range rows {
		k := f(r)
		if !seen[k] {
			seen[k] = true
			ks = append(ks, k)
		}
	}
	sort.Strings(ks)
	return ks
}

func itoa(n int) string { return strconv.Itoa(n) }
