package accesslog

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Sizes of the Reader's buffer: big reads keep syscalls and copies rare
// (1 MiB reads run at memory speed, notes §2.3); lines longer than
// MaxLineSize are counted as bad and skipped.
const (
	bufferSize  = 1 << 20
	MaxLineSize = 4 << 20
	// MaxSamples is how many bad lines a Reader keeps as examples.
	MaxSamples = 10
	// sampleLen caps the text kept from each bad line.
	sampleLen = 300
)

// Stats counts what a Reader has seen. Lines = Records + Bad + Directives
// + Blank.
type Stats struct {
	Lines      int64     `json:"lines"`
	Records    int64     `json:"records"`
	Bad        int64     `json:"bad_lines"`
	Directives int64     `json:"directive_lines,omitempty"`
	Blank      int64     `json:"blank_lines,omitempty"`
	Samples    []BadLine `json:"bad_samples,omitempty"`
}

// BadLine is a line that did not parse, kept as a sample.
type BadLine struct {
	Source string `json:"source,omitempty"`
	Line   int64  `json:"line"`
	Error  string `json:"error"`
	Text   string `json:"text"`
}

// Reader reads records from a log stream. It is not safe for concurrent
// use; read several files in parallel with one Reader each.
type Reader struct {
	name    string
	raw     *counter
	closers []io.Closer
	src     io.Reader
	format  *Format
	parser  Parser

	buf        []byte
	start, end int
	eof        bool

	codec  string // "gzip", "zstd" or "bzip2" for a compressed input
	broken string // why the compressed data stopped decoding, until reported
	rec    Record
	stats  Stats
	onBad  func(BadLine)
	onSkip func(line int64, directive bool)
	onRead func()
}

// OnSkip sets a function called for every blank line (directive false)
// and directive line such as W3C "#Fields" (directive true), so a caller
// can account for every input line.
func (r *Reader) OnSkip(f func(line int64, directive bool)) { r.onSkip = f }

// OnRead sets a function called before each read from the input that may
// block: the Reader holds no complete line. A filter that answers line by
// line (a ClickHouse executable pool waits for each block's rows) flushes
// its output there.
func (r *Reader) OnRead(f func()) { r.onRead = f }

// OnBad sets a function called for every bad line as it is read (the
// Stats keep only the first MaxSamples). The BadLine's Text is capped.
func (r *Reader) OnBad(f func(BadLine)) { r.onBad = f }

// counter counts the bytes read from the underlying input, for progress.
type counter struct {
	r   io.Reader
	n   atomic.Int64
	err error // the input's own failure, told apart from the decoder's
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	if err != nil && err != io.EOF {
		c.err = err
	}
	return n, err
}

// Open opens a log file for reading; see NewReader. Close the Reader when
// done.
func Open(path string, f *Format, o Options) (*Reader, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := NewReader(file, path, f, o)
	if err != nil {
		file.Close()
		return nil, err
	}
	r.closers = append(r.closers, file)
	return r, nil
}

// NewReader reads a log from in, named name in messages. Gzip (including
// multi-member files, as logrotate's delaycompress and concatenation make),
// zstd and bzip2 are recognised by their magic bytes. A nil format is
// detected from the first 64 KiB; an input with nothing but blank lines
// needs none and yields no records.
func NewReader(in io.Reader, name string, f *Format, o Options) (*Reader, error) {
	r := &Reader{name: name, raw: &counter{r: in}, buf: make([]byte, bufferSize)}
	br := bufio.NewReaderSize(r.raw, 64<<10)
	magic, _ := br.Peek(4)
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: gzip: %w", name, err)
		}
		r.src, r.codec = zr, "gzip"
		r.closers = append(r.closers, zr)
	case len(magic) >= 4 && bytes.Equal(magic, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(false))
		if err != nil {
			return nil, fmt.Errorf("%s: zstd: %w", name, err)
		}
		r.src, r.codec = zr, "zstd"
		r.closers = append(r.closers, closerFunc(zr.Close))
	case len(magic) >= 3 && string(magic[:3]) == "BZh":
		r.src, r.codec = bzip2.NewReader(br), "bzip2"
	default:
		r.src = br
	}
	if f == nil {
		if err := r.fill(64 << 10); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		sample := r.buf[r.start:r.end]
		if r.eof && len(bytes.TrimSpace(sample)) == 0 {
			// An empty log (a rotated file from a quiet day, a
			// compressed empty file) holds no records in any format:
			// it reads as zero lines, not as an undetectable format
			// that would fail a run over a whole directory of logs.
			f = MustFormat("combined")
		} else {
			d, err := Detect(sample)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			f = d
		}
	}
	p, err := f.NewParser(o)
	if err != nil {
		return nil, err
	}
	r.format, r.parser = f, p
	return r, nil
}

type closerFunc func()

func (c closerFunc) Close() error { c(); return nil }

// Format returns the format being read (detected or given).
func (r *Reader) Format() *Format { return r.format }

// Name returns the name given to NewReader or Open.
func (r *Reader) Name() string { return r.name }

// BytesRead returns how many bytes of the underlying (possibly compressed)
// input have been consumed. It is safe to call from another goroutine.
func (r *Reader) BytesRead() int64 { return r.raw.n.Load() }

// Stats returns the counts so far.
func (r *Reader) Stats() Stats { return r.stats }

// Close closes the decompressor and the file opened by Open.
func (r *Reader) Close() error {
	var errs []error
	for i := len(r.closers) - 1; i >= 0; i-- {
		errs = append(errs, r.closers[i].Close())
	}
	return errors.Join(errs...)
}

