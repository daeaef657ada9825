package lint

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/rep-toolkit/rep/crawlers"
)

// Suppression says why a finding is kept out of the count: the file asks
// for it (an inline comment) or a baseline accepts it. Suppressed findings
// stay in the report, so that SARIF can mark them (SARIF 2.1.0
// "suppressions"); text and JSON output leave them out and count them.
type Suppression string

// Suppressions.
const (
	// SuppressedInline: a "# rep:ignore CODE" comment on the finding's
	// line or on the comment lines right above it.
	SuppressedInline Suppression = "inline"
	// SuppressedBaseline: the finding is in the baseline given to
	// [Report.Apply].
	SuppressedBaseline Suppression = "baseline"
)

// IgnoreDirective starts an inline suppression comment:
//
//	Disallow: /tmp   # rep:ignore private-path
//	# rep:ignore star-overridden, shadowed-rule
//	User-agent: Googlebot
//
// The codes are separated by commas or blanks; with none, every finding
// of the line is suppressed. A comment line applies to the next line that
// is not a comment, so several may stand above one line.
const IgnoreDirective = "rep:ignore"

// DefaultConfigFile is the configuration rep lint looks for beside the
// checked file when -config is not given.
const DefaultConfigFile = ".replint.toml"

// Config tunes a report for CI: codes turned off or back on, and the
// severity of a code raised or lowered. It is read from TOML
// ([ReadConfig]):
//
//	disable = ["private-path", "case-mismatch"]
//	enable = []
//	baseline = "robots.baseline.json"   # relative to the config file
//
//	[severity]
//	star-overridden = "error"
//	redundant-wildcard = "warning"
type Config struct {
	// Disable lists codes not reported; Enable lists codes reported even
	// when Disable names them (a command-line -enable over a file's
	// disable).
	Disable []string `toml:"disable"`
	Enable  []string `toml:"enable"`
	// Severity sets the severity of each code it names.
	Severity map[string]Severity `toml:"-"`
	// Baseline is the baseline file the config names, as written there
	// (the caller resolves it against the config file's directory).
	Baseline string `toml:"baseline"`
}

// ConfigError reports a configuration that cannot be used: an unknown
// code, an unknown severity, a malformed file.
type ConfigError struct {
	Source string // the file, or the flag, the mistake is in
	Err    error
}

// Error names the source and the mistake.
func (e *ConfigError) Error() string { return e.Source + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *ConfigError) Unwrap() error { return e.Err }

// ErrUnknownCode is wrapped by the errors for a code that Run never
// reports.
var ErrUnknownCode = errors.New("unknown code")

// CheckCode returns an error wrapping ErrUnknownCode, with the closest
// known code as a suggestion, when code is not one of [Codes].
func CheckCode(code string) error {
	if _, ok := Explain(code); ok {
		return nil
	}
	best, bestD := "", 1<<30
	for _, c := range codes {
		if d := crawlers.EditDistance(strings.ToLower(code), c.Code); d < bestD {
			best, bestD = c.Code, d
		}
	}
	if bestD <= 3 {
		return fmt.Errorf("%w %q: did you mean %q?", ErrUnknownCode, code, best)
	}
	return fmt.Errorf("%w %q (rep lint -explain lists none such; see docs/lint.md)", ErrUnknownCode, code)
}

// ParseSeverity reads info, warning or error.
func ParseSeverity(s string) (Severity, bool) {
	for _, sev := range []Severity{Info, Warning, Error} {
		if strings.EqualFold(strings.TrimSpace(s), sev.String()) {
			return sev, true
		}
	}
	return 0, false
}

