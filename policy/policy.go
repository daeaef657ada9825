package policy

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
)

// Enforce says what the gate and the middleware do with a request the
// policy refuses.
type Enforce string

// Values of Enforce.
const (
	// Off serves robots.txt and the headers and judges no request.
	Off Enforce = "off"
	// Log judges every request and logs the decision, refusing none.
	Log Enforce = "log"
	// Block judges, logs and refuses with 403 what the policy refuses.
	Block Enforce = "block"
)

// Policy is a parsed policy file. Its fields are the file's keys (see
// docs/policy.md); Parse fills them and checks them, and the methods that
// read a Policy expect it unchanged since.
type Policy struct {
	// Sitemaps are the sitemap URLs written as Sitemap lines.
	Sitemaps []string `toml:"sitemaps"`
	// Enforce is what the gate does with refused requests; empty means Log.
	Enforce Enforce `toml:"enforce"`
	// Groups are the robots.txt groups, in file order.
	Groups []Group `toml:"group"`
	// Headers are response headers by path.
	Headers []Header `toml:"header"`
	// Usage are the site-wide usage preferences.
	Usage Usage `toml:"usage"`
	// Staging marks a site that must never be crawled nor indexed: the
	// policy's only group disallows everything to every crawler, and every
	// response carries X-Robots-Tag: noindex, nofollow. It excludes
	// [[group]].
	Staging bool `toml:"staging"`

	// Source names the file the policy was read from, for the comment at
	// the top of the generated robots.txt and for error messages.
	Source string `toml:"-"`

	hash [32]byte // SHA-256 of the file, for the generated comment
	pos  positions
	lazy `toml:"-"`
}

// Group is one [[group]] of the policy: one robots.txt group.
type Group struct {
	// Agents are product tokens; "*" names every crawler no other group
	// names.
	Agents []string `toml:"agents"`
	// Categories are registry purposes (crawlers.Purpose): each names
	// every registry crawler with that purpose.
	Categories []string `toml:"categories"`
	// Allow and Disallow are robots.txt path patterns ("*" and a final
	// "$" allowed).
	Allow    []string `toml:"allow"`
	Disallow []string `toml:"disallow"`
	// CrawlDelay is the Crawl-delay in seconds; zero writes none.
	CrawlDelay float64 `toml:"crawl_delay"`
	// ContentUsage is the group's IETF aipref Content-Usage line
	// ("train-ai=n"); empty writes none.
	ContentUsage string `toml:"content_usage"`
	// Comment is written as a comment line above the group.
	Comment string `toml:"comment"`

	// Line is the line of the [[group]] header in the policy file.
	Line int `toml:"-"`
}

// Header is one [[header]] of the policy: headers added to responses whose
// path matches Path.
type Header struct {
	// Path is a robots.txt path pattern matched against the request's
	// path (without the query): "/*.pdf$", "/" for every path.
	Path string `toml:"path"`
	// XRobotsTag is the X-Robots-Tag header's value ("noindex, nofollow").
	XRobotsTag string `toml:"x_robots_tag"`
	// ContentUsage is the Content-Usage header's value ("train-ai=n").
	ContentUsage string `toml:"content_usage"`

	// Line is the line of the [[header]] header in the policy file.
	Line int `toml:"-"`
}

// Usage holds the site-wide usage preferences.
type Usage struct {
	// ContentSignal is written as a Content-Signal line at the top of
	// robots.txt ("search=yes, ai-train=no").
	ContentSignal string `toml:"content_signal"`
	// ContentUsage is written as a Content-Usage line in every group that
	// sets none of its own, and sent as a Content-Usage header on every
	// response that no [[header]] gives one.
	ContentUsage string `toml:"content_usage"`
}

// ErrInvalid is wrapped by every Error about the policy's content (as
// opposed to its TOML syntax).
var ErrInvalid = errors.New("invalid policy")

// Error is a policy file that cannot be used: where and why.
type Error struct {
	Source string // the file's name
	Line   int    // 1-based; 0 when unknown
	Key    string // the key at fault, e.g. "group[2].disallow"; may be empty
	Err    error  // a toml.ParseError, or what is wrong, wrapping ErrInvalid
}

