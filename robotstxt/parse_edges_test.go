package robotstxt_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
)

// TestOutsideAnyGroup: lines before the first user-agent line belong to no
// group, which Unknown.Group and Extension.Group say with -1 (their
// documented value); the lines after it belong to group 0, 1, ...
// (RFC 9309 §2.2.4: other records do not end a group).
func TestOutsideAnyGroup(t *testing.T) {
	f := robotstxt.Parse([]byte("Noindex: /a\nHost: example.com\nCrawl-delay: 1\nUser-agent: x\nNoarchive: /b\nCrawl-delay: 2\nDisallow: /\nUser-agent: y\nCrawl-delay: 3\n"))
	var unknown []int
	for _, u := range f.Unknown() {
		unknown = append(unknown, u.Line, u.Group)
	}
	if want := []int{1, -1, 5, 0}; !slices.Equal(unknown, want) {
		t.Errorf("unknown (line, group): %v, want %v", unknown, want)
	}
	var exts []int
	for _, e := range f.Extensions() {
		exts = append(exts, e.Line, e.Group)
	}
	if want := []int{2, -1, 3, -1, 6, 0, 9, 1}; !slices.Equal(exts, want) {
		t.Errorf("extensions (line, group): %v, want %v", exts, want)
	}
}

// TestNotAKey: keys are matched case-insensitively (robots.cc compares
// with absl's ASCII case folding), and no other byte stands in for a
// letter: "@llow" and "`llow" differ from "allow" by the bits that ASCII
// case folding sets, and "allov" from "allow" by its lowest bit, yet they
// are unknown keys, so those lines are not rules.
func TestNotAKey(t *testing.T) {
	const deny = "User-agent: *\nDisallow: /\n"
	runMatchCases(t, []matchCase{
		{"@llow", deny + "@llow: /x\n", "a", "/x", false, 2, robotstxt.RuleMatched},
		{"`llow", deny + "`llow: /x\n", "a", "/x", false, 2, robotstxt.RuleMatched},
		{"ALLOW", deny + "ALLOW: /x\n", "a", "/x", true, 3, robotstxt.RuleMatched},
		{"allox", deny + "allox: /x\n", "a", "/x", false, 2, robotstxt.RuleMatched},
		{"allov", deny + "allov: /x\n", "a", "/x", false, 2, robotstxt.RuleMatched},
		{"user-agext", "User-agext: a\nDisallow: /x\n", "a", "/x", true, 0, robotstxt.NoRuleMatched},
		{"user-agenx", "User-agenx: a\nDisallow: /x\n", "a", "/x", true, 0, robotstxt.NoRuleMatched},
		{"allo and a byte above 0x80", deny + "allo\xee: /x\n", "a", "/x", false, 2, robotstxt.RuleMatched},
		{"d@sallow", "User-agent: *\nd@sallow: /x\n", "a", "/x", true, 0, robotstxt.NoRuleMatched},
		{"DISALLOW", "User-agent: *\nDISALLOW: /x\n", "a", "/x", false, 2, robotstxt.RuleMatched},
	})
}

// TestLooksLikeARule: lines that start like "Disallow:" or "Allow:" but
// are not rules spelled exactly, so the general reading decides them as
// robots.cc does: a key with neither ':' nor a blank after it is no
// key-value line at all, and a file may end right after the key.
func TestLooksLikeARule(t *testing.T) {
	runMatchCases(t, []matchCase{
		{"file ends after Disallow", "User-agent: *\nDisallow", "a", "/x", true, 0, robotstxt.NoRuleMatched},
		{"file ends after Allow", "User-agent: *\nDisallow: /\nAllow", "a", "/x", false, 2, robotstxt.RuleMatched},
		// Google reads a key by its prefix: "Allowx" is Allow, and its
		// value is what follows the ':'.
		{"key by prefix, no blank", "User-agent: *\nDisallow: /\nAllowx:/x\n", "a", "/x", true, 3, robotstxt.RuleMatched},
		{"key by prefix, no blank, disallow", "User-agent: *\nDisallowx:/x\n", "a", "/x", false, 2, robotstxt.RuleMatched},
		// The comment's ':' is 8 (5) bytes before the next line.
		{"no separator after Disallow", "User-agent: *\n# see:abcdef\nDisallowX/y\n", "a", "/y", true, 0, robotstxt.NoRuleMatched},
		{"no separator after Allow", "User-agent: *\nDisallow: /\n# s:abc\nAllowX/y\n", "a", "/y", false, 2, robotstxt.RuleMatched},
	})
}

