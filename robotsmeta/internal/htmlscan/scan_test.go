package htmlscan_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/robotsmeta/internal/htmlscan"
	"golang.org/x/net/html"
)

// recorder writes down every call, with the position and the body state
// the Scanner reports at that moment.
type recorder struct {
	calls []string
	stop  string // a meta name whose Meta stops the scan
}

func (r *recorder) Meta(s *htmlscan.Scanner, a htmlscan.Attrs) bool {
	line, col := s.Pos()
	by, byLine, byCol := s.ImpliedBody()
	r.calls = append(r.calls, fmt.Sprintf("meta %s=%s at %d:%d body=%v implied=%q@%d:%d", a.Name, a.Content, line, col, s.InBody(), by, byLine, byCol))
	return a.Name == r.stop
}

func (r *recorder) Link(s *htmlscan.Scanner, a htmlscan.Attrs) {
	line, col := s.Pos()
	r.calls = append(r.calls, fmt.Sprintf("link %s rel=%q at %d:%d", a.Href, a.Rel, line, col))
}

func (r *recorder) Base(href string) { r.calls = append(r.calls, "base "+href) }

func (r *recorder) Region(k htmlscan.Kind, g htmlscan.Region) {
	r.calls = append(r.calls, fmt.Sprintf("region %d %s %q at %d:%d truncated=%v", k, g.Tag, g.Text, g.Line, g.Column, g.Truncated))
}

func (r *recorder) TooDeep(s *htmlscan.Scanner) {
	line, col := s.Pos()
	r.calls = append(r.calls, fmt.Sprintf("too deep at %d:%d", line, col))
}

func scan(t *testing.T, doc string, o htmlscan.Options, stop string) (*htmlscan.Scanner, []string, error) {
	t.Helper()
	r := &recorder{stop: stop}
	z := html.NewTokenizer(strings.NewReader(doc))
	s := htmlscan.New(z, r, o)
	err := s.Run()
	return s, r.calls, err
}

// TestHandlerCalls: the Handler hears of metas, links and <base> in
// document order with their positions, of regions when they end, and not
// of links or regions it did not ask for.
func TestHandlerCalls(t *testing.T) {
	doc := "<head><meta name=robots content=noindex>\n<base href=/b/><base href=/c/></head>\n" +
		"<div data-nosnippet>a  <a href=' /x ' rel=nofollow>b</a>\n</div><p class='x robots-nocontent'>c<meta name=googlebot content=none>"
	all := htmlscan.Options{Links: true, Snippets: true, MaxRegions: 10, MaxRegionText: 100}
	s, calls, err := scan(t, doc, all, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`meta robots=noindex at 1:7 body=false implied=""@0:0`,
		"base /b/",
		"base /c/",
		`link  /x  rel="nofollow" at 3:24`,
		`region 0 div "a b" at 3:1 truncated=false`,
		`meta googlebot=none at 4:38 body=true implied="<div>"@3:1`,
		`region 1 p "c" at 4:7 truncated=false`,
	}
	if strings.Join(calls, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}
	if s.Stopped() || s.Dropped() != 0 {
		t.Errorf("Stopped %v, Dropped %d", s.Stopped(), s.Dropped())
	}
	_, calls, _ = scan(t, doc, htmlscan.Options{}, "")
	for _, c := range calls {
		if strings.HasPrefix(c, "link") || strings.HasPrefix(c, "region") {
			t.Errorf("without Links and Snippets: %s", c)
		}
	}
}

// TestExplicitBody: after a <body> tag, ImpliedBody says nothing.
func TestExplicitBody(t *testing.T) {
	_, calls, _ := scan(t, "<p>x<body><meta name=a content=b>", htmlscan.Options{}, "")
	if want := `meta a=b at 1:11 body=true implied=""@0:0`; len(calls) != 1 || calls[0] != want {
		t.Errorf("calls %q, want %q", calls, want)
	}
}

// TestStop: a Meta that returns true ends the scan there.
func TestStop(t *testing.T) {
	s, calls, err := scan(t, "<meta name=a content=1><meta name=b content=2><meta name=c content=3>", htmlscan.Options{}, "b")
	if err != nil || !s.Stopped() || len(calls) != 2 {
		t.Errorf("err %v, Stopped %v, calls %q", err, s.Stopped(), calls)
	}
}

// TestLimits: regions past MaxRegions are counted per kind, region text
// is cut at MaxRegionText, nesting past MaxDepth is told once, and a
// token past the tokenizer's bound is Run's error.
func TestLimits(t *testing.T) {
	doc := strings.Repeat("<span data-nosnippet>abc</span><b class=robots-nocontent>de</b>", 3)
	s, calls, _ := scan(t, doc, htmlscan.Options{Snippets: true, MaxRegions: 2, MaxRegionText: 2}, "")
	if s.Dropped() != 2 || len(calls) != 4 || !strings.Contains(calls[0], `"ab" at 1:1 truncated=true`) || !strings.Contains(calls[1], `"de" at 1:32 truncated=false`) {
		t.Errorf("Dropped %d, calls %q", s.Dropped(), calls)
	}
	_, calls, _ = scan(t, strings.Repeat("<div>", htmlscan.MaxDepth+3), htmlscan.Options{}, "")
	if want := fmt.Sprintf("too deep at 1:%d", 5*htmlscan.MaxDepth+1); len(calls) != 1 || calls[0] != want {
		t.Errorf("calls %q, want %q", calls, want)
	}
	z := html.NewTokenizer(strings.NewReader("<meta name=" + strings.Repeat("a", 100) + ">"))
	z.SetMaxBuf(50)
	if err := htmlscan.New(z, &recorder{}, htmlscan.Options{}).Run(); !errors.Is(err, html.ErrBufferExceeded) {
		t.Errorf("Run: %v, want html.ErrBufferExceeded", err)
	}
}

// TestHasToken: space-separated tokens, ASCII case ignored.
func TestHasToken(t *testing.T) {
	for _, tc := range []struct {
		s, tok string
		want   bool
	}{
		{"nofollow", "nofollow", true}, {"ugc NoFollow", "nofollow", true}, {"a\tb\nc\fd\re", "d", true},
		{"nofollowed", "nofollow", false}, {"", "nofollow", false}, {"x  y", "", true},
	} {
		if got := htmlscan.HasToken(tc.s, tc.tok); got != tc.want {
			t.Errorf("HasToken(%q, %q) = %v", tc.s, tc.tok, got)
		}
	}
}