func (e *Error) Error() string {
	var b strings.Builder
	if strings.ContainsFunc(e.Source, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		b.WriteString(strconv.Quote(e.Source)) // a name must not start a line of its own
	} else {
		b.WriteString(e.Source)
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	var pe toml.ParseError
	if errors.As(e.Err, &pe) {
		b.WriteString(pe.Message)
	} else {
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// invalid is the Error for a bad value.
func invalid(src string, line int, key, format string, args ...any) *Error {
	return &Error{Source: src, Line: line, Key: key, Err: fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))}
}

// MaxBytes bounds a policy file.
const MaxBytes = 1 << 20

// Load reads and parses the policy file at path.
func Load(path string) (*Policy, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse parses a policy file named source. It fails on TOML errors, on
// keys the schema does not have and on values no robots.txt or server
// configuration can carry (a control character, a path not starting with
// "/" or "*", a malformed product token); the error is an *Error with the
// line. What is legal but likely wrong is left to Check.
func Parse(source string, data []byte) (*Policy, error) {
	if len(data) > MaxBytes {
		return nil, invalid(source, 0, "", "%d bytes: at most %d", len(data), MaxBytes)
	}
	if line, why := prescan(data); why != "" {
		return nil, invalid(source, line, "", "%s: a policy needs far less (see docs/policy.md)", why)
	}
	p := &Policy{}
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(p)
	if err != nil {
		e := &Error{Source: source, Err: err}
		var pe toml.ParseError
		if errors.As(err, &pe) {
			e.Line = pe.Position.Line
		} else {
			e.Line, e.Key = typeError(data)
		}
		return nil, e
	}
	p.Source = source
	p.pos = locate(data)
	p.hash = sha256Sum(data)
	if und := md.Undecoded(); len(und) > 0 {
		k := und[0]
		return nil, invalid(source, p.pos.key(k), keyName(k), "unknown key%s (see docs/policy.md for the schema)", suggest(k))
	}
	for i := range p.Groups {
		p.Groups[i].Line = p.pos.table("group", i)
	}
	for i := range p.Headers {
		p.Headers[i].Line = p.pos.table("header", i)
	}
	if err := p.validate(); err != nil {
		return nil, err
	}
	if p.Staging {
		if len(p.Groups) > 0 {
			return nil, invalid(source, p.Groups[0].Line, "group[1]", "staging = true disallows everything to every crawler: leave the [[group]] tables out")
		}
		line := p.pos.top("staging")
		p.Groups = []Group{{Agents: []string{"*"}, Disallow: []string{"/"}, Comment: "A staging site: no crawler may fetch anything.", Line: line}}
		p.Headers = append([]Header{{Path: "/", XRobotsTag: "noindex, nofollow", Line: line}}, p.Headers...)
	}
	return p, nil
}

// schema is the kind of value every key of the file takes.
var schema = map[string]string{
	"sitemaps": "array", "enforce": "string", "staging": "bool", "group": "tables",
	"header": "tables", "usage": "table",
	"agents": "array", "categories": "array", "allow": "array", "disallow": "array",
	"crawl_delay": "number", "content_usage": "string", "comment": "string",
	"path": "string", "x_robots_tag": "string", "content_signal": "string",
}

// kind names the kind of a decoded TOML value as schema does.
func kind(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case bool:
		return "bool"
	case int64, float64:
		return "number"
	case []any:
		return "array"
	case []map[string]any:
		return "tables"
	case map[string]any:
		return "table"
	}
	return "other"
}

// typeError finds the key whose value is not of the kind the schema
// expects, when decoding into a Policy failed on a type: its line and name.
// The decoder's own error names it only in its text.
func typeError(data []byte) (line int, key string) {
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		return 0, ""
	}
	pos := locate(data)
	for k, v := range raw {
		if want, ok := schema[k]; ok && kind(v) != want {
			return pos.top(k), k
		}
	}
	for _, t := range []string{"group", "header", "usage"} {
		var tables []map[string]any
		switch v := raw[t].(type) {
		case []map[string]any:
			tables = v
		case map[string]any:
			tables = []map[string]any{v}
		}
		for i, tab := range tables {
			for k, v := range tab {
				if want, ok := schema[k]; ok && kind(v) != want {
					name := fmt.Sprintf("%s[%d].%s", t, i+1, k)
					if t == "usage" {
						name = "usage." + k
					}
					return pos.inTable(t, i, k), name
				}
			}
		}
	}
	return 0, ""
}

// tables are the file's tables, as they are written.
var tables = map[string]string{"group": "[[group]]", "header": "[[header]]", "usage": "[usage]"}

// suggest returns ": did you mean X?" for an unknown key one or two edits
// (or a plural 's') away from a key of the schema at its place, else "".
func suggest(k toml.Key) string {
	if len(k) == 0 {
		return ""
	}
	name := k[len(k)-1]
	if len(k) > 1 {
		if _, ok := tables[k[0]]; !ok {
			name, k = k[0], k[:1] // inside an unknown table: the table is the typo
		}
	}
	best, dist := "", 3
	for cand, kind := range schema {
		top := kind == "tables" || kind == "table" || cand == "sitemaps" || cand == "enforce" || cand == "staging"
		if top != (len(k) == 1) {
			continue
		}
		if d := editDistance(name, cand); d < dist || d == dist && cand < best {
			best, dist = cand, d
		}
	}
	if best == "" {
		return ""
	}
	if t, ok := tables[best]; ok && len(k) == 1 {
		best = t
	}
	return ": did you mean " + best + "?"
}

