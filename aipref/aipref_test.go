package aipref_test

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/aipref"
	"github.com/rep-toolkit/rep/aipref/page"
	"github.com/rep-toolkit/rep/robotsmeta"
	"github.com/rep-toolkit/rep/robotstxt"
)

const (
	U = aipref.Unknown
	A = aipref.Allowed
	D = aipref.Disallowed
)

// verdict combines every carrier given for url and agent "examplebot".
func verdict(t *testing.T, robots string, headers []string, html string, tdmrep string, url string) aipref.Usage {
	t.Helper()
	var ev [][]aipref.Evidence
	if robots != "" {
		f := robotstxt.Parse([]byte(robots))
		g := f.Matcher("examplebot")
		ev = append(ev, aipref.Robots(f, g, url, g.Allowed(url)))
	}
	if headers != nil || html != "" {
		h := http.Header{}
		for _, l := range headers {
			k, v, _ := strings.Cut(l, ": ")
			h.Add(k, v)
		}
		pol, err := robotsmeta.Evaluate(h, strings.NewReader(html), "examplebot", robotsmeta.Google, time.Now(), robotsmeta.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ev = append(ev, page.Evidence(&pol))
	}
	if tdmrep != "" {
		rules, err := aipref.ParseTDMRep([]byte(tdmrep))
		if err != nil {
			t.Fatal(err)
		}
		ev = append(ev, aipref.TDMRep(rules, url))
	}
	return aipref.Combine(ev...)
}

func TestVerdict(t *testing.T) {
	const url = "https://example.com/articles/a.html"
	for _, c := range []struct {
		name     string
		robots   string
		headers  []string
		html     string
		tdmrep   string
		train    aipref.Pref
		aiUse    aipref.Pref
		search   aipref.Pref
		carriers string // carriers of the evidence deciding train-ai
		// outweighed lists the statements that lost, as "carrier category".
		outweighed string
	}{
		{name: "nothing", train: U, aiUse: U, search: U},
		{name: "robots Content-Usage", robots: "User-agent: *\nContent-Usage: train-ai=n, search=y\nAllow: /\n",
			train: D, aiUse: U, search: A, carriers: "robots.txt Content-Usage"},
		{name: "robots Content-Usage longest path", robots: "User-agent: *\nContent-Usage: train-ai=n\nContent-Usage: /articles/ train-ai=y, ai-use=n\nAllow: /\n",
			train: A, aiUse: D, search: U, carriers: "robots.txt Content-Usage"},
		{name: "robots Content-Usage where crawling is disallowed", robots: "User-agent: *\nContent-Usage: train-ai=n\nDisallow: /articles/\n",
			train: U, aiUse: U, search: U},
		{name: "robots Content-Signal in group", robots: "User-agent: *\nContent-Signal: search=yes, ai-input=no, ai-train=no\nAllow: /\n",
			train: D, aiUse: D, search: A, carriers: "robots.txt Content-Signal"},
		{name: "robots Content-Signal site-wide", robots: "Content-Signal: ai-train=yes\nUser-agent: *\nAllow: /\n",
			train: A, aiUse: U, search: U, carriers: "robots.txt Content-Signal"},
		{name: "Content-Usage header", headers: []string{"Content-Usage: train-ai=n, ai-use=y"},
			train: D, aiUse: A, search: U, carriers: "Content-Usage header"},
		{name: "Content-Usage header, unknown label and value", headers: []string{`Content-Usage: train-genai=n, search="n"`},
			train: U, aiUse: U, search: U},
		{name: "tdm-reservation header", headers: []string{"tdm-reservation: 1"},
			train: D, aiUse: D, search: U, carriers: "tdm-reservation header"},
		{name: "tdm-reservation 0 states nothing", headers: []string{"tdm-reservation: 0"},
			train: U, aiUse: U, search: U},
		{name: "tdm-reservation meta over header", headers: []string{"tdm-reservation: 1"}, html: `<meta name="tdm-reservation" content="0">`,
			train: U, aiUse: U, search: U},
		{name: "tdmrep.json", tdmrep: `[{"location": "/articles/*", "tdm-reservation": 1}, {"location": "/", "tdm-reservation": 0}]`,
			train: D, aiUse: D, search: U, carriers: "tdmrep.json"},
		{name: "tdmrep.json first match", tdmrep: `[{"location": "/", "tdm-reservation": 0}, {"location": "/articles/", "tdm-reservation": 1}]`,
			train: U, aiUse: U, search: U},
		{name: "noai meta", html: `<meta name="robots" content="noai">`,
			train: D, aiUse: D, search: U, carriers: "noai"},
		{name: "noai header", headers: []string{"X-Robots-Tag: noai"},
			train: D, aiUse: D, search: U, carriers: "noai"},
		{name: "noimageai leaves the page alone", html: `<meta name="robots" content="noimageai">`,
			train: U, aiUse: U, search: U},
		{name: "conflict: robots allows, header disallows",
			robots: "User-agent: *\nContent-Usage: train-ai=y, search=y\nAllow: /\n", headers: []string{"Content-Usage: train-ai=n"},
			train: D, aiUse: U, search: A, carriers: "Content-Usage header",
			outweighed: "robots.txt Content-Usage train-ai"},
		{name: "conflict: Content-Signal yes, noai",
			robots: "User-agent: *\nContent-Signal: ai-train=yes, ai-input=yes\nAllow: /\n", html: `<meta name="robots" content="noai">`,
			train: D, aiUse: D, search: U, carriers: "noai",
			outweighed: "robots.txt Content-Signal ai-use,robots.txt Content-Signal train-ai"},
		{name: "conflict: header allows, tdmrep.json reserves",
			headers: []string{"Content-Usage: train-ai=y"}, tdmrep: `[{"location": "/", "tdm-reservation": 1}]`,
			train: D, aiUse: D, search: U, carriers: "tdmrep.json",
			outweighed: "Content-Usage header train-ai"},
		{name: "conflict: two disallows both decide",
			robots: "User-agent: *\nContent-Usage: train-ai=n\nAllow: /\n", headers: []string{"tdm-reservation: 1"},
			train: D, aiUse: D, search: U, carriers: "robots.txt Content-Usage,tdm-reservation header"},
		{name: "conflict: allows agree",
			robots: "User-agent: *\nContent-Signal: ai-train=yes\nAllow: /\n", headers: []string{"Content-Usage: train-ai=y"},
			train: A, aiUse: U, search: U, carriers: "robots.txt Content-Signal,Content-Usage header"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := verdict(t, c.robots, c.headers, c.html, c.tdmrep, url)
			if v.TrainAI != c.train || v.AIUse != c.aiUse || v.Search != c.search {
				t.Errorf("verdict %s, want train-ai=%s ai-use=%s search=%s\n%+v", v, c.train, c.aiUse, c.search, v.Evidence)
			}
			var cs []string
			for _, e := range v.Deciding(aipref.TrainAI) {
				cs = append(cs, string(e.Carrier))
			}
			if got := strings.Join(cs, ","); got != c.carriers {
				t.Errorf("train-ai decided by %q, want %q", got, c.carriers)
			}
			var lost []string
			for _, e := range v.Evidence {
				if e.Outweighed {
					lost = append(lost, string(e.Carrier)+" "+string(e.Category))
				}
			}
			slices.Sort(lost)
			if got := strings.Join(lost, ","); got != c.outweighed {
				t.Errorf("outweighed %q, want %q", got, c.outweighed)
			}
		})
	}
}