// ReadConfig reads a TOML configuration; name is used in errors. Unknown
// keys, codes and severities are errors: a typo must not silently turn
// nothing off.
func ReadConfig(r io.Reader, name string) (Config, error) {
	var raw struct {
		Config
		Severity map[string]string `toml:"severity"`
	}
	md, err := toml.NewDecoder(io.LimitReader(r, 1<<20)).Decode(&raw)
	if err != nil {
		return Config{}, &ConfigError{name, err}
	}
	if un := md.Undecoded(); len(un) > 0 {
		return Config{}, &ConfigError{name, fmt.Errorf("unknown key %q (the keys are disable, enable, baseline and [severity])", un[0].String())}
	}
	c := raw.Config
	for code, s := range raw.Severity {
		sev, ok := ParseSeverity(s)
		if !ok {
			return Config{}, &ConfigError{name, fmt.Errorf("severity of %s: %q is not info, warning or error", code, s)}
		}
		if c.Severity == nil {
			c.Severity = map[string]Severity{}
		}
		c.Severity[code] = sev
	}
	if err := c.Check(); err != nil {
		return Config{}, &ConfigError{name, err}
	}
	return c, nil
}

// LoadConfig reads the configuration file at path.
func LoadConfig(path string) (Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return Config{}, err
	}
	defer f.Close()
	return ReadConfig(f, path)
}

// Check reports the first unknown code the configuration names.
func (c Config) Check() error {
	all := slices.Concat(c.Disable, c.Enable)
	for code := range c.Severity {
		all = append(all, code)
	}
	sort.Strings(all)
	for _, code := range all {
		if err := CheckCode(code); err != nil {
			return err
		}
	}
	return nil
}

// Merge returns c with o's settings added over it: o's Disable and Enable
// lists are added, an Enable in o turns a Disable in c back on (and the
// reverse), o's severities and baseline win.
func (c Config) Merge(o Config) Config {
	out := Config{Baseline: c.Baseline, Severity: map[string]Severity{}}
	for k, v := range c.Severity {
		out.Severity[k] = v
	}
	for k, v := range o.Severity {
		out.Severity[k] = v
	}
	if o.Baseline != "" {
		out.Baseline = o.Baseline
	}
	on := map[string]bool{}
	for _, code := range c.Disable {
		on[norm(code)] = false
	}
	for _, code := range c.Enable {
		on[norm(code)] = true
	}
	for _, code := range o.Disable {
		on[norm(code)] = false
	}
	for _, code := range o.Enable {
		on[norm(code)] = true
	}
	for code, v := range on {
		if v {
			out.Enable = append(out.Enable, code)
		} else {
			out.Disable = append(out.Disable, code)
		}
	}
	sort.Strings(out.Disable)
	sort.Strings(out.Enable)
	return out
}

func norm(code string) string { return strings.ToLower(strings.TrimSpace(code)) }

// disabled reports whether the configuration turns code off.
func (c Config) disabled(code string) bool {
	off := slices.ContainsFunc(c.Disable, func(s string) bool { return norm(s) == code })
	return off && !slices.ContainsFunc(c.Enable, func(s string) bool { return norm(s) == code })
}

// Apply tunes the report: findings of disabled codes are dropped, the
// configured severities replace the usual ones, and findings the baseline
// holds are marked SuppressedBaseline. It returns how many findings the
// baseline accepted.
func (r *Report) Apply(c Config, base *Baseline) int {
	sev := map[string]Severity{}
	for k, v := range c.Severity {
		sev[norm(k)] = v
	}
	kept := r.Findings[:0]
	for _, d := range r.Findings {
		if c.disabled(d.Code) {
			continue
		}
		if s, ok := sev[d.Code]; ok {
			d.Severity = s
		}
		kept = append(kept, d)
	}
	clear(r.Findings[len(kept):])
	r.Findings = kept
	if base == nil {
		return 0
	}
	left := map[BaselineEntry]int{}
	for _, e := range base.Findings {
		left[BaselineEntry{Code: e.Code, Text: e.Text}]++
	}
	n := 0
	for i := range r.Findings {
		d := &r.Findings[i]
		if d.Suppressed != "" {
			continue
		}
		k := BaselineEntry{Code: d.Code, Text: r.fingerprint(d.Line)}
		if left[k] > 0 {
			left[k]--
			d.Suppressed = SuppressedBaseline
			n++
		}
	}
	return n
}

