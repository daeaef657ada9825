package survey

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/parquet-go/parquet-go"
)

// ParquetSchemaKey is the Parquet key-value metadata holding SchemaVersion.
const ParquetSchemaKey = "rep.survey.schema"

// Writer writes rows in one format.
type Writer interface {
	Write(rows []Row) error
	// Close flushes; it does not close the underlying writer.
	Close() error
}

// NewWriter returns a writer of rows as "jsonl", "csv" or "parquet".
func NewWriter(w io.Writer, format string) (Writer, error) {
	switch format {
	case "jsonl", "json":
		bw := bufio.NewWriterSize(w, 64<<10)
		return &jsonlWriter{bw: bw, enc: json.NewEncoder(bw)}, nil
	case "csv":
		cw := csv.NewWriter(w)
		if err := cw.Write(Columns); err != nil {
			return nil, err
		}
		return &csvWriter{cw: cw}, nil
	case "parquet":
		pw := parquet.NewGenericWriter[Row](w, parquet.KeyValueMetadata(ParquetSchemaKey, strconv.Itoa(SchemaVersion)))
		return &parquetWriter{pw: pw}, nil
	}
	return nil, fmt.Errorf("survey: unknown output format %q (jsonl, csv or parquet)", format)
}

type jsonlWriter struct {
	bw  *bufio.Writer
	enc *json.Encoder
}

func (w *jsonlWriter) Write(rows []Row) error {
	for i := range rows {
		if err := w.enc.Encode(&rows[i]); err != nil {
			return err
		}
	}
	return nil
}

func (w *jsonlWriter) Close() error { return w.bw.Flush() }

type csvWriter struct {
	cw  *csv.Writer
	rec []string
}

func (w *csvWriter) Write(rows []Row) error {
	for i := range rows {
		w.rec = rows[i].record(w.rec[:0])
		if err := w.cw.Write(w.rec); err != nil {
			return err
		}
	}
	return nil
}

func (w *csvWriter) Close() error {
	w.cw.Flush()
	return w.cw.Error()
}

// record is the row's fields as text, in Columns order.
func (r *Row) record(rec []string) []string {
	return append(rec, strconv.Itoa(r.Schema), r.Host, r.URL, r.Time, r.Month, strconv.Itoa(r.Status),
		strconv.Itoa(r.Redirects), r.Case, r.Class, r.Crawler, r.Purpose, r.Restriction, r.Group, r.Via,
		strconv.Itoa(r.GroupLine), strconv.FormatBool(r.RootAllowed), strconv.Itoa(r.Line), r.Rule,
		strconv.FormatFloat(r.CrawlDelay, 'g', -1, 64), strconv.Itoa(r.CrawlDelayLine), r.TrainAI, r.AIUse,
		r.Search, strconv.Itoa(r.Bytes), strconv.FormatBool(r.Truncated), strconv.Itoa(r.Diagnostics), strconv.Itoa(r.Errors))
}

type parquetWriter struct{ pw *parquet.GenericWriter[Row] }

func (w *parquetWriter) Write(rows []Row) error {
	_, err := w.pw.Write(rows)
	return err
}

func (w *parquetWriter) Close() error { return w.pw.Close() }
