package survey

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nlnwa/gowarc/v2"
)

// Format is an input format of captures.
type Format string

// Formats.
const (
	FormatDir   Format = "dir"   // a directory, one file per host, named by the host
	FormatJSONL Format = "jsonl" // one JSON object per line
	FormatCSV   Format = "csv"   // RFC 4180, a header row
	FormatTSV   Format = "tsv"   // tab-separated, a header row, \n \t \r \\ escaped
	FormatWARC  Format = "warc"  // WARC 1.0/1.1 response records, plain or gzip per record
)

// MaxLine bounds a JSONL, CSV or TSV row: a 500 KiB body escaped.
const MaxLine = 8 << 20

// InputError is input that cannot be read as captures: where it is (file
// and line, or WARC offset) and what is wrong.
type InputError struct {
	Where string
	Err   error
}

func (e *InputError) Error() string { return e.Where + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *InputError) Unwrap() error { return e.Err }

// Sniff guesses the format of a file from its name, else from its first
// bytes: a directory is FormatDir, ".warc"/".warc.gz" or a "WARC/" or gzip
// start FormatWARC, ".jsonl"/".json"/".ndjson" or '{' FormatJSONL, ".tsv"
// or a tab in the first line FormatTSV, else FormatCSV.
func Sniff(name string, head []byte) Format {
	l := strings.ToLower(name)
	switch {
	case strings.HasSuffix(l, ".warc"), strings.HasSuffix(l, ".warc.gz"):
		return FormatWARC
	case strings.HasSuffix(l, ".jsonl"), strings.HasSuffix(l, ".json"), strings.HasSuffix(l, ".ndjson"):
		return FormatJSONL
	case strings.HasSuffix(l, ".tsv"):
		return FormatTSV
	case strings.HasSuffix(l, ".csv"):
		return FormatCSV
	}
	h := bytes.TrimLeft(head, " \t\r\n")
	switch {
	case bytes.HasPrefix(h, []byte("WARC/")), bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return FormatWARC
	case bytes.HasPrefix(h, []byte("{")):
		return FormatJSONL
	}
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	if bytes.IndexByte(head, '\t') >= 0 {
		return FormatTSV
	}
	return FormatCSV
}

// ReadDir reads a directory of robots.txt files, one per host, each named
// by its host (a ".txt" suffix is dropped), in name order; subdirectories
// and hidden files are skipped. The captures have status 200 and no time.
func ReadDir(dir string, add func(Capture) error) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	for _, e := range ents {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") || strings.EqualFold(e.Name(), "README.md") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		body, err := io.ReadAll(io.LimitReader(f, MaxBody))
		f.Close()
		if err != nil {
			return &InputError{Where: p, Err: err}
		}
		host := strings.TrimSuffix(e.Name(), ".txt")
		if err := add(Capture{Host: host, URL: "http://" + host + "/robots.txt", Status: 200, Body: body}); err != nil {
			return &InputError{Where: p, Err: err}
		}
	}
	return nil
}

// Read reads captures in format f (not FormatDir) from r; name says where
// they come from in errors.
//
// A row that cannot be read (bad JSON, no host, a bad status or time) is
// passed to bad as an *InputError: reading goes on when bad returns nil
// and stops with its error otherwise; a nil bad stops at the first. An
// error from add, or a WARC that cannot be read on, stops the reading.
func Read(r io.Reader, f Format, name string, add func(Capture) error, bad func(*InputError) error) error {
	if bad == nil {
		bad = func(e *InputError) error { return e }
	}
	switch f {
	case FormatJSONL:
		return readJSONL(r, name, add, bad)
	case FormatCSV:
		return readTable(r, name, ',', add, bad)
	case FormatTSV:
		return readTable(r, name, '\t', add, bad)
	case FormatWARC:
		return readWARC(r, name, add)
	}
	return fmt.Errorf("survey: no reader for format %q", f)
}

