package filter

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unsafe"

	"github.com/parquet-go/parquet-go"
)

// Doc is one document of the input: its URL, its date as written ("" when
// none), and the input row it came from (a JSONL or CSV line without its
// line end; nil for Parquet). URL, Date and Raw are valid until the next
// call of Next: they may share the reader's buffer.
type Doc struct {
	URL  string
	Date string
	Raw  []byte
	// Line is the document's line (JSONL, CSV) or row (Parquet), from 1.
	Line int
}

// DocError is a document that cannot be read: where it is and why.
type DocError struct {
	Line int
	Err  error
}

func (e *DocError) Error() string { return fmt.Sprintf("document line %d: %v", e.Line, e.Err) }

// Unwrap returns the cause.
func (e *DocError) Unwrap() error { return e.Err }

// DocReader reads documents. Next returns io.EOF at the end, a *DocError
// for a document it cannot read (the next call goes on), any other error
// when it cannot go on.
type DocReader interface {
	Next(d *Doc) error
}

// MaxDocLine bounds a JSONL or CSV line of the document input.
const MaxDocLine = 16 << 20

// NewJSONLReader reads one JSON object per line; urlField and dateField
// name the fields ("url", "date"; dateField "" for none).
func NewJSONLReader(r io.Reader, urlField, dateField string) DocReader {
	return &jsonlDocs{br: bufio.NewReaderSize(r, 1<<20), uf: urlField, df: dateField}
}

type jsonlDocs struct {
	br     *bufio.Reader
	uf, df string
	line   int
	long   []byte
}

func (j *jsonlDocs) Next(d *Doc) error {
	for {
		b, err := j.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			j.long = append(j.long[:0], b...)
			for err == bufio.ErrBufferFull {
				b, err = j.br.ReadSlice('\n')
				j.long = append(j.long, b...)
				if len(j.long) > MaxDocLine {
					return fmt.Errorf("document line %d is over %d bytes", j.line+1, MaxDocLine)
				}
			}
			b = j.long
		}
		if len(b) == 0 && err != nil {
			if err == io.EOF {
				return io.EOF
			}
			return err
		}
		if err != nil && err != io.EOF {
			return err
		}
		j.line++
		b = bytes.TrimRight(b, "\r\n")
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		*d = Doc{Raw: b, Line: j.line}
		u, dt, fu, _, ok := jsonFields(b, j.uf, j.df)
		if !ok {
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				return &DocError{Line: j.line, Err: err}
			}
			s, _ := m[j.uf].(string)
			u, fu = []byte(s), s != ""
			if j.df != "" {
				ds, _ := m[j.df].(string)
				dt = []byte(ds)
			}
		}
		if !fu || len(u) == 0 {
			return &DocError{Line: j.line, Err: fmt.Errorf("no %q string field", j.uf)}
		}
		d.URL = unsafe.String(unsafe.SliceData(u), len(u))
		if len(dt) > 0 {
			d.Date = unsafe.String(unsafe.SliceData(dt), len(dt))
		}
		return nil
	}
}

// NewCSVReader reads CSV (sep ',') or TSV (sep '\t') with a header row
// naming urlField and optionally dateField.
func NewCSVReader(r io.Reader, sep rune, urlField, dateField string) DocReader {
	cr := csv.NewReader(r)
	cr.Comma = sep
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	if sep == '\t' {
		cr.LazyQuotes = true
	}
	return &csvDocs{cr: cr, uf: urlField, df: dateField, ui: -1, di: -1}
}

type csvDocs struct {
	cr     *csv.Reader
	uf, df string
	ui, di int
	header bool
	buf    []byte
}

func (c *csvDocs) Next(d *Doc) error {
	if !c.header {
		h, err := c.cr.Read()
		if err != nil {
			if err == io.EOF {
				return io.EOF
			}
			return fmt.Errorf("document header: %w", err)
		}
		for i, n := range h {
			n = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(n, "\ufeff")))
			if n == c.uf {
				c.ui = i
			}
			if c.df != "" && n == c.df {
				c.di = i
			}
		}
		if c.ui < 0 {
			return fmt.Errorf("document header names no %q column", c.uf)
		}
		c.header = true
	}
	rec, err := c.cr.Read()
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return &DocError{Line: pe.Line, Err: err}
		}
		return err
	}
	line, _ := c.cr.FieldPos(0)
	*d = Doc{Line: line}
	if c.ui >= len(rec) || rec[c.ui] == "" {
		return &DocError{Line: line, Err: fmt.Errorf("no %q value", c.uf)}
	}
	d.URL = rec[c.ui]
	if c.di >= 0 && c.di < len(rec) {
		d.Date = rec[c.di]
	}
	c.buf = c.buf[:0]
	for i, f := range rec {
		if i > 0 {
			c.buf = append(c.buf, byte(c.cr.Comma))
		}
		c.buf = appendCSVField(c.buf, f, c.cr.Comma)
	}
	d.Raw = c.buf
	return nil
}

func appendCSVField(b []byte, f string, sep rune) []byte {
	if !strings.ContainsAny(f, "\"\r\n"+string(sep)) && (f == "" || (f[0] != ' ' && f[0] != '\t')) {
		return append(b, f...)
	}
	b = append(b, '"')
	b = append(b, strings.ReplaceAll(f, `"`, `""`)...)
	return append(b, '"')
}

// NewParquetReader reads the string columns urlField and dateField ("" or
// absent: none) of a Parquet file.
func NewParquetReader(f *os.File, urlField, dateField string) (DocReader, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, fi.Size())
	if err != nil {
		return nil, err
	}
	ui, di := -1, -1
	for i, col := range pf.Schema().Columns() {
		if len(col) != 1 {
			continue
		}
		switch strings.ToLower(col[0]) {
		case urlField:
			ui = i
		case dateField:
			di = i
		}
	}
	if ui < 0 {
		return nil, fmt.Errorf("the Parquet schema has no top-level %q column", urlField)
	}
	return &parquetDocs{rows: parquet.MultiRowGroup(pf.RowGroups()...).Rows(), ui: ui, di: di, buf: make([]parquet.Row, 256)}, nil
}

type parquetDocs struct {
	rows   parquet.Rows
	ui, di int
	buf    []parquet.Row
	n, i   int
	line   int
}

func (p *parquetDocs) Next(d *Doc) error {
	for p.i >= p.n {
		n, err := p.rows.ReadRows(p.buf)
		p.n, p.i = n, 0
		if n == 0 {
			if err == nil {
				err = io.EOF
			}
			return err
		}
	}
	row := p.buf[p.i]
	p.i++
	p.line++
	*d = Doc{Line: p.line}
	for _, v := range row {
		switch v.Column() {
		case p.ui:
			if !v.IsNull() {
				d.URL = string(v.ByteArray())
			}
		case p.di:
			if !v.IsNull() {
				d.Date = string(v.ByteArray())
			}
		}
	}
	if d.URL == "" {
		return &DocError{Line: p.line, Err: errors.New("no url value")}
	}
	return nil
}