// TestDiagnosticPlaces pins where each diagnostic points: its line, its
// 1-based byte column and its severity. Columns count bytes from the
// start of the line, leading blanks included.
func TestDiagnosticPlaces(t *testing.T) {
	type place struct {
		line, col int
		sev       robotstxt.Severity
	}
	long := "/" + strings.Repeat("a", 20000)
	tests := []struct {
		name, in, code string
		want           place
	}{
		// Google keeps the first 2083*8-1 = 16663 bytes of a line: the
		// cut starts at byte 16664.
		{"line too long", "User-agent: *\nDisallow: " + long + "\n", "line-too-long", place{2, 16664, robotstxt.Warning}},
		{"nul byte", "User-agent: *\nDisallow: /x\x00yz\n", "nul-byte", place{2, 13, robotstxt.Error}},
		{"nul byte after blanks", "User-agent: *\n  Disallow: /x\x00\n", "nul-byte", place{2, 15, robotstxt.Error}},
		{"no separator", "User-agent: *\n  foo\n", "no-separator", place{2, 1, robotstxt.Warning}},
		{"missing colon", "User-agent: *\nDisallow /x\n", "missing-colon", place{2, 9, robotstxt.Warning}},
		{"missing colon after blanks", "User-agent: *\n Disallow /x\n", "missing-colon", place{2, 10, robotstxt.Warning}},
		{"misspelled key", "User-agent: *\n  Dissallow: /x\n", "misspelled-key", place{2, 3, robotstxt.Warning}},
		{"invalid agent", "User-agent: Foo/1.0\nDisallow: /x\n", "invalid-agent", place{1, 16, robotstxt.Warning}},
		{"invalid agent on a later line", "User-agent: *\nDisallow: /\nUser-agent: Foo/1.0\n", "invalid-agent", place{3, 16, robotstxt.Warning}},
		{"invalid agent, no token", "User-agent:  /x\nDisallow: /x\n", "invalid-agent", place{1, 14, robotstxt.Warning}},
		{"rule outside group", "  Disallow: /x\nUser-agent: *\n", "rule-outside-group", place{1, 3, robotstxt.Warning}},
		{"rule outside group on a later line", "# c\n  Disallow: /x\nUser-agent: *\n", "rule-outside-group", place{2, 3, robotstxt.Warning}},
		{"invalid value", "User-agent: *\nCrawl-delay:  soon\n", "invalid-value", place{2, 15, robotstxt.Warning}},
		{"extension outside group", " Crawl-delay: 5\nUser-agent: *\n", "extension-outside-group", place{1, 2, robotstxt.Info}},
		{"extension outside group on a later line", "# c\n Crawl-delay: 5\nUser-agent: *\n", "extension-outside-group", place{2, 2, robotstxt.Info}},
		{"invalid utf-8", "User-agent: *\nDisallow: /\xffx\n", "invalid-utf8", place{2, 12, robotstxt.Warning}},
		{"invalid utf-8 after a CR line end", "User-agent: *\rDisallow: /a\rAllow: /é\xe9\n", "invalid-utf8", place{3, 11, robotstxt.Warning}},
		{"invalid utf-8 on the first line", "Disallow: /\xff\nUser-agent: *\n", "invalid-utf8", place{1, 12, robotstxt.Warning}},
		{"invalid utf-8 after a leading line end", "\nUser-agent: *\nDisallow: /\xff\n", "invalid-utf8", place{3, 12, robotstxt.Warning}},
		{"invalid utf-8 after a CRLF line end", "User-agent: *\r\nDisallow: /\xff\n", "invalid-utf8", place{2, 12, robotstxt.Warning}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := robotstxt.Parse([]byte(tt.in))
			var got []place
			for _, d := range f.Diagnostics() {
				if d.Code == tt.code {
					got = append(got, place{d.Line, d.Column, d.Severity})
				}
			}
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("%s: %v, want one at %v (all: %v)", tt.code, got, tt.want, f.Diagnostics())
			}
		})
	}
}

// TestCleanFileNoDiagnostics: a file written as the RFC and the engines'
// documentation write it draws no diagnostic at all.
func TestCleanFileNoDiagnostics(t *testing.T) {
	in := "User-agent: *\nDisallow: /x\nAllow: /y\nCrawl-delay: 5\nRequest-rate: 1/10s\nVisit-time: 0100-0400\n" +
		"Clean-param: a /x\nContent-Signal: ai-train=no\nContent-Usage: train-ai=n\nSitemap: https://example.com/s.xml\nHost: example.com\n"
	if d := robotstxt.Parse([]byte(in)).Diagnostics(); len(d) != 0 {
		t.Errorf("diagnostics on a clean file: %v", d)
	}
}

