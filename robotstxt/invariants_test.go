package robotstxt_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
)

// TestCorpusInvariants parses every real file of the corpus and checks what
// must hold for any input: no panic, every rule's line number points at that
// rule's text, sitemaps and extensions point at their lines, and parsing is
// deterministic.
func TestCorpusInvariants(t *testing.T) {
	files := readCorpus(t)
	if len(files) < 1600 {
		t.Fatalf("corpus has %d files, want ~1,613", len(files))
	}
	for name, data := range files {
		checkInvariants(t, name, data, robotstxt.Options{})
		checkInvariants(t, name, data, robotstxt.Options{Profile: robotstxt.RFC9309})
	}
}

func checkInvariants(t *testing.T, name string, data []byte, o robotstxt.Options) {
	t.Helper()
	f := robotstxt.ParseWith(data, o)
	lines := map[int]robotstxt.Line{}
	for l := range robotstxt.Lines(data, o) {
		lines[l.Num] = l
	}
	for gi, g := range f.Groups() {
		if len(g.Agents) == 0 || len(g.Agents) != len(g.AgentLines) || len(g.Agents) != len(g.Tokens) {
			t.Fatalf("%s: group %d has %d agents, %d lines, %d tokens", name, gi, len(g.Agents), len(g.AgentLines), len(g.Tokens))
		}
		for i, ln := range g.AgentLines {
			l := lines[ln]
			if l.Key != robotstxt.KeyUserAgent || l.Value != g.Agents[i] {
				t.Fatalf("%s: group %d agent %q says line %d, which is %q", name, gi, g.Agents[i], ln, l.Text)
			}
		}
		for _, r := range g.Rules {
			l := lines[r.Line]
			wantKey := robotstxt.KeyDisallow
			if r.Allow {
				wantKey = robotstxt.KeyAllow
			}
			if l.Key != wantKey || l.Value != r.Pattern {
				t.Fatalf("%s: rule %q says line %d, which is %q", name, r, r.Line, l.Text)
			}
			if !strings.Contains(l.Text, r.Pattern) {
				t.Fatalf("%s: line %d %q does not contain pattern %q", name, r.Line, l.Text, r.Pattern)
			}
		}
	}
	for _, s := range f.Sitemaps() {
		if l := lines[s.Line]; l.Key != robotstxt.KeySitemap || l.Value != s.URL {
			t.Fatalf("%s: sitemap %q says line %d, which is %q", name, s.URL, s.Line, l.Text)
		}
	}
	for _, e := range f.Extensions() {
		if l := lines[e.Line]; l.Key != e.Key || l.Value != e.Value {
			t.Fatalf("%s: extension %s says line %d, which is %q", name, e.Key, e.Line, l.Text)
		}
	}
	for _, u := range f.Unknown() {
		if l := lines[u.Line]; l.Key != robotstxt.KeyUnknown || l.KeyText != u.Key {
			t.Fatalf("%s: unknown %q says line %d, which is %q", name, u.Key, u.Line, l.Text)
		}
	}
	for _, d := range f.Diagnostics() {
		if d.Line < 1 || d.Column < 1 || d.Code == "" || d.Message == "" {
			t.Fatalf("%s: malformed diagnostic %+v", name, d)
		}
	}
	// Deterministic: a second parse answers the same.
	f2 := robotstxt.ParseWith(bytes.Clone(data), o)
	if !reflect.DeepEqual(f.Groups(), f2.Groups()) || !reflect.DeepEqual(f.Diagnostics(), f2.Diagnostics()) ||
		!reflect.DeepEqual(f.Sitemaps(), f2.Sitemaps()) || !reflect.DeepEqual(f.Extensions(), f2.Extensions()) {
		t.Fatalf("%s: parsing is not deterministic", name)
	}
	// Every rule of the file, checked as a URL, gets a decision whose rule
	// (if any) is a real rule of the agent's merged group.
	for _, agent := range append(f.Agents(), "ExampleBot") {
		a := f.Matcher(agent)
		inForce := map[robotstxt.Rule]bool{}
		for _, r := range a.Rules() {
			inForce[r] = true
		}
		for _, r := range a.Rules() {
			d := a.Check("https://example.com" + strings.ReplaceAll(r.Pattern, "*", "x"))
			if d.Rule.Line != 0 && !inForce[d.Rule] {
				t.Fatalf("%s: agent %s: deciding rule %+v is not in force", name, agent, d.Rule)
			}
		}
	}
}
