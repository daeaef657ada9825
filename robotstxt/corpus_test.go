package robotstxt_test

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/internal/testkit/corpus"
	"github.com/rep-toolkit/rep/robotstxt"
)

func readCorpus(t testing.TB) map[string][]byte { return corpus.Robots(t) }

// TestGoogleAnswers compares every verdict and deciding line with Google's
// C++ parser on the 24,312 URLs × 2 agents of the corpus. Google's library
// has no size limit, so the files are parsed without one here
// (docs.oracle.com is 853 KB); TestGoogleAnswersWithLimit measures what the
// default 500 KiB limit changes. The one difference by design is
// "/robots.txt", always allowed (RFC 9309 §2.2.2).
func TestGoogleAnswers(t *testing.T) {
	files := readCorpus(t)
	parsed := map[string]*robotstxt.File{}
	for name, b := range files {
		parsed[name] = robotstxt.ParseWith(b, robotstxt.Options{MaxBytes: -1})
	}
	fh, err := os.Open(corpus.Path(t, "google_answers.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n, bad, exempt := 0, 0, 0
	agents := map[string]map[string]*robotstxt.Matcher{}
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 5 {
			t.Fatalf("bad line %q", sc.Text())
		}
		agent, host, url := f[0], f[1], f[2]
		wantAllowed := f[3] == "1"
		wantLine, _ := strconv.Atoi(f[4])
		file, ok := parsed[host]
		if !ok {
			t.Fatalf("no corpus file for %s", host)
		}
		if agents[host] == nil {
			agents[host] = map[string]*robotstxt.Matcher{}
		}
		a := agents[host][agent]
		if a == nil {
			a = file.Matcher(agent)
			agents[host][agent] = a
		}
		n++
		d := a.Check(url)
		if a.Allowed(url) != d.Allowed {
			t.Errorf("%s %s %s: Allowed says %v, Check says %v", agent, host, url, !d.Allowed, d.Allowed)
		}
		if isRobotsTxtURL(url) {
			exempt++
			if !d.Allowed {
				t.Errorf("%s %s: /robots.txt must be allowed", host, url)
			}
			continue
		}
		if d.Allowed != wantAllowed || d.Rule.Line != wantLine {
			bad++
			if bad <= 30 {
				t.Errorf("%s %s %s: got allowed=%v line=%d (%s), Google allowed=%v line=%d",
					agent, host, url, d.Allowed, d.Rule.Line, d.Rule, wantAllowed, wantLine)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 48624 {
		t.Fatalf("read %d answers, want 48624", n)
	}
	t.Logf("%d answers: %d disagree, %d /robots.txt exempt", n, bad, exempt)
}