// TestMessageQuotesAtMost80Bytes: a message quotes at most the first 80
// bytes of a value, cut before a UTF-8 sequence rather than inside it, and
// marks the cut with "…".
func TestMessageQuotesAtMost80Bytes(t *testing.T) {
	x76 := strings.Repeat("x", 76)
	tests := []struct{ name, agent, quoted string }{
		{"80 bytes", "Foo/" + x76, "Foo/" + x76},
		{"81 bytes", "Foo/" + x76 + "y", "Foo/" + x76 + "…"},
		{"cut inside a UTF-8 sequence", "Foo/" + x76[1:] + "é", "Foo/" + x76[1:] + "…"},
		{"é ends at byte 80", "Foo/" + x76[2:] + "éz", "Foo/" + x76[2:] + "é…"},
		{"no rune start in the first 81 bytes", strings.Repeat("\x80", 100), "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := robotstxt.Parse([]byte("User-agent: " + tt.agent + "\nDisallow: /\n"))
			var msg string
			for _, d := range f.Diagnostics() {
				if d.Code == "invalid-agent" {
					msg = d.Message
				}
			}
			if want := "user-agent '" + tt.quoted + "' is not"; !strings.HasPrefix(msg, want) {
				t.Errorf("message %q, want it to start %q", msg, want)
			}
		})
	}
}

// TestInvalidAgentMessage: the invalid-agent message says what Google
// reads the value as: the token before the first byte outside [A-Za-z_-],
// or an empty name when there is none.
func TestInvalidAgentMessage(t *testing.T) {
	for in, want := range map[string]string{
		"User-agent: Foo/1.0\n": "user-agent 'Foo/1.0' is not a product token: Google reads it as 'Foo'",
		"User-agent: /x\n":      "user-agent '/x' is not a product token: Google reads it as an empty name that no crawler has",
	} {
		var got []string
		for _, d := range robotstxt.Parse([]byte(in)).Diagnostics() {
			got = append(got, d.Message)
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("%q: messages %q, want [%q]", in, got, want)
		}
	}
}

// TestPatternsByProfile: a rule's '*' and final '$' keep their meaning
// under both profiles (RFC 9309 §2.2.3), and Google's "Allow:
// /index.html" also allows its directory, the root included (robots.cc
// adds the rule "/$" for "/index.html").
func TestPatternsByProfile(t *testing.T) {
	rfc := robotstxt.ParseWith([]byte("User-agent: *\nDisallow: /*.pdf$\nDisallow: /a*b\n"), robotstxt.Options{Profile: robotstxt.RFC9309}).Matcher("x")
	for _, tt := range []struct {
		url   string
		allow bool
		line  int
	}{
		{"/x/a.pdf", false, 2},
		{"/a.pdf?x", true, 0},
		{"/a-to-b", false, 3},
		{"/a", true, 0},
	} {
		if d := rfc.Check(tt.url); d.Allowed != tt.allow || d.Rule.Line != tt.line {
			t.Errorf("rfc9309 %s: allowed %v line %d, want %v %d", tt.url, d.Allowed, d.Rule.Line, tt.allow, tt.line)
		}
	}
	runMatchCases(t, []matchCase{
		{"index.html at the root", "User-agent: *\nDisallow: /\nAllow: /index.html\n", "x", "/", true, 3, robotstxt.IndexHTML},
		{"index.htm at the root", "User-agent: *\nDisallow: /\nAllow: /index.htm\n", "x", "/", true, 3, robotstxt.IndexHTML},
		{"index.html at the root, other paths", "User-agent: *\nDisallow: /\nAllow: /index.html\n", "x", "/a", false, 2, robotstxt.RuleMatched},
	})
}

// TestSizeLimitDiagnostic: a file over the limit is read up to its last
// line end within the limit (RFC 9309 §2.5), and the diagnostic points at
// the first line not read.
func TestSizeLimitDiagnostic(t *testing.T) {
	in := "User-agent: *\nDisallow: /a\nDisallow: /b\n" // 40 bytes
	f := robotstxt.ParseWith([]byte(in), robotstxt.Options{MaxBytes: 30})
	want := robotstxt.Diagnostic{Line: 3, Column: 1, Severity: robotstxt.Error, Code: "size-limit",
		Message: "file is 40 bytes; only the first 27 (up to the last line end within the limit) are read",
		Hint:    "keep robots.txt under 500 KiB: crawlers ignore everything after the limit (RFC 9309 §2.5)"}
	if d := f.Diagnostics(); len(d) != 1 || d[0] != want {
		t.Errorf("diagnostics %+v, want [%+v]", d, want)
	}
	if !f.Truncated() || f.ParsedBytes() != 27 || f.Size() != 40 {
		t.Errorf("truncated %v, parsed %d of %d; want true, 27 of 40", f.Truncated(), f.ParsedBytes(), f.Size())
	}
}