// jsonCapture is a JSONL capture row. Host or URL names the site; the
// time may be called time, fetch_time, fetched_at, timestamp or date.
type jsonCapture struct {
	Host       string          `json:"host"`
	URL        string          `json:"url"`
	Time       json.RawMessage `json:"time"`
	FetchTime  json.RawMessage `json:"fetch_time"`
	FetchedAt  json.RawMessage `json:"fetched_at"`
	Timestamp  json.RawMessage `json:"timestamp"`
	Date       json.RawMessage `json:"date"`
	Status     *int            `json:"status"`
	Body       *string         `json:"body"`
	BodyBase64 *string         `json:"body_base64"`
	Location   string          `json:"location"`
	Truncated  bool            `json:"truncated"`
}

func readJSONL(r io.Reader, name string, add func(Capture) error, bad func(*InputError) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLine)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		where := fmt.Sprintf("%s line %d", name, line)
		var j jsonCapture
		if err := json.Unmarshal(b, &j); err != nil {
			if err := bad(&InputError{Where: where, Err: err}); err != nil {
				return err
			}
			continue
		}
		raw := firstRaw(j.Time, j.FetchTime, j.FetchedAt, j.Timestamp, j.Date)
		var ts string
		if len(raw) > 0 && raw[0] == '"' {
			_ = json.Unmarshal(raw, &ts) // a valid line holds a valid string
		} else {
			ts = string(raw)
		}
		c, err := capture(j.Host, j.URL, ts, j.Status, j.Body, j.BodyBase64, j.Location, j.Truncated)
		if err != nil {
			if err := bad(&InputError{Where: where, Err: err}); err != nil {
				return err
			}
			continue
		}
		if err := add(c); err != nil {
			return &InputError{Where: where, Err: err}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("a line is over %d bytes", MaxLine)
		}
		return &InputError{Where: fmt.Sprintf("%s line %d", name, line+1), Err: err}
	}
	return nil
}

func firstRaw(rs ...json.RawMessage) json.RawMessage {
	for _, r := range rs {
		if len(r) > 0 && string(r) != "null" {
			return r
		}
	}
	return nil
}

// capture builds a Capture from the fields of a row.
func capture(host, rawurl, ts string, status *int, body, b64 *string, loc string, truncated bool) (Capture, error) {
	c := Capture{URL: rawurl, Location: loc, Truncated: truncated}
	c.Host = host
	if c.Host == "" {
		if rawurl == "" {
			return c, errors.New("no host and no url")
		}
		h, err := HostOf(rawurl)
		if err != nil {
			return c, err
		}
		c.Host = h
	}
	if _, err := HostOf(c.Host); err != nil {
		return c, err
	}
	if c.URL != "" && !strings.Contains(c.URL, "://") {
		return c, fmt.Errorf("url %q is not absolute", c.URL)
	}
	switch {
	case body != nil:
		c.Body = []byte(*body)
	case b64 != nil:
		b, err := base64.StdEncoding.DecodeString(*b64)
		if err != nil {
			return c, fmt.Errorf("body_base64: %w", err)
		}
		c.Body = b
	}
	if len(c.Body) > MaxBody {
		c.Body = c.Body[:MaxBody]
	}
	switch {
	case status != nil:
		c.Status = *status
	case body != nil || b64 != nil:
		c.Status = 200
	default:
		return c, errors.New("no status and no body")
	}
	if c.Status < 0 || c.Status > 999 {
		return c, fmt.Errorf("status %d is not an HTTP status", c.Status)
	}
	if ts != "" {
		t, err := ParseTime(ts)
		if err != nil {
			return c, err
		}
		c.Time = t
	}
	return c, nil
}

// ParseTime reads a fetch time: RFC 3339, a date (2006-01-02), Common
// Crawl's and WARC's 14-digit timestamp (20060102150405), or Unix seconds.
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, l := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), nil
		}
	}
	if len(s) == 14 {
		if t, err := time.Parse("20060102150405", s); err == nil {
			return t.UTC(), nil
		}
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n >= 0 && n < 1<<40 {
		return time.Unix(n, 0).UTC(), nil
	}
	return time.Time{}, fmt.Errorf("time %q: neither RFC 3339, a date, a 14-digit timestamp nor Unix seconds", s)
}