func TestEvidence(t *testing.T) {
	v := verdict(t, "User-agent: *\nAllow: /\nContent-Usage: /articles/ train-ai=n\n", []string{"X-Robots-Tag: noai"}, "", "", "https://example.com/articles/x")
	want := []aipref.Evidence{
		{Carrier: aipref.RobotsContentUsage, Category: aipref.TrainAI, Pref: D, Line: 3, Where: "robots.txt line 3", Value: "Content-Usage: /articles/ train-ai=n"},
		{Carrier: aipref.RobotsNoAI, Category: aipref.TrainAI, Pref: D, Line: 1, Where: "X-Robots-Tag header (line 1)", Value: "noai"},
		{Carrier: aipref.RobotsNoAI, Category: aipref.AIUse, Pref: D, Line: 1, Where: "X-Robots-Tag header (line 1)", Value: "noai"},
	}
	if len(v.Evidence) != len(want) {
		t.Fatalf("evidence %+v, want %+v", v.Evidence, want)
	}
	for i := range want {
		if v.Evidence[i] != want[i] {
			t.Errorf("evidence[%d] = %+v, want %+v", i, v.Evidence[i], want[i])
		}
	}
}

// TestCombineAgain checks that Combine judges statements from an earlier
// verdict anew: an allow outweighed there decides once the disallow is
// gone, and one that decided there is outweighed by a new disallow.
func TestCombineAgain(t *testing.T) {
	allow := aipref.Evidence{Carrier: aipref.RobotsContentSignal, Category: aipref.TrainAI, Pref: A}
	deny := aipref.Evidence{Carrier: aipref.RobotsNoAI, Category: aipref.TrainAI, Pref: D}
	first := aipref.Combine([]aipref.Evidence{allow, deny})
	if !first.Evidence[0].Outweighed || first.Evidence[1].Outweighed {
		t.Fatalf("allow beside a disallow: %+v", first.Evidence)
	}
	if again := aipref.Combine(first.Evidence[:1]); again.TrainAI != A || again.Evidence[0].Outweighed {
		t.Errorf("the allow alone: %s %+v, want it deciding", again, again.Evidence)
	}
	alone := aipref.Combine([]aipref.Evidence{allow})
	if more := aipref.Combine(alone.Evidence, []aipref.Evidence{deny}); !more.Evidence[0].Outweighed {
		t.Errorf("a new disallow: %+v, want the allow outweighed", more.Evidence)
	}
	scoped := aipref.Combine([]aipref.Evidence{allow, {Carrier: aipref.RobotsNoImageAI, Category: aipref.TrainAI, Pref: D, Scope: "images"}})
	if scoped.Evidence[0].Outweighed || scoped.Evidence[1].Outweighed {
		t.Errorf("noimageai outweighs nothing and is not outweighed: %+v", scoped.Evidence)
	}
}

