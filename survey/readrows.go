package survey

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// ErrSchema is wrapped by ReadRows for rows of a schema version it does
// not know.
var ErrSchema = errors.New("survey: unknown row schema version")

// ReadRows reads rows written by NewWriter: JSONL, CSV or Parquet (by the
// name's extension, else JSONL), calling fn for each.
func ReadRows(name string, fn func(*Row) error) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	l := strings.ToLower(name)
	switch {
	case strings.HasSuffix(l, ".parquet"):
		fi, err := f.Stat()
		if err != nil {
			return err
		}
		pf, err := parquet.OpenFile(f, fi.Size())
		if err != nil {
			return &InputError{Where: name, Err: err}
		}
		if v, _ := pf.Lookup(ParquetSchemaKey); v != strconv.Itoa(SchemaVersion) {
			return &InputError{Where: name, Err: fmt.Errorf("%w: %q", ErrSchema, v)}
		}
		r := parquet.NewGenericReader[Row](f)
		defer r.Close()
		buf := make([]Row, 256)
		for {
			n, err := r.Read(buf)
			for i := range n {
				if err := fn(&buf[i]); err != nil {
					return err
				}
			}
			if err == io.EOF || (err == nil && n == 0) {
				return nil
			}
			if err != nil {
				return &InputError{Where: name, Err: err}
			}
		}
	case strings.HasSuffix(l, ".csv"):
		cr := csv.NewReader(bufio.NewReader(f))
		cr.FieldsPerRecord = len(Columns)
		h, err := cr.Read()
		if err != nil {
			return &InputError{Where: name + " line 1", Err: err}
		}
		if strings.Join(h, ",") != strings.Join(Columns, ",") {
			return &InputError{Where: name + " line 1", Err: fmt.Errorf("%w: the header is not schema %d's columns", ErrSchema, SchemaVersion)}
		}
		for line := 2; ; line++ {
			rec, err := cr.Read()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return &InputError{Where: fmt.Sprintf("%s line %d", name, line), Err: err}
			}
			var r Row
			if err := r.fromRecord(rec); err != nil {
				return &InputError{Where: fmt.Sprintf("%s line %d", name, line), Err: err}
			}
			if err := fn(&r); err != nil {
				return err
			}
		}
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), MaxLine)
	for line := 1; sc.Scan(); line++ {
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		var r Row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return &InputError{Where: fmt.Sprintf("%s line %d", name, line), Err: err}
		}
		if r.Schema != SchemaVersion {
			return &InputError{Where: fmt.Sprintf("%s line %d", name, line), Err: fmt.Errorf("%w: %d", ErrSchema, r.Schema)}
		}
		if err := fn(&r); err != nil {
			return err
		}
	}
	return sc.Err()
}

// fromRecord reads a CSV record in Columns order (the inverse of record).
func (r *Row) fromRecord(rec []string) error {
	ints := []*int{&r.Schema, &r.Status, &r.Redirects, &r.GroupLine, &r.Line, &r.CrawlDelayLine, &r.Bytes, &r.Diagnostics, &r.Errors}
	at := []int{0, 5, 6, 14, 16, 19, 23, 25, 26}
	for i, p := range ints {
		n, err := strconv.Atoi(rec[at[i]])
		if err != nil {
			return fmt.Errorf("column %s: %w", Columns[at[i]], err)
		}
		*p = n
	}
	if r.Schema != SchemaVersion {
		return fmt.Errorf("%w: %d", ErrSchema, r.Schema)
	}
	var err error
	if r.RootAllowed, err = strconv.ParseBool(rec[15]); err != nil {
		return err
	}
	if r.Truncated, err = strconv.ParseBool(rec[24]); err != nil {
		return err
	}
	if r.CrawlDelay, err = strconv.ParseFloat(rec[18], 64); err != nil {
		return err
	}
	r.Host, r.URL, r.Time, r.Month, r.Case, r.Class = rec[1], rec[2], rec[3], rec[4], rec[7], rec[8]
	r.Crawler, r.Purpose, r.Restriction, r.Group, r.Via, r.Rule = rec[9], rec[10], rec[11], rec[12], rec[13], rec[17]
	r.TrainAI, r.AIUse, r.Search = rec[20], rec[21], rec[22]
	return nil
}