// readTable reads CSV or TSV with a header row naming the columns host or
// url, time (or fetch_time, fetched_at, timestamp, date), status, body (or
// body_base64), location, truncated.
func readTable(r io.Reader, name string, sep rune, add func(Capture) error, bad func(*InputError) error) error {
	next, err := tableRows(r, sep)
	if err != nil {
		return &InputError{Where: name + " line 1", Err: err}
	}
	header, line, err := next()
	if err != nil {
		if err == io.EOF {
			return nil
		}
		return &InputError{Where: fmt.Sprintf("%s line %d", name, line), Err: err}
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))] = i
	}
	get := func(rec []string, names ...string) (string, bool) {
		for _, n := range names {
			if i, ok := col[n]; ok && i < len(rec) {
				return rec[i], true
			}
		}
		return "", false
	}
	if _, ok := col["host"]; !ok {
		if _, ok := col["url"]; !ok {
			return &InputError{Where: name + " line 1", Err: errors.New("the header names neither a host nor a url column")}
		}
	}
	for {
		rec, line, err := next()
		if err == io.EOF {
			return nil
		}
		where := fmt.Sprintf("%s line %d", name, line)
		if err != nil {
			return &InputError{Where: where, Err: err}
		}
		host, _ := get(rec, "host")
		u, _ := get(rec, "url")
		ts, _ := get(rec, "time", "fetch_time", "fetched_at", "timestamp", "date")
		var status *int
		if s, ok := get(rec, "status"); ok && strings.TrimSpace(s) != "" {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil {
				if err := bad(&InputError{Where: where, Err: fmt.Errorf("status %q: %w", s, err)}); err != nil {
					return err
				}
				continue
			}
			status = &n
		}
		var body, b64 *string
		if s, ok := get(rec, "body"); ok {
			if sep == '\t' {
				s = unescapeTSV(s)
			}
			body = &s
		} else if s, ok := get(rec, "body_base64"); ok {
			b64 = &s
		}
		loc, _ := get(rec, "location")
		tr, _ := get(rec, "truncated")
		c, err := capture(host, u, ts, status, body, b64, loc, tr == "true" || tr == "1")
		if err != nil {
			if err := bad(&InputError{Where: where, Err: err}); err != nil {
				return err
			}
			continue
		}
		if err := add(c); err != nil {
			return &InputError{Where: where, Err: err}
		}
	}
}

// tableRows returns a reader of CSV records, or of TSV lines split at
// tabs; each comes with its line number.
func tableRows(r io.Reader, sep rune) (func() ([]string, int, error), error) {
	if sep == ',' {
		cr := csv.NewReader(r)
		cr.FieldsPerRecord = -1
		cr.ReuseRecord = false
		return func() ([]string, int, error) {
			rec, err := cr.Read()
			line := 0
			if err == nil {
				line, _ = cr.FieldPos(0)
			}
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.Line
			}
			return rec, line, err
		}, nil
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLine)
	line := 0
	return func() ([]string, int, error) {
		for sc.Scan() {
			line++
			s := strings.TrimSuffix(sc.Text(), "\r")
			if s == "" {
				continue
			}
			return strings.Split(s, "\t"), line, nil
		}
		if err := sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				err = fmt.Errorf("a line is over %d bytes", MaxLine)
			}
			return nil, line + 1, err
		}
		return nil, line, io.EOF
	}, nil
}