func TestParseTDMRepErrors(t *testing.T) {
	for _, in := range []string{`{}`, `[{"location": "/", "tdm-reservation": 2}]`, `not json`} {
		_, err := aipref.ParseTDMRep([]byte(in))
		var te *aipref.TDMRepError
		if !errors.As(err, &te) {
			t.Errorf("ParseTDMRep(%s) = %v, want a *TDMRepError", in, err)
		}
	}
}

func TestPrefText(t *testing.T) {
	for _, p := range []aipref.Pref{U, A, D} {
		b, _ := p.MarshalText()
		var q aipref.Pref
		if err := q.UnmarshalText(b); err != nil || q != p {
			t.Errorf("round trip %v: %v %v", p, q, err)
		}
	}
	var q aipref.Pref
	var pe *aipref.PrefError
	if err := q.UnmarshalText([]byte("maybe")); !errors.As(err, &pe) || pe.Text != "maybe" || q != U {
		t.Errorf("UnmarshalText(maybe) = %v, value %v", err, q)
	}
	if (aipref.Pref(7)).String() != "preference(7)" {
		t.Errorf("out of range: %q", aipref.Pref(7).String())
	}
}

// TestTDMRepPath: a rule matches the path of an absolute URL and a path
// alike, also a path whose query holds a URL.
func TestTDMRepPath(t *testing.T) {
	rules, err := aipref.ParseTDMRep([]byte(`[{"location": "/private/*", "tdm-reservation": 1}]`))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{
		"https://example.com/private/a?next=https://example.com/",
		"/private/a?next=https://example.com/",
		"/private/a#x",
	} {
		if ev := aipref.TDMRep(rules, u); len(ev) == 0 {
			t.Errorf("%s: no statement, want the reservation of /private/*", u)
		}
	}
	if ev := aipref.TDMRep(rules, "/public?from=/private/a"); len(ev) != 0 {
		t.Errorf("/public?from=/private/a: %v, want none", ev)
	}
}