// Baseline is a list of accepted findings: rep lint -baseline reports
// only the findings it does not hold, so that CI fails on new mistakes
// only. A finding is matched by its code and the text of its line (not
// the line number, which moves when lines are added above it), once per
// entry.
type Baseline struct {
	// Version is 1.
	Version  int             `json:"version"`
	Findings []BaselineEntry `json:"findings"`
}

// BaselineEntry is one accepted finding. Line is informative only.
type BaselineEntry struct {
	Code string `json:"code"`
	Line int    `json:"line,omitempty"`
	// Text is the finding's line as written, blanks trimmed ("" for
	// findings about the fetch).
	Text string `json:"text"`
}

// fingerprint is the text of a line, as a baseline matches it.
func (r *Report) fingerprint(line int) string {
	if line <= 0 || r.file == nil {
		return ""
	}
	return strings.TrimSpace(r.all[line])
}

// Baseline returns the report's findings, as a baseline to accept them:
// all but those the file's own comments suppress (a baseline already
// applied is carried over).
func (r *Report) Baseline() *Baseline {
	b := &Baseline{Version: 1, Findings: []BaselineEntry{}}
	for _, d := range r.Findings {
		if d.Suppressed != SuppressedInline {
			b.Findings = append(b.Findings, BaselineEntry{Code: d.Code, Line: d.Line, Text: r.fingerprint(d.Line)})
		}
	}
	return b
}

// WriteTo writes the baseline as indented JSON.
func (b *Baseline) WriteTo(w io.Writer) (int64, error) {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return 0, err
	}
	n, err := w.Write(append(data, '\n'))
	return int64(n), err
}

// ReadBaseline reads a baseline written by [Baseline.WriteTo].
func ReadBaseline(r io.Reader, name string) (*Baseline, error) {
	var b Baseline
	dec := json.NewDecoder(io.LimitReader(r, 64<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, &ConfigError{name, fmt.Errorf("not a rep lint baseline: %w", err)}
	}
	if b.Version != 1 {
		return nil, &ConfigError{name, fmt.Errorf("baseline version %d; this rep reads version 1", b.Version)}
	}
	return &b, nil
}

// inlineSuppress marks the findings that a "# rep:ignore" comment covers.
func (l *linter) inlineSuppress() {
	type ignore struct {
		all   bool
		codes []string
	}
	at := map[int]*ignore{}
	var pending []*ignore // comment lines waiting for the line they cover
	for _, ln := range l.lines {
		var ig *ignore
		if c := strings.TrimSpace(ln.Comment); strings.HasPrefix(c, IgnoreDirective) {
			rest := strings.TrimPrefix(c, IgnoreDirective)
			if rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == ':' {
				ig = &ignore{}
				for _, f := range strings.FieldsFunc(strings.TrimPrefix(rest, ":"), func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
					ig.codes = append(ig.codes, strings.ToLower(f))
				}
				ig.all = len(ig.codes) == 0
			}
		}
		commentOnly := strings.HasPrefix(strings.TrimSpace(ln.Text), "#")
		if commentOnly {
			if ig != nil {
				pending = append(pending, ig)
			}
			continue
		}
		merged := &ignore{}
		for _, p := range append(pending, ig) {
			if p != nil {
				merged.all = merged.all || p.all
				merged.codes = append(merged.codes, p.codes...)
			}
		}
		pending = nil
		if merged.all || len(merged.codes) > 0 {
			at[ln.Num] = merged
		}
	}
	if len(at) == 0 {
		return
	}
	for i := range l.rep.Findings {
		d := &l.rep.Findings[i]
		if ig := at[d.Line]; ig != nil && (ig.all || slices.Contains(ig.codes, d.Code)) {
			d.Suppressed = SuppressedInline
		}
	}
}
