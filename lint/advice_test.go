package lint_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/lint"
)

// TestAdviceCorrectSetups: setups that do what their authors mean draw no
// warning or error, whatever they hold for one parser alone.
func TestAdviceCorrectSetups(t *testing.T) {
	for _, tc := range []struct{ name, robots string }{
		{"AdSense and AdsBot groups (Google's documented pattern)", "User-agent: *\nDisallow: /private/\nDisallow: /search\n\nUser-agent: Mediapartners-Google\nDisallow:\n\nUser-agent: AdsBot-Google\nUser-agent: AdsBot-Google-Mobile\nDisallow: /checkout/\n"},
		{"AI crawlers blocked on purpose", "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nUser-agent: CCBot\nUser-agent: ClaudeBot\nDisallow: /\n"},
		{"control tokens", "User-agent: *\nDisallow: /private/\n\nUser-agent: Google-Extended\nUser-agent: Applebot-Extended\nDisallow: /\n\nUser-agent: Google-Extended\nAllow: /press/\n"},
		{"non-Google names with digits and versions", "User-agent: MJ12bot\nUser-agent: 008\nUser-agent: Mediapartners-Google*\nUser-agent: Baiduspider+\nUser-agent: Googlebot/2.1\nDisallow: /\n\nUser-agent: *\nDisallow: /private/\n"},
		{"an allow-list for one search crawler", "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow:\n"},
		{"an allow-everything template with rules below it", "User-agent: *\nDisallow:\nAllow: /\nDisallow: /contest\n"},
		{"a retired crawler's group nobody inherits", "User-agent: *\nDisallow: /private/\n\nUser-agent: bingbot\nDisallow: /private/\n\nUser-agent: msnbot\nDisallow: /\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := lint.Run([]byte(tc.robots), lint.Options{})
			for _, f := range r.Findings {
				if f.Severity >= lint.Warning {
					t.Errorf("%v", f)
				}
			}
		})
	}
}

// TestAdviceRealMistakes: mistakes still draw a warning or error that
// names the crawler misled.
func TestAdviceRealMistakes(t *testing.T) {
	for _, tc := range []struct{ name, robots, code, names string }{
		{"the Google merge trap", "User-agent: msnbot\nCrawl-delay: 5\n\nUser-agent: slurp\nCrawl-delay: 12\nDisallow: /cgi-bin/\n", "merged-group", "msnbot"},
		{"a Googlebot group that forgets the * rules", "User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /search\n", "star-overridden", "Googlebot"},
		{"a group of only Crawl-delay for bingbot", "User-agent: *\nDisallow: /private/\n\nUser-agent: bingbot\nCrawl-delay: 1\n", "star-overridden", "bingbot"},
		{"a retired crawler's group that bingbot inherits", "User-agent: *\nDisallow: /private/\n\nUser-agent: msnbot\nDisallow: /tmp/\n", "star-overridden", "bingbot"},
		{"a name Googlebot reads as its own", "User-agent: Googlebot2\nDisallow: /\n", "invalid-agent", "Googlebot obeys"},
		{"two crawlers on one line", "User-agent: Googlebot, bingbot\nDisallow: /x\n", "invalid-agent", "bingbot does not obey"},
		{"a noindex line in robots.txt", "User-agent: *\nNoindex: /private/\n", "noindex-directive", "Google"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := lint.Run([]byte(tc.robots), lint.Options{})
			i := slices.IndexFunc(r.Findings, func(f lint.Finding) bool { return f.Code == tc.code && f.Severity >= lint.Warning })
			if i < 0 {
				t.Fatalf("no %s warning: %v", tc.code, r.Findings)
			}
			if !strings.Contains(r.Findings[i].Message, tc.names) {
				t.Errorf("%v does not name %q", r.Findings[i], tc.names)
			}
		})
	}
}

// TestInlineSuppression: a comment on the line or on the comment lines
// right above it suppresses the codes it names, or every code when it
// names none; a blank line ends its reach.
func TestInlineSuppression(t *testing.T) {
	robots := "User-agent: *\nDisallow: /admin # rep:ignore private-path\nDisallow: /private # rep:ignore\n# rep:ignore shadowed-rule\n# rep:ignore: star-overridden\nUser-agent: Googlebot\nDisallow: /x\n\n# rep:ignore star-overridden\n\nUser-agent: bingbot\nDisallow: /y\n"
	r := lint.Run([]byte(robots), lint.Options{})
	got := map[string]lint.Suppression{}
	for _, f := range r.Findings {
		got[f.Code+" "+strings.Split(f.Message, " ")[1]] = f.Suppressed
	}
	for k, want := range map[string]lint.Suppression{
		"private-path /admin'":        lint.SuppressedInline,
		"private-path /private'":      lint.SuppressedInline,
		"star-overridden 'Googlebot'": lint.SuppressedInline,
		"star-overridden 'bingbot'":   "",
	} {
		if s, ok := got[k]; !ok || s != want {
			t.Errorf("%s: suppressed %q (present %v), want %q; all: %v", k, s, ok, want, got)
		}
	}
	if n := r.Count(lint.Warning); n != 1 {
		t.Errorf("Count(warning) = %d, want 1 (bingbot's)", n)
	}
}

// TestApply: disabled codes go, severities change, an -enable wins over a
// config's disable, and a baseline matches by code and line text, once
// per entry, wherever the line has moved.
func TestApply(t *testing.T) {
	old := "User-agent: *\nDisallow: /admin\n\nUser-agent: bingbot\nDisallow: /y\n"
	base := lint.Run([]byte(old), lint.Options{}).Baseline()
	if len(base.Findings) != 2 {
		t.Fatalf("baseline %+v", base)
	}
	moved := "# a comment added\nUser-agent: *\nDisallow: /admin\nDisallow: /admin/old\n\nUser-agent: bingbot\nDisallow: /y\n"
	r := lint.Run([]byte(moved), lint.Options{})
	if n := r.Apply(lint.Config{}, base); n != 2 {
		t.Errorf("baseline accepted %d, want 2", n)
	}
	var fresh []string
	for _, f := range r.Findings {
		if f.Suppressed == "" {
			fresh = append(fresh, f.Code+":"+f.Message[:strings.Index(f.Message, " ")])
		}
	}
	if len(fresh) != 1 || !strings.HasPrefix(fresh[0], "private-path:") {
		t.Errorf("new findings %v, want the one private-path of line 4", fresh)
	}

	cfg := lint.Config{Disable: []string{"private-path", "star-overridden"}}.Merge(lint.Config{Enable: []string{"star-overridden"}, Severity: map[string]lint.Severity{"star-overridden": lint.Error}})
	r = lint.Run([]byte(old), lint.Options{})
	r.Apply(cfg, nil)
	if len(r.Findings) != 1 || r.Findings[0].Code != "star-overridden" || r.Findings[0].Severity != lint.Error {
		t.Errorf("findings %v, want star-overridden as an error only", r.Findings)
	}
	if err := (lint.Config{Disable: []string{"no-such-code"}}).Check(); err == nil {
		t.Error("an unknown code passes Check")
	}
}
