package robotstxt

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/internal/testkit/corpus"
)

// sameReading fails t when parsing data with and without fastRule gives
// files that differ in anything: rules, arena bytes, groups, diagnostics.
func sameReading(t *testing.T, name string, data []byte) {
	t.Helper()
	o := Options{MaxBytes: -1}
	fast, slow := parse(data, o, true), parse(data, o, false)
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%s: fast reading differs from the general one\nfast rules %v\nslow rules %v\nfast diags %v\nslow diags %v",
			name, fast.rules, slow.rules, fast.diags, slow.diags)
	}
}

// TestFastRuleSameFile pins fastRule to the general reading on lines at the
// edges of what it takes, and on every file of the corpus.
func TestFastRuleSameFile(t *testing.T) {
	long := strings.Repeat("a", MaxLineBytes)
	cases := map[string]string{
		"plain":            "User-agent: *\nDisallow: /x\nAllow: /x/y\n",
		"no final newline": "User-agent: *\nDisallow: /x",
		"empty values":     "User-agent: *\nDisallow:\nAllow:\nDisallow:   \n",
		"crlf":             "User-agent: *\r\nDisallow: /x\r\nAllow: /y \r\n",
		"cr only":          "User-agent: *\rDisallow: /x\rAllow: /y\r",
		"mixed ends":       "User-agent: *\r\nDisallow: /x\nAllow: /y\rDisallow: /z",
		"case":             "user-agent: *\nDISALLOW: /x\nallow: /y\nAlLoW:/z\n",
		"wildcards":        "User-agent: *\nDisallow: /*.pdf$\nDisallow: /a*b*c\nAllow: /$\nDisallow: *\n",
		"star after blank": "User-agent: *\nDisallow: /a *b\n",
		"escaping":         "User-agent: *\nDisallow: /%7e\nDisallow: /ä\nDisallow: /a b\n",
		"comments":         "User-agent: *\nDisallow: /x#c\nDisallow: /x # c\n# Disallow: /z\n",
		"bang and quote":   "User-agent: *\nDisallow: /a!b\nDisallow: /a'b\n",
		"control bytes":    "User-agent: *\nDisallow: /a\x00b\nDisallow: /a\tb\nDisallow:\t/x\nDisallow: /a\x7fb\nDisallow: /a\x0bb\n",
		"typos":            "User-agent: *\nDisallowed: /x\nDisalow: /y\nAllow /z\nDisallow : /w\n",
		"leading blank":    " Disallow: /x\nUser-agent: *\n  Disallow: /y\n",
		"before any group": "Disallow: /x\nAllow: /y\nUser-agent: *\nDisallow: /z\n",
		"index.html":       "User-agent: *\nAllow: /a/index.html\nAllow: /index.htm\nDisallow: /\n",
		"long line":        "User-agent: *\nDisallow: /" + long + "\nDisallow: /" + long[:MaxLineBytes-11] + "\nDisallow: /" + long[:MaxLineBytes-11] + "   \n",
		"short tail":       "User-agent: *\nAllow: /",
		"tail bytes":       "User-agent: *\nDisallow: /ab*c\nAllow: /x#",
		"nul at end":       "User-agent: *\nDisallow: /x\x00",
		"bom":              "\xef\xbb\xbfUser-agent: *\nDisallow: /x\n",
		// Blanks other than ' ' end a value too (Google strips ASCII
		// whitespace), here where only the 8-byte round sees them.
		"tabs after a value": "User-agent: *\nDisallow: zz\t\t\t\t \nDisallow: zz\t\t\t\t\t\t\n",
	}
	for name, body := range cases {
		sameReading(t, name, []byte(body))
	}
	dir := corpus.Path(t, "robots")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		sameReading(t, e.Name(), data)
	}
}

// FuzzFastRule checks fastRule against the general reading on any input.
func FuzzFastRule(f *testing.F) {
	for _, s := range []string{
		"User-agent: *\nDisallow: /x\nAllow: /x/y\n",
		"User-agent: *\r\nDisallow: /*.pdf$ \r\nAllow:\r",
		"User-agent: a\nDisallow: /a!b#c\nDisallow: /%41\x00\n",
		"User-agent: a\nallow: /index.html\nDISALLOW:/ab*cdefgh*ijk",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameReading(t, "input", data)
	})
}

// TestFastRuleEveryByte pins fastRule's 8-bytes-a-round scan of a value
// (plainValueEnd) to the general reading: every byte value, and the bytes
// that end or spoil a plain value ('#', '%', '*', blanks, controls, DEL,
// bytes ≥ 0x80) at every position of the first three rounds, alone and
// before and after a '*', with blanks or a comment after the value.
func TestFastRuleEveryByte(t *testing.T) {
	const stem = "/abcdefghijklmnopqrstuvwxyz"
	var b strings.Builder
	for c := 0; c < 256; c++ {
		if c == '\n' || c == '\r' {
			continue
		}
		b.Reset()
		b.WriteString("User-agent: *\n")
		for k := 0; k < 24; k++ {
			v := stem[:k+1] + string([]byte{byte(c)}) + "xyz0123456789"
			b.WriteString("Disallow: " + v + "\n")
			b.WriteString("Allow: " + v + "   \n")
			b.WriteString("Disallow: /*" + v[1:] + "\n")
			b.WriteString("Allow: " + stem[:k+1] + "*" + string([]byte{byte(c)}) + "\n")
			b.WriteString("Disallow: " + stem[:k+1] + " # " + string([]byte{byte(c)}) + "\n")
			b.WriteString("Allow: " + stem[:k+1] + string([]byte{byte(c)}) + "*xyz\n")
		}
		sameReading(t, fmt.Sprintf("byte %#x", c), []byte(b.String()))
		// The value's last bytes, fewer than 8, end the file: the byte
		// loop reads them, not the 8-byte rounds.
		for k := 0; k < 17; k++ {
			for _, end := range []string{"", "x"} {
				body := "User-agent: *\nDisallow: " + stem[:k+1] + string([]byte{byte(c)}) + end
				sameReading(t, fmt.Sprintf("byte %#x at the end", c), []byte(body))
			}
		}
	}
}
