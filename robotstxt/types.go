package robotstxt

import (
	"strings"

	"github.com/rep-toolkit/rep/internal/enum"
)

// Profile selects whose reading of robots.txt a [File] follows.
type Profile uint8

const (
	// Google answers exactly as Google's open-source parser (google/robotstxt)
	// does, plus the RFC's "/robots.txt is always allowed".
	Google Profile = iota
	// RFC9309 answers as RFC 9309 says where Google departs from it; see the
	// package documentation for the list.
	RFC9309
)

// String returns "google" or "rfc9309".
func (p Profile) String() string {
	switch p {
	case Google:
		return "google"
	case RFC9309:
		return "rfc9309"
	}
	return "Profile(" + itoa(int(p)) + ")"
}

// ParseProfile turns "google" or "rfc9309" (any case) into a Profile.
func ParseProfile(s string) (Profile, bool) {
	switch strings.ToLower(s) {
	case "google", "":
		return Google, true
	case "rfc9309", "rfc":
		return RFC9309, true
	}
	return Google, false
}

// DefaultMaxBytes is the parsing limit: RFC 9309 §2.5 requires at least
// 500 kibibytes and Google documents exactly that.
const DefaultMaxBytes = 500 << 10

// MaxLineBytes is where Google's parser cuts a line (2083 × 8 bytes including
// its terminating NUL): longer lines keep their first MaxLineBytes bytes.
const MaxLineBytes = 2083*8 - 1

// MaxParseBytes is the most rep reads of any file, whatever Options.MaxBytes
// says: 64 MiB, 128 times what crawlers read. It bounds line numbers so that
// a parsed rule stays 16 bytes.
const MaxParseBytes = 64 << 20

// Options configure [ParseWith]. The zero value is the Google profile with
// the default size limit.
type Options struct {
	Profile Profile
	// MaxBytes is the size limit; 0 means DefaultMaxBytes and a negative
	// value means MaxParseBytes, the largest limit. Parsing stops at the last
	// line end at or before the limit.
	MaxBytes int
	// CrawlDelayEndsGroup makes a Crawl-delay line a member of its group,
	// as Allow and Disallow lines are: a User-agent line after it starts a
	// new group. That is how the engines that read Crawl-delay (Bing,
	// Yandex) group a file, and Python's urllib.robotparser too, so that
	//
	//	User-agent: msnbot
	//	Crawl-delay: 5
	//
	//	User-agent: slurp
	//	Crawl-delay: 12
	//
	// gives each crawler its own delay. Off (the default), groups are
	// Google's: its parser reads no Crawl-delay, so nothing separates the
	// two User-agent lines and they form one group.
	CrawlDelayEndsGroup bool
}

func (o Options) maxBytes() int {
	switch {
	case o.MaxBytes == 0:
		return DefaultMaxBytes
	case o.MaxBytes < 0 || o.MaxBytes > MaxParseBytes:
		return MaxParseBytes
	}
	return o.MaxBytes
}

// Rule is one allow or disallow line.
type Rule struct {
	Allow   bool
	Pattern string // the value as written in the file (comment and blanks removed)
	Line    int    // 1-based line number; 0 means "no rule"
}

// String renders the rule as a robots.txt line, e.g. "Disallow: /private".
// The zero Rule renders as "".
func (r Rule) String() string {
	if r.Line == 0 {
		return ""
	}
	if r.Allow {
		return "Allow: " + r.Pattern
	}
	return "Disallow: " + r.Pattern
}

// Reason says why a [Decision] came out as it did.
type Reason uint8

const (
	// NoRuleMatched: no rule of the chosen group matched, or there was no
	// group for the agent at all; the URL is allowed.
	NoRuleMatched Reason = iota
	// RuleMatched: Rule is the longest matching rule (allow wins a tie).
	RuleMatched
	// EmptyRuleMatched: the only match was a rule with an empty value
	// ("Disallow:"), which matches everything with priority zero and so never
	// blocks; Google still reports its line.
	EmptyRuleMatched
	// IndexHTML: the URL ends in "/" and Rule allows that directory's
	// "index.html" or "index.htm", which Google reads as allowing "/"
	// (Google profile only).
	IndexHTML
	// RobotsTxt: the path is "/robots.txt", always allowed (RFC 9309 §2.2.2).
	RobotsTxt
	// Unavailable: no file was read because robots.txt is unavailable (a
	// 4xx, RFC 9309 §2.3.1.3; too many or unfollowable redirects, as
	// Google reads them): there are no restrictions, so the URL is allowed.
	// Set by a fetcher's answer (package rep), never by Check.
	Unavailable
	// Unreachable: robots.txt could not be fetched (a 5xx or 429, a network
	// error, an address refused by the fetcher's guard): everything is
	// disallowed (RFC 9309 §2.3.1.4). Set by a fetcher's answer (package
	// rep), never by Check.
	Unreachable
)