// unescapeTSV undoes the escapes of a TSV field: \n, \t, \r, \\ (as
// PostgreSQL's and ClickHouse's TSV write them); any other backslash stays.
func unescapeTSV(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case 'n':
				b.WriteByte('\n')
				i++
				continue
			case 't':
				b.WriteByte('\t')
				i++
				continue
			case 'r':
				b.WriteByte('\r')
				i++
				continue
			case '\\':
				b.WriteByte('\\')
				i++
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// EscapeTSV escapes a field for TSV (the inverse of the reader's
// unescaping).
func EscapeTSV(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\t", `\t`, "\r", `\r`).Replace(s)
}

// ErrWARCReader is the error a malformed record gets when the WARC reader
// itself fails on it (gowarc v2.2.4 panics on a version line with no
// digits, "WARC/\n"): the input is refused, rep does not crash.
var ErrWARCReader = errors.New("the WARC reader failed on this record")

// nextWARC is wf.Next with the reader's panics turned into an error.
func nextWARC(wf *gowarc.WarcFileReader) (rec gowarc.WarcRecord, off int64, err error) {
	defer func() {
		if p := recover(); p != nil {
			rec, err = nil, fmt.Errorf("%w: %v", ErrWARCReader, p)
		}
	}()
	rec, off, _, err = wf.Next()
	return rec, off, err
}

// readWARC reads the response records whose target is a /robots.txt URL;
// every other record is skipped. A record's body is its HTTP payload,
// gzip-decoded when its Content-Encoding says gzip, at most MaxBody bytes.
func readWARC(r io.Reader, name string, add func(Capture) error) error {
	wf, err := gowarc.NewWarcFileReaderFromStream(r, 0)
	if err != nil {
		return &InputError{Where: name, Err: err}
	}
	defer wf.Close()
	for {
		rec, off, err := nextWARC(wf)
		if err == io.EOF {
			return nil
		}
		where := fmt.Sprintf("%s record at offset %d", name, off)
		if err != nil {
			if rec != nil {
				rec.Close()
			}
			return &InputError{Where: where, Err: err}
		}
		c, ok, err := warcCapture(rec)
		rec.Close()
		if err != nil {
			return &InputError{Where: where, Err: err}
		}
		if !ok {
			continue
		}
		if err := add(c); err != nil {
			return &InputError{Where: where, Err: err}
		}
	}
}

func warcCapture(rec gowarc.WarcRecord) (Capture, bool, error) {
	if rec.Type() != gowarc.Response {
		return Capture{}, false, nil
	}
	h := rec.WarcHeader()
	target := strings.Trim(h.Get(gowarc.WarcTargetURI), "<>")
	if !isRobotsURL(target) {
		return Capture{}, false, nil
	}
	hb, ok := rec.Block().(gowarc.HttpResponseBlock)
	if !ok {
		return Capture{}, false, fmt.Errorf("response record for %s has no HTTP response block", target)
	}
	host, err := HostOf(target)
	if err != nil {
		return Capture{}, false, err
	}
	c := Capture{Host: host, URL: target, Status: hb.HttpStatusCode(), Truncated: h.Has(gowarc.WarcTruncated)}
	if t, err := time.Parse(time.RFC3339Nano, h.Get(gowarc.WarcDate)); err == nil {
		c.Time = t.UTC()
	}
	if hh := hb.HttpHeader(); hh != nil {
		c.Location = hh.Get("Location")
	}
	p, err := hb.PayloadBytes()
	if err != nil {
		return Capture{}, false, err
	}
	body, err := io.ReadAll(io.LimitReader(p, MaxBody))
	if err != nil {
		return Capture{}, false, err
	}
	if hh := hb.HttpHeader(); hh != nil && strings.EqualFold(strings.TrimSpace(hh.Get("Content-Encoding")), "gzip") && bytes.HasPrefix(body, []byte{0x1f, 0x8b}) {
		if zr, err := gzip.NewReader(bytes.NewReader(body)); err == nil {
			if d, err := io.ReadAll(io.LimitReader(zr, MaxBody)); err == nil {
				body = d
			}
		}
	}
	c.Body = body
	return c, true, nil
}

// isRobotsURL reports whether u is an http(s) URL whose path is
// /robots.txt.
func isRobotsURL(u string) bool {
	l := strings.ToLower(u)
	var rest string
	switch {
	case strings.HasPrefix(l, "http://"):
		rest = l[7:]
	case strings.HasPrefix(l, "https://"):
		rest = l[8:]
	default:
		return false
	}
	i := strings.IndexByte(rest, '/')
	if i < 0 {
		return false
	}
	p := rest[i:]
	if j := strings.IndexAny(p, "?#"); j >= 0 {
		p = p[:j]
	}
	return p == "/robots.txt"
}
