package robotsdiff

import (
	"fmt"
	"strings"

	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
)

// Witnesses returns the witness paths of one pattern (as written in a
// robots.txt rule or a Content-Usage path): the paths at its edges, where
// a rule written a little differently decides differently.
//
//   - the literal path it names, its '*' matching nothing ("/a*b" → "/ab")
//     and matching a byte ("/axb");
//   - one word past its end ("/search" → "/search-x", "/x.pdf$" →
//     "/x.pdf-x"): what a prefix reaches and a '$' stops;
//   - a slash past its end ("/search/"), unless it ends with one;
//   - its literal head one byte shorter ("/searc"), and without its
//     trailing slash ("/private/" → "/private"): what a narrower rule no
//     longer reaches;
//   - the directory it lies in ("/a/b" → "/a/").
//
// Paths are escaped as the parser escapes patterns, so the matcher
// compares like with like. A pattern that starts with neither '/' nor '*'
// is read as if it started with '/'.
func Witnesses(pattern string) []string {
	if pattern == "" {
		return nil
	}
	body := strings.TrimSuffix(pattern, "$")
	if !strings.HasPrefix(body, "/") {
		body = "/" + body
	}
	body = robotstxt.EscapePattern(body)
	segs := strings.Split(body, "*")
	w0 := strings.Join(segs, "")
	wx := strings.Join(segs, "x")
	out := []string{w0}
	add := func(s string) {
		for _, o := range out {
			if o == s {
				return
			}
		}
		out = append(out, s)
	}
	add(wx)
	if n := len(wx); n > 0 && isWordByte(wx[n-1]) {
		add(wx + "-x")
	} else {
		add(wx + "x")
	}
	if !strings.HasSuffix(wx, "/") {
		add(wx + "/")
	}
	head := segs[0]
	if len(head) > 1 {
		// One byte shorter, or one escape: "%C3%A9" goes whole.
		short := head[:len(head)-1]
		if n := len(head); n >= 4 && head[n-3] == '%' {
			short = head[:n-3]
		}
		add(short)
		if i := strings.LastIndexByte(short, '/'); i >= 0 {
			add(short[:i+1])
		}
	}
	return out
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// witnessPaths are the distinct witness paths of patterns, "/" first, at
// most max; cut is set when more were left out.
func witnessPaths(patterns []string, max int) (out []string, cut bool) {
	seen := map[string]bool{"/": true}
	out = append(out, "/")
	for _, p := range patterns {
		for _, w := range Witnesses(p) {
			if seen[w] {
				continue
			}
			if len(out) >= max {
				return out, true
			}
			seen[w] = true
			out = append(out, w)
		}
	}
	return out, false
}

// fetchChange compares two fetch outcomes: status, the case of the status
// table and its verdict, redirects, and whether the body is an HTML page.
func fetchChange(b, a *robotsfetch.Outcome) *FetchChange {
	if b == nil || a == nil {
		return nil
	}
	var what []string
	if b.Status != a.Status {
		what = append(what, fmt.Sprintf("status %s → %s", statusText(b), statusText(a)))
	}
	if b.Case != a.Case || b.Verdict != a.Verdict {
		what = append(what, fmt.Sprintf("%s (%s) → %s (%s)", b.Case, b.Case.Explain(), a.Case, a.Case.Explain()))
	}
	if fb, fa := finalURL(b), finalURL(a); fb != fa || len(b.Redirects) != len(a.Redirects) {
		switch {
		case len(b.Redirects) == 0:
			what = append(what, fmt.Sprintf("now redirected (%d hop(s)) to %s", len(a.Redirects), fa))
		case len(a.Redirects) == 0:
			what = append(what, fmt.Sprintf("no longer redirected (was to %s)", fb))
		default:
			what = append(what, fmt.Sprintf("redirect target %s → %s", fb, fa))
		}
	}
	if hb, ha := b.Has(robotsfetch.WarnHTML), a.Has(robotsfetch.WarnHTML); hb != ha {
		if ha {
			what = append(what, "now an HTML page, not a robots.txt: crawlers find no rule in it")
		} else {
			what = append(what, "no longer an HTML page")
		}
	}
	if len(what) == 0 {
		return nil
	}
	return &FetchChange{Before: b, After: a, What: what}
}

func statusText(o *robotsfetch.Outcome) string {
	if o.Status == 0 {
		if o.Error != "" {
			return "no answer (" + o.Error + ")"
		}
		return "no answer"
	}
	return fmt.Sprint(o.Status)
}

func finalURL(o *robotsfetch.Outcome) string {
	if o.FinalURL != "" {
		return o.FinalURL
	}
	return o.URL
}
