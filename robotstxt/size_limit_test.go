package robotstxt_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
)

// TestSizeLimitMatch: with the default options a file is read up to its last
// line end at or before byte 512000 (500 KiB), and only the rules read
// match. The rows (testdata/size_limit.tsv) put a rule's line end just
// before, at and just after that byte.
func TestSizeLimitMatch(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "size_limit.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		var size, end int
		var truncated, late bool
		if _, err := fmt.Sscanf(l, "%d\t%d\t%t\t%t", &size, &end, &truncated, &late); err != nil {
			t.Fatalf("row %q: %v", l, err)
		}
		rows++
		t.Run(strconv.Itoa(size)+"/"+strconv.Itoa(end), func(t *testing.T) {
			data := sizedRobots(t, size, end)
			for _, prof := range []robotstxt.Profile{robotstxt.Google, robotstxt.RFC9309} {
				file := robotstxt.ParseWith(data, robotstxt.Options{Profile: prof})
				if file.Truncated() != truncated {
					t.Errorf("%v: Truncated() = %v, want %v", prof, file.Truncated(), truncated)
				}
				a := file.Matcher("ExampleBot")
				if a.Check("https://example.com/early").Allowed {
					t.Errorf("%v: /early allowed: the first rule must always apply", prof)
				}
				if d := a.Check("https://example.com/late"); d.Allowed != late {
					t.Errorf("%v: /late allowed %v, want %v (rule %v)", prof, d.Allowed, late, d.Rule)
				}
				if got := a.Allowed("https://example.com/late"); got != late {
					t.Errorf("%v: Allowed(/late) = %v, want %v", prof, got, late)
				}
			}
		})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if rows == 0 {
		t.Fatal("no rows in testdata/size_limit.tsv")
	}
}

// sizedRobots returns a robots.txt of size bytes whose "Disallow: /late"
// line ends (line end included) at byte ruleEnd, after a group for every
// crawler and comment lines; the bytes after the rule are filler with no
// line end.
func sizedRobots(t *testing.T, size, ruleEnd int) []byte {
	t.Helper()
	const head, rule = "User-agent: *\nDisallow: /early\n", "Disallow: /late\n"
	var b bytes.Buffer
	b.WriteString(head)
	for b.Len()+64+2+len(rule) <= ruleEnd {
		b.WriteString("# " + strings.Repeat("p", 61) + "\n")
	}
	if n := ruleEnd - len(rule) - b.Len(); n >= 2 {
		b.WriteString("#" + strings.Repeat("q", n-2) + "\n")
	}
	b.WriteString(rule)
	if b.Len() != ruleEnd || size < ruleEnd {
		t.Fatalf("cannot end the rule at %d in %d bytes (got %d)", ruleEnd, size, b.Len())
	}
	b.WriteString(strings.Repeat("z", size-ruleEnd))
	return b.Bytes()
}
