package crawlers

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

func TestMatch(t *testing.T) {
	f, err := os.Open("testdata/match.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for line := 1; sc.Scan(); line++ {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) != 3 {
			t.Fatalf("testdata/match.tsv:%d: want 3 tab-separated fields, got %d", line, len(fields))
		}
		ua, wantName, wantSource := fields[0], fields[1], fields[2]
		n++
		for _, fn := range []struct {
			name string
			f    func(string) (*Crawler, bool)
		}{
			{"Classify", Classify},
			{"Match", Match},
			{"Match (cached)", Match},
			{"MatchBytes", func(s string) (*Crawler, bool) { return MatchBytes([]byte(s)) }},
		} {
			c, ok := fn.f(ua)
			gotName, gotSource := "-", "-"
			if ok {
				gotName, gotSource = c.Name, string(c.Source)
			}
			if ok != (c != nil) || gotName != wantName || gotSource != wantSource {
				t.Errorf("line %d: %s(%q) = %s (%s), %v; want %s (%s)", line, fn.name, ua, gotName, gotSource, ok, wantName, wantSource)
			}
		}
	}
	if n < 30 {
		t.Fatalf("only %d cases read", n)
	}
}

// TestEveryTokenMatches puts each registry token in a typical User-Agent
// and expects its own crawler back: no token may shadow another.
func TestEveryTokenMatches(t *testing.T) {
	for _, c := range All() {
		for _, tok := range c.Tokens {
			for _, ua := range []string{
				tok,
				fmt.Sprintf("Mozilla/5.0 (compatible; %s/1.0; +https://example.com/bot)", tok),
				fmt.Sprintf("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; %s) Chrome/141.0 Safari/537.36", strings.ToUpper(tok)),
			} {
				got, ok := Classify(ua)
				if !ok || got != c {
					t.Errorf("Classify(%q) = %v, want %s", ua, got, c.Name)
				}
			}
		}
	}
}

// TestDataSetInstances classifies every sample User-Agent of the data set:
// each must be recognised as some crawler.
func TestDataSetInstances(t *testing.T) {
	a := dataSet()
	if len(a.crawlers) < 1000 {
		t.Fatalf("data set has %d entries, want the full set", len(a.crawlers))
	}
	var entries []dataSetEntry
	mustUnmarshal(t, dataSetJSON, &entries)
	n := 0
	for _, e := range entries {
		for _, ua := range e.Instances {
			n++
			if _, ok := Classify(ua); !ok {
				t.Errorf("instance of %q not recognised: %q", e.Pattern, ua)
			}
		}
	}
	for i := range a.res {
		if _, err := a.res[i](); err != nil {
			t.Errorf("pattern %q does not compile: %v", a.crawlers[i].Pattern, err)
		}
	}
	t.Logf("%d instances of %d patterns", n, len(entries))
}

func TestRequiredLiterals(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		want    string // joined with |, "" = none
	}{
		{`Googlebot\/`, "Googlebot/"},
		{`AdsBot-Google([^-]|$)`, "AdsBot-Google"},
		{`(sistrix|SISTRIX) [cC]rawler`, "sistrix|SISTRIX"},
		{`Ahrefs(Bot|SiteAudit)`, "Ahrefs"},
		{`Chirp|gotosocial`, "Chirp|gotosocial"},
		{`[wW]get`, "get"},
		{`^.*$`, ""},
		{`(`, ""},
	} {
		lits, _ := requiredLiterals(tc.pattern)
		if got := strings.Join(lits, "|"); got != tc.want {
			t.Errorf("requiredLiterals(%q) = %q, want %q", tc.pattern, got, tc.want)
		}
	}
}

// TestCacheBounded fills a tiny cache past its limit from many goroutines
// and checks answers stay right and the cache stays bounded.
func TestCacheBounded(t *testing.T) {
	k := &cache{limit: 8}
	uas := []string{"Googlebot/2.1", "curl/8", "Mozilla/5.0 Firefox/140.0", "GPTBot/1.1"}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				ua := uas[(g+i)%len(uas)]
				if i%3 == 0 {
					ua = fmt.Sprintf("%s x%d", ua, i)
				}
				want, wantOK := Classify(ua)
				var got *Crawler
				var ok bool
				if m := k.read.Load(); m != nil {
					if c, hit := (*m)[ua]; hit {
						got, ok = c, c != nil
						goto check
					}
				}
				got, ok = k.miss(ua)
			check:
				if got != want || ok != wantOK {
					t.Errorf("cache(%q) = %v, %v; want %v, %v", ua, got, ok, want, wantOK)
					return
				}
			}
		})
	}
	wg.Wait()
	k.mu.Lock()
	defer k.mu.Unlock()
	size := len(k.dirty)
	if m := k.read.Load(); m != nil {
		size += len(*m)
	}
	if size > k.limit {
		t.Errorf("cache holds %d entries, limit %d", size, k.limit)
	}
}

func TestMatchCachedNoAlloc(t *testing.T) {
	ua := "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	for range 100 { // enough misses to promote into the read map
		Match(ua)
	}
	b := []byte(ua)
	if n := testing.AllocsPerRun(100, func() { Match(ua); MatchBytes(b) }); n != 0 {
		t.Errorf("cached Match allocates %v times per call", n)
	}
}

func FuzzMatch(f *testing.F) {
	f.Add("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")
	f.Add("Googlebot-Image/1.0")
	f.Add("Mozilla/5.0 (compatible; Applebot-Extended/0.3)")
	f.Add("curl/8.5.0")
	f.Add("\xff\x00Googlebot")
	f.Fuzz(func(t *testing.T, ua string) {
		c, ok := Classify(ua)
		c2, ok2 := Match(ua)
		if c != c2 || ok != ok2 || ok != (c != nil) {
			t.Fatalf("Classify and Match disagree on %q: %v/%v vs %v/%v", ua, c, ok, c2, ok2)
		}
		if ok && c.Source == SourceRegistry {
			found := false
			for _, tok := range c.Tokens {
				found = found || containsToken(asciiLower(ua), asciiLower(tok))
			}
			if !found {
				t.Fatalf("%q matched %s without any of its tokens", ua, c.Name)
			}
		}
	})
}