var reasonText = [...]string{
	NoRuleMatched:    "no rule matched",
	RuleMatched:      "longest matching rule",
	EmptyRuleMatched: "only an empty rule matched; an empty value never blocks",
	IndexHTML:        "an allowed index.html also allows its directory",
	RobotsTxt:        "/robots.txt is always allowed (RFC 9309 §2.2.2)",
	Unavailable:      "robots.txt is unavailable: no restrictions (RFC 9309 §2.3.1.3)",
	Unreachable:      "robots.txt is unreachable: everything disallowed (RFC 9309 §2.3.1.4)",
}

// String explains the reason in a few words.
func (r Reason) String() string {
	if int(r) < len(reasonText) {
		return reasonText[r]
	}
	return "Reason(" + itoa(int(r)) + ")"
}

// Via says how the group an agent obeys was chosen.
type Via uint8

const (
	// ViaNone: no group applies (no group names the agent and there is no
	// "*" group); everything is allowed.
	ViaNone Via = iota
	// ViaToken: groups naming the first product token asked for.
	ViaToken
	// ViaFallback: groups naming a later token of the fallback chain (e.g.
	// Googlebot for Googlebot-Image).
	ViaFallback
	// ViaStar: the "*" groups, because no group names any token asked for.
	ViaStar
	// ViaFetch: no group was chosen: robots.txt was unavailable or
	// unreachable, and that decided (see Reason). Set by a fetcher's
	// answer (package rep), never by File.Matcher.
	ViaFetch
)

var viaText = [...]string{
	ViaNone:     "no group names the agent and no * group applies to it",
	ViaToken:    "groups naming the agent",
	ViaFallback: "groups naming a fallback agent",
	ViaStar:     "the * group (no group names the agent)",
	ViaFetch:    "no group: how robots.txt was fetched decided",
}

// String explains the choice in a few words.
func (v Via) String() string {
	if int(v) < len(viaText) {
		return viaText[v]
	}
	return "Via(" + itoa(int(v)) + ")"
}

// GroupMatch is the group an agent obeys and why.
type GroupMatch struct {
	// Agent is the product token that selected the group, lower-cased, "*"
	// for the star group, "" when no group applies.
	Agent string
	Via   Via
	// Lines are the user-agent lines of every group merged into this one,
	// in file order (RFC 9309 §2.2.1: groups naming the same agent merge).
	Lines []int
}

// Decision is the answer to one query: the verdict and its evidence.
type Decision struct {
	Allowed bool
	// Rule is the deciding rule; its Line is 0 when no rule matched.
	Rule   Rule
	Reason Reason
	Group  GroupMatch
}

// Severity ranks a [Diagnostic].
type Severity uint8

// Severities, least first.
const (
	Info    Severity = iota // worth knowing; crawlers read the line as meant
	Warning                 // crawlers may read it otherwise than meant
	Error                   // crawlers ignore it or read it wrongly
)

var severityNames = enum.New[Severity]("Severity", "info", "warning", "error")

// String returns "info", "warning" or "error".
func (s Severity) String() string { return severityNames.String(s) }

// MarshalText encodes the severity as its String, so JSON says "warning".
func (s Severity) MarshalText() ([]byte, error) { return severityNames.Marshal(s) }

// UnmarshalText reads what MarshalText writes.
func (s *Severity) UnmarshalText(b []byte) error { return severityNames.Unmarshal(b, s) }

// Diagnostic is a problem found while parsing. Parsing never fails: each
// diagnostic says what was done with the line (used, cut, ignored).
type Diagnostic struct {
	Line     int // 1-based
	Column   int // 1-based byte column
	Severity Severity
	Code     string // stable, kebab-case, e.g. "missing-colon"
	Message  string
	Hint     string // what to change; may be empty
}

// String renders the diagnostic as "line:col: severity: [code] message".
func (d Diagnostic) String() string {
	return itoa(d.Line) + ":" + itoa(d.Column) + ": " + d.Severity.String() + ": [" + d.Code + "] " + d.Message
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