// editDistance is the Levenshtein distance of two short strings.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// keyName writes a TOML key path as the messages name it: group[2].allow.
func keyName(k toml.Key) string {
	return strings.Join(k, ".")
}

// EnforceMode is the policy's enforcement, Log when the file sets none.
func (p *Policy) EnforceMode() Enforce {
	if p.Enforce == "" {
		return Log
	}
	return p.Enforce
}

func (p *Policy) validate() error {
	src := p.Source
	switch p.Enforce {
	case "", Off, Log, Block:
	default:
		return invalid(src, p.pos.top("enforce"), "enforce", "%q: want off, log or block", p.Enforce)
	}
	for i, s := range p.Sitemaps {
		if err := checkValue(s); err != nil || !(strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")) || strings.ContainsAny(s, " \t") {
			return invalid(src, p.pos.top("sitemaps"), fmt.Sprintf("sitemaps[%d]", i+1), "%q: want an absolute http or https URL", s)
		}
		if j := strings.IndexByte(s, '#'); j >= 0 {
			return invalid(src, p.pos.top("sitemaps"), fmt.Sprintf("sitemaps[%d]", i+1), "%q: '#' at byte %d starts a comment in robots.txt, which would cut the URL there: leave the fragment out", s, j)
		}
	}
	for i, g := range p.Groups {
		key := func(k string) string { return fmt.Sprintf("group[%d].%s", i+1, k) }
		line := func(k string) int { return p.pos.inTable("group", i, k) }
		if len(g.Agents) == 0 && len(g.Categories) == 0 {
			return invalid(src, g.Line, fmt.Sprintf("group[%d]", i+1), "names no crawler: give agents, categories or both")
		}
		for _, a := range g.Agents {
			if a != "*" && !isToken(a) {
				return invalid(src, line("agents"), key("agents"), "%q is not a product token (letters, '-' and '_', as RFC 9309 §2.2.1 asks), nor \"*\"", a)
			}
		}
		for _, c := range g.Categories {
			if err := checkValue(c); err != nil {
				return invalid(src, line("categories"), key("categories"), "%q: %v", c, err)
			}
		}
		for _, k := range []struct {
			name  string
			paths []string
		}{{"allow", g.Allow}, {"disallow", g.Disallow}} {
			for _, pat := range k.paths {
				if err := checkPattern(pat); err != nil {
					return invalid(src, line(k.name), key(k.name), "%q: %v", pat, err)
				}
			}
		}
		if !(g.CrawlDelay >= 0 && g.CrawlDelay <= 86400) { // NaN too

			return invalid(src, line("crawl_delay"), key("crawl_delay"), "%v: want seconds between 0 and 86400", g.CrawlDelay)
		}
		if err := checkLineValue(g.ContentUsage); err != nil {
			return invalid(src, line("content_usage"), key("content_usage"), "%v", err)
		}
		if err := checkValue(g.Comment); err != nil {
			return invalid(src, line("comment"), key("comment"), "%v", err)
		}
	}
	for i, h := range p.Headers {
		key := func(k string) string { return fmt.Sprintf("header[%d].%s", i+1, k) }
		line := func(k string) int { return p.pos.inTable("header", i, k) }
		if h.Path == "" {
			return invalid(src, h.Line, key("path"), "missing: give the path pattern the headers apply to")
		}
		if err := checkPattern(h.Path); err != nil {
			return invalid(src, line("path"), key("path"), "%q: %v", h.Path, err)
		}
		if d := percentDecode(strings.ReplaceAll(h.Path, "*", "")); !utf8.ValidString(d) {
			return invalid(src, line("path"), key("path"), "%q: its %%-escapes decode to bytes that are not UTF-8, which Caddy, matching the decoded path, cannot match", h.Path)
		}
		if h.XRobotsTag == "" && h.ContentUsage == "" {
			return invalid(src, h.Line, fmt.Sprintf("header[%d]", i+1), "sets no header: give x_robots_tag, content_usage or both")
		}
		for k, v := range map[string]string{"x_robots_tag": h.XRobotsTag, "content_usage": h.ContentUsage} {
			if err := checkHeaderValue(v); err != nil {
				return invalid(src, line(k), key(k), "%v", err)
			}
		}
	}
	if err := checkLineValue(p.Usage.ContentSignal); err != nil {
		return invalid(src, p.pos.inTable("usage", 0, "content_signal"), "usage.content_signal", "%v", err)
	}
	if err := checkHeaderValue(p.Usage.ContentUsage); err != nil {
		return invalid(src, p.pos.inTable("usage", 0, "content_usage"), "usage.content_usage", "%v", err)
	}
	return nil
}

