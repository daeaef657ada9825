package robotstxt_test

import (
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
)

// refDecide is a slow, obviously-correct model of Google's matcher, written
// for the tests from robots.cc's documented behaviour: it streams the lines
// once per query, as Google does, and matches each rule with a dynamic
// program over (pattern, path) positions. It shares only the line reader
// (Lines) with the package, whose output the other tests pin.
func refDecide(body []byte, agent, path string) (allowed bool, line int) {
	if path == "/robots.txt" || strings.HasPrefix(path, "/robots.txt?") {
		return true, 0
	}
	type m struct{ prio, line int }
	none := m{-1, 0}
	allowS, disS, allowG, disG := none, none, none, none
	seenGlobal, seenSpecific, everSpecific, sep := false, false, false, false
	for l := range robotstxt.Lines(body, robotstxt.Options{MaxBytes: -1}) {
		switch l.Key {
		case robotstxt.KeyUserAgent:
			if sep {
				seenGlobal, seenSpecific, sep = false, false, false
			}
			v := l.Value
			if len(v) >= 1 && v[0] == '*' && (len(v) == 1 || strings.ContainsRune(" \t\n\v\f\r", rune(v[1]))) {
				seenGlobal = true
				continue
			}
			n := 0
			for n < len(v) && (v[n] >= 'a' && v[n] <= 'z' || v[n] >= 'A' && v[n] <= 'Z' || v[n] == '-' || v[n] == '_') {
				n++
			}
			if strings.EqualFold(v[:n], agent) {
				seenSpecific, everSpecific = true, true
			}
		case robotstxt.KeyAllow, robotstxt.KeyDisallow:
			if !seenGlobal && !seenSpecific {
				continue
			}
			sep = true
			pat := refEscape(l.Value)
			try := []string{pat}
			if l.Key == robotstxt.KeyAllow {
				if s := strings.LastIndexByte(pat, '/'); s >= 0 && strings.HasPrefix(pat[s:], "/index.htm") {
					try = append(try, pat[:s+1]+"$")
				}
			}
			for _, p := range try {
				if !refMatch(path, p) {
					continue
				}
				prio := len(p)
				set := &disG
				switch {
				case l.Key == robotstxt.KeyAllow && seenSpecific:
					set = &allowS
				case l.Key == robotstxt.KeyAllow:
					set = &allowG
				case seenSpecific:
					set = &disS
				}
				if set.prio < prio {
					*set = m{prio, l.Num}
				}
				break // Google tries the index.html form only when the rule itself fails
			}
		}
	}
	higher := func(a, b m) m {
		if a.prio > b.prio {
			return a
		}
		return b
	}
	if allowS.prio > 0 || disS.prio > 0 {
		return !(disS.prio > allowS.prio), higher(disS, allowS).line
	}
	if everSpecific {
		return true, higher(disS, allowS).line
	}
	if allowG.prio > 0 || disG.prio > 0 {
		return !(disG.prio > allowG.prio), higher(disG, allowG).line
	}
	return true, higher(disG, allowG).line
}

func refEscape(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '%' && i+2 < len(v) && isHexRef(v[i+1]) && isHexRef(v[i+2]) {
			b.WriteString(strings.ToUpper(v[i : i+3]))
			i += 2
		} else if c >= 0x80 {
			b.WriteString("%" + strings.ToUpper(string("0123456789abcdef"[c>>4])+string("0123456789abcdef"[c&15])))
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHexRef(c byte) bool { return strings.IndexByte("0123456789abcdefABCDEF", c) >= 0 }

// refMatch: does pattern match a prefix of path ("*" any run, "$" at the
// very end anchors)? ok[i][j]: pattern[:i] can match path[:j].
func refMatch(path, pat string) bool {
	anchored := strings.HasSuffix(pat, "$")
	if anchored {
		pat = pat[:len(pat)-1]
	}
	ok := make([][]bool, len(pat)+1)
	for i := range ok {
		ok[i] = make([]bool, len(path)+1)
	}
	ok[0][0] = true
	for i := 1; i <= len(pat); i++ {
		for j := 0; j <= len(path); j++ {
			if pat[i-1] == '*' {
				ok[i][j] = ok[i-1][j] || (j > 0 && ok[i][j-1])
			} else {
				ok[i][j] = j > 0 && ok[i-1][j-1] && path[j-1] == pat[i-1]
			}
		}
	}
	if anchored {
		return ok[len(pat)][len(path)]
	}
	for j := 0; j <= len(path); j++ {
		if ok[len(pat)][j] {
			return true
		}
	}
	return false
}

func FuzzMatch(f *testing.F) {
	for _, v := range loadPeerVectors(f) {
		if strings.HasPrefix(v.URL, "http") && len(v.Robots) < 4096 {
			i := strings.Index(v.URL[8:], "/")
			p := "/"
			if i >= 0 {
				p = v.URL[8+i:]
			}
			f.Add(v.body(f), v.Agent, p)
		}
	}
	f.Add([]byte("User-agent: *\nDisallow: /*a*a*b$\nAllow: /aa\n"), "x", "/aaab")
	f.Fuzz(func(t *testing.T, body []byte, agent, path string) {
		if len(path) == 0 || path[0] != '/' || strings.ContainsAny(path, "#") || len(path) > 300 || len(body) > 4096 {
			return
		}
		if strings.ContainsAny(agent, "/;(") {
			return // full User-Agent reduction is rep's addition, not Google's
		}
		wantA, wantL := refDecide(body, agent, path)
		f := robotstxt.ParseWith(body, robotstxt.Options{MaxBytes: -1})
		d := f.Check(agent, "http://h"+path)
		if d.Allowed != wantA || d.Rule.Line != wantL {
			t.Fatalf("agent %q path %q: got allowed=%v line=%d (%s), reference allowed=%v line=%d\n%q",
				agent, path, d.Allowed, d.Rule.Line, d.Rule, wantA, wantL, body)
		}
		if got := f.Matcher(agent).Allowed("http://h" + path); got != wantA {
			t.Fatalf("agent %q path %q: Allowed says %v, reference %v\n%q", agent, path, got, wantA, body)
		}
	})
}

func FuzzParse(f *testing.F) {
	for _, v := range loadPeerVectors(f) {
		f.Add(v.body(f))
	}
	f.Add([]byte("\xef\xbbUser-agent: a\rDisallow /x\r\n\x00Allow: /\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, o := range []robotstxt.Options{{}, {Profile: robotstxt.RFC9309}, {MaxBytes: 64}} {
			file := robotstxt.ParseWith(data, o)
			n := 0
			for range robotstxt.Lines(data, o) {
				n++
			}
			for _, g := range file.Groups() {
				for _, r := range g.Rules {
					if r.Line < 1 || r.Line > n {
						t.Fatalf("rule line %d outside 1..%d", r.Line, n)
					}
				}
			}
			for _, a := range append(file.Agents(), "*", "x") {
				ag := file.Matcher(a)
				for _, u := range []string{"/", "/a", "https://h/x?y", string(data[:min(len(data), 40)])} {
					d := ag.Check(u)
					if d.Rule.Line < 0 || d.Rule.Line > n {
						t.Fatalf("decision line %d outside 0..%d", d.Rule.Line, n)
					}
				}
			}
		}
	})
}
