package harness

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Case is an adversarial input: a robots.txt body and the URLs checked
// against it (for ExampleBot, which every case puts in the "*" group).
type Case struct {
	Name string
	What string
	Body []byte
	URLs []string // absolute; feed PathQuery(url) to the path-only peers
}

// PathoMax is the size of the 500 KiB cases: exactly rep's and Google's
// documented limit, so every library reads the same bytes.
const PathoMax = 500 << 10

const origin = "https://example.com"

// Patho builds the adversarial cases of the baseline note. The output is
// the same on every call (fixed seeds), so every library and every run
// sees the same bytes.
func Patho() []Case {
	a2k := origin + "/" + strings.Repeat("a", 2047) // a 2 KiB path of 'a'
	var cs []Case

	cs = append(cs, Case{
		Name: "star9-a2k",
		What: "`Disallow: /*a*a*a*a*a*a*a*a*a*b` vs a 2 KiB path of `a`",
		Body: []byte("User-agent: *\nDisallow: /" + strings.Repeat("*a", 9) + "*b\n"),
		URLs: []string{a2k},
	})
	cs = append(cs, Case{
		Name: "star40-a2k",
		What: "40 × `*a` then `*b` vs a 2 KiB path of `a`",
		Body: []byte("User-agent: *\nDisallow: /" + strings.Repeat("*a", 40) + "*b\n"),
		URLs: []string{a2k},
	})

	var sb strings.Builder
	sb.WriteString("User-agent: *\n")
	for i := range 1000 {
		fmt.Fprintf(&sb, "Disallow: /*a*a*a*a*a*%d\n", i)
	}
	cs = append(cs, Case{
		Name: "star-rules1000-a2k",
		What: "1,000 rules `/*a*a*a*a*a*N` vs a 2 KiB path of `a`",
		Body: []byte(sb.String()),
		URLs: []string{a2k},
	})

	cs = append(cs, random500k())

	head := "User-agent: *\nDisallow: /"
	cs = append(cs, Case{
		Name: "longline500k",
		What: "one `Disallow` line, the file 500 KiB long, vs a 2 KiB path of `a`",
		Body: []byte(head + strings.Repeat("a", PathoMax-len(head))),
		URLs: []string{a2k, origin + "/b"},
	})

	cs = append(cs, garbage500k())

	sb.Reset()
	for i := range 10000 {
		fmt.Fprintf(&sb, "User-agent: bot%d\nDisallow: /p%d/\n", i, i)
	}
	sb.WriteString("User-agent: *\nDisallow: /private/\n")
	cs = append(cs, Case{
		Name: "groups10k",
		What: "10,000 groups `bot<N>` then a `*` group",
		Body: []byte(sb.String()),
		URLs: []string{origin + "/private/x", origin + "/public/x"},
	})

	path := "/" + strings.Repeat("abcdefg/", 64<<10/8)
	cs = append(cs, Case{
		Name: "url64k",
		What: "a 64 KiB URL against typical rules",
		Body: []byte(typicalRules),
		URLs: []string{origin + path[:64<<10-len("?q=1")] + "?q=1"},
	})

	cs = append(cs, Case{
		Name: "slashstar-deep",
		What: "`Disallow: /*/*/…(30)/x` vs `/a/a/…` (2 KiB)",
		Body: []byte("User-agent: *\nDisallow: /" + strings.Repeat("*/", 30) + "x\n"),
		URLs: []string{origin + strings.Repeat("/a", 1024)},
	})
	return cs
}

// typicalRules is a hand-written file of the shape most real files have: a
// few literal prefixes, some wildcards and an end anchor.
const typicalRules = `User-agent: Googlebot
Disallow: /nogoogle/

User-agent: *
Disallow: /admin/
Disallow: /cgi-bin/
Disallow: /search
Disallow: /login
Disallow: /cart
Disallow: /checkout/
Disallow: /account/
Disallow: /api/
Disallow: /tmp/
Disallow: /print/
Allow: /search/about
Allow: /api/docs/
Disallow: /*?sessionid=
Disallow: /*&sort=
Disallow: /*.pdf$
Disallow: /*/edit$
Disallow: /user/*/private
Disallow: /abcdefg/*/zzz
Allow: /*.css$
Allow: /*.js$
Sitemap: https://example.com/sitemap.xml
`

// random500k is 500 KiB of random rules over a small alphabet (so that many
// share prefixes with the URLs), a quarter of them with '*' and some with a
// final '$', and 16 random URLs over the same alphabet.
func random500k() Case {
	r := rand.New(rand.NewPCG(1, 2))
	const alpha = "abcd/"
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alpha[r.IntN(len(alpha))]
		}
		return string(b)
	}
	var sb strings.Builder
	sb.WriteString("User-agent: *\n")
	for {
		p := "/" + word(3+r.IntN(30))
		if r.IntN(4) == 0 {
			for range 1 + r.IntN(4) {
				i := 1 + r.IntN(len(p))
				p = p[:i] + "*" + p[i:]
			}
		}
		if r.IntN(10) == 0 {
			p += "$"
		}
		line := "Disallow: " + p + "\n"
		if r.IntN(3) == 0 {
			line = "Allow: " + p + "\n"
		}
		if sb.Len()+len(line) > PathoMax {
			break
		}
		sb.WriteString(line)
	}
	c := Case{
		Name: "random500k",
		What: "500 KiB of random rules (¼ with `*`) over `abcd/`, 16 random 100-byte paths",
		Body: []byte(sb.String()),
	}
	for range 16 {
		c.URLs = append(c.URLs, origin+"/"+word(99))
	}
	return c
}

// garbage500k is 500 KiB of random bytes without a line end or a colon:
// one huge line that is not a directive.
func garbage500k() Case {
	r := rand.New(rand.NewPCG(3, 4))
	b := make([]byte, PathoMax)
	for i := range b {
		for {
			c := byte(r.Uint32())
			if c != '\n' && c != '\r' && c != ':' {
				b[i] = c
				break
			}
		}
	}
	return Case{
		Name: "garbage500k",
		What: "500 KiB of random bytes, no line end, no colon",
		Body: b,
		URLs: []string{origin + "/index.html"},
	}
}