// isToken reports whether s is a product token as RFC 9309 §2.2.1 defines
// it: letters, '-' and '_'. Google's parser cuts a token at anything else,
// so a token with a digit would name a different crawler than it says.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// checkValue refuses what would break out of a robots.txt line or a
// server configuration's string: control characters.
func checkValue(s string) error {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return fmt.Errorf("control character at byte %d", i)
		}
	}
	return nil
}

// checkLineValue refuses what would break out of a robots.txt line or be
// cut short in it: control characters and '#', which starts a comment.
func checkLineValue(s string) error {
	if err := checkValue(s); err != nil {
		return err
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		return fmt.Errorf("'#' at byte %d starts a comment in robots.txt, which would cut the value there", i)
	}
	return nil
}

// checkHeaderValue refuses what some server configuration cannot carry
// inert in a header value: control characters, quotes and backslashes
// (string syntax), '$' (nginx and HAProxy variables, which nginx cannot
// escape), braces (Caddy placeholders, Apache's ${VAR}), ';' and '#'. A
// '%' is carried: Config doubles it for Apache and HAProxy.
func checkHeaderValue(s string) error {
	if err := checkValue(s); err != nil {
		return err
	}
	if i := strings.IndexAny(s, "\"\\`{}$;#'"); i >= 0 {
		return fmt.Errorf("%q at byte %d: header values are written into server configurations, which would need it escaped", s[i], i)
	}
	return nil
}

// checkPattern checks a robots.txt path pattern.
func checkPattern(s string) error {
	if s == "" {
		return errors.New("empty pattern (an empty Disallow allows everything: leave it out)")
	}
	if s[0] != '/' && s[0] != '*' {
		return errors.New(`a path pattern starts with "/" or "*"`)
	}
	if err := checkValue(s); err != nil {
		return err
	}
	if i := strings.IndexAny(s, " \t\"'\\`{}#;"); i >= 0 {
		return fmt.Errorf("%q at byte %d: percent-encode it (robots.txt ends a rule at whitespace and '#', and server configurations would need it escaped)", s[i], i)
	}
	if i := strings.IndexByte(s, '$'); i >= 0 && i != len(s)-1 {
		return fmt.Errorf(`"$" at byte %d: "$" anchors the end of a pattern and only ends one`, i)
	}
	return nil
}

// positions finds the lines of tables and keys in a policy file, which the
// TOML decoder does not expose: enough for the messages, which name the key
// as well.
type positions struct {
	tops   map[string]int              // top-level key → line
	tables map[string][]int            // table name → line of each [[name]] or [name]
	keys   map[string][]map[string]int // table name → per table, key → line
}

func locate(data []byte) positions {
	p := positions{tops: map[string]int{}, tables: map[string][]int{}, keys: map[string][]map[string]int{}}
	table := ""
	for n, line := range strings.Split(string(data), "\n") {
		l := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(l, "[[") && strings.Contains(l, "]]"):
			table = strings.TrimSpace(l[2:strings.Index(l, "]]")])
		case strings.HasPrefix(l, "[") && strings.Contains(l, "]"):
			table = strings.TrimSpace(l[1:strings.Index(l, "]")])
		default:
			i := strings.IndexByte(l, '=')
			if i <= 0 || l[0] == '#' {
				continue
			}
			k := strings.Trim(strings.TrimSpace(l[:i]), `"'`)
			if table == "" {
				if _, ok := p.tops[k]; !ok {
					p.tops[k] = n + 1
				}
				continue
			}
			ks := p.keys[table]
			if len(ks) == 0 {
				continue
			}
			if _, ok := ks[len(ks)-1][k]; !ok {
				ks[len(ks)-1][k] = n + 1
			}
			continue
		}
		p.tables[table] = append(p.tables[table], n+1)
		p.keys[table] = append(p.keys[table], map[string]int{})
	}
	return p
}

func (p positions) top(k string) int { return p.tops[k] }

func (p positions) table(name string, i int) int {
	if t := p.tables[name]; i < len(t) {
		return t[i]
	}
	return 0
}

func (p positions) inTable(name string, i int, k string) int {
	if ks := p.keys[name]; i < len(ks) {
		if l, ok := ks[i][k]; ok {
			return l
		}
	}
	return p.table(name, i)
}

// key finds an undecoded key: a top-level key, or a key of the last table
// of that name that has it.
func (p positions) key(k toml.Key) int {
	if len(k) == 1 {
		if l, ok := p.tops[k[0]]; ok {
			return l
		}
		return p.table(k[0], 0)
	}
	ks := p.keys[k[0]]
	for i := range slices.Backward(ks) {
		if l, ok := ks[i][k[len(k)-1]]; ok {
			return l
		}
	}
	return p.table(k[0], 0)
}