// fill reads until the buffer holds at least want unread bytes, the buffer
// is full, or the input ends.
func (r *Reader) fill(want int) error {
	for !r.eof && r.end-r.start < want && r.end < len(r.buf) {
		if err := r.more(); err != nil {
			return err
		}
	}
	return nil
}

// Next returns the next request, skipping (and counting) blank, directive
// and bad lines. It returns io.EOF at the end of input and other errors
// only for failed reads or decompression. The Record is reused by the next
// call.
func (r *Reader) Next() (*Record, error) {
	for {
		line, long, err := r.nextLine()
		if err == io.EOF && r.broken != "" {
			if r.stats.Lines == 0 {
				msg := r.broken
				r.broken = ""
				return nil, fmt.Errorf("%s: %s", r.name, msg)
			}
			// The lines before the break were read and stand; the break
			// is a bad line, counted and shown where it is.
			r.stats.Lines++
			r.bad(nil, r.broken)
			r.broken = ""
		}
		if err != nil {
			return nil, err
		}
		r.stats.Lines++
		if long {
			r.bad(line, fmt.Sprintf("line longer than %d bytes", MaxLineSize))
			continue
		}
		if len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		if len(line) == 0 {
			r.stats.Blank++
			if r.onSkip != nil {
				r.onSkip(r.stats.Lines, false)
			}
			continue
		}
		err = r.parser.Parse(line, &r.rec)
		if err == nil {
			r.stats.Records++
			r.rec.Line = r.stats.Lines
			return &r.rec, nil
		}
		if err == ErrDirective {
			r.stats.Directives++
			if r.onSkip != nil {
				r.onSkip(r.stats.Lines, true)
			}
			continue
		}
		r.bad(line, err.Error())
	}
}

func (r *Reader) bad(line []byte, msg string) {
	r.stats.Bad++
	if len(r.stats.Samples) >= MaxSamples && r.onBad == nil {
		return
	}
	if len(line) > sampleLen {
		line = line[:sampleLen]
	}
	b := BadLine{
		Source: r.name, Line: r.stats.Lines, Error: msg,
		Text: strings.ToValidUTF8(string(line), string(utf8.RuneError)),
	}
	if len(r.stats.Samples) < MaxSamples {
		r.stats.Samples = append(r.stats.Samples, b)
	}
	if r.onBad != nil {
		r.onBad(b)
	}
}

// nextLine returns the next line without its newline, or io.EOF. For a
// line longer than MaxLineSize it returns its start and long = true.
func (r *Reader) nextLine() (line []byte, long bool, err error) {
	scanFrom := r.start
	for {
		if i := bytes.IndexByte(r.buf[scanFrom:r.end], '\n'); i >= 0 {
			line := r.buf[r.start : scanFrom+i]
			r.start = scanFrom + i + 1
			return line, false, nil
		}
		scanFrom = r.end
		if r.eof {
			if r.start == r.end {
				return nil, false, io.EOF
			}
			line := r.buf[r.start:r.end]
			r.start = r.end
			return line, false, nil
		}
		if r.start > 0 {
			n := copy(r.buf, r.buf[r.start:r.end])
			scanFrom -= r.start
			r.start, r.end = 0, n
		}
		if r.end == len(r.buf) {
			if len(r.buf) >= MaxLineSize {
				return r.skipLong()
			}
			nb := make([]byte, 2*len(r.buf))
			copy(nb, r.buf[:r.end])
			r.buf = nb
		}
		if err := r.more(); err != nil {
			return nil, false, fmt.Errorf("%s: %w", r.name, err)
		}
	}
}

// more reads at least one byte into the free end of the buffer, or sets eof.
func (r *Reader) more() error {
	if r.onRead != nil && !r.eof {
		r.onRead()
	}
	for !r.eof && r.end < len(r.buf) {
		n, err := r.src.Read(r.buf[r.end:])
		r.end += n
		if err == io.EOF {
			r.eof = true
		} else if err != nil {
			if r.codec != "" && errors.Is(err, io.ErrUnexpectedEOF) {
				// The usual cause is a file cut short, or one still being
				// compressed by logrotate: say so.
				return fmt.Errorf("the %s data ends early (a truncated file, or one still being written?): %w", r.codec, err)
			}
			if r.codec != "" && r.raw.err == nil {
				// The file reads but does not decode: damaged, or
				// followed by something else. Keep what was decoded.
				r.broken = fmt.Sprintf("the %s data is corrupt from here on (%v; %d compressed bytes read): the rest of the file is not read; check it with %s -t and fetch or compress it again", r.codec, err, r.raw.n.Load(), r.codec)
				r.eof = true
				return nil
			}
			return err
		}
		if n > 0 {
			return nil
		}
	}
	return nil
}

// skipLong discards the rest of an over-long line and returns a copy of
// its start.
func (r *Reader) skipLong() ([]byte, bool, error) {
	head := bytes.Clone(r.buf[:sampleLen])
	r.start, r.end = 0, 0
	for {
		if err := r.more(); err != nil {
			return nil, false, fmt.Errorf("%s: %w", r.name, err)
		}
		if i := bytes.IndexByte(r.buf[r.start:r.end], '\n'); i >= 0 {
			r.start += i + 1
			return head, true, nil
		}
		r.start, r.end = 0, 0
		if r.eof {
			return head, true, nil
		}
	}
}
