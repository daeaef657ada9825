package robotstxt_test

import (
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
)

// TestProfiles pins every documented difference between the Google and
// RFC 9309 profiles, both ways.
func TestProfiles(t *testing.T) {
	tests := []struct {
		name      string
		robots    string
		url       string
		google    bool // allowed under Google
		rfc       bool // allowed under RFC 9309
		rfcReason string
	}{
		{
			name:   "unreserved %-escapes in the URL are decoded (RFC 9309 §2.2.2)",
			robots: "User-agent: *\nDisallow: /foo/bar/baz\n",
			url:    "https://example.com/foo/bar/%62%61%7A",
			google: true, rfc: false,
		},
		{
			name:   "unreserved %-escapes are decoded only under RFC 9309, also in a query that follows the host",
			robots: "User-agent: *\nDisallow: /?a=1\n",
			url:    "https://example.com?%61=1",
			google: true, rfc: false,
		},
		{
			name:   "unreserved %-escapes in the pattern are decoded",
			robots: "User-agent: *\nDisallow: /%7Emak\n",
			url:    "https://example.com/~mak/x",
			google: true, rfc: false,
		},
		{
			name:   "reserved characters in the query are encoded (RFC 9309 §2.2.2 example)",
			robots: "User-agent: *\nDisallow: /foo/bar?baz=https%3A%2F%2Ffoo.bar\n",
			url:    "https://example.com/foo/bar?baz=https://foo.bar",
			google: true, rfc: false,
		},
		{
			name:   "%2A in a pattern matches a literal * (RFC 9309 §2.2.3)",
			robots: "User-agent: *\nDisallow: /path/file-with-a-%2A.html\n",
			url:    "https://example.com/path/file-with-a-*.html",
			google: true, rfc: false,
		},
		{
			name:   "%24 in a pattern matches a literal $",
			robots: "User-agent: *\nDisallow: /price%24\n",
			url:    "https://example.com/price$",
			google: true, rfc: false,
		},
		{
			name:   "non-ASCII bytes in the URL are %-encoded before comparison",
			robots: "User-agent: *\nDisallow: /foo/bar/ツ\n",
			url:    "https://example.com/foo/bar/ツ",
			google: true, rfc: false,
		},
		{
			name:   "Google's index.html rule is Google's only",
			robots: "User-agent: *\nDisallow: /dir/\nAllow: /dir/index.html\n",
			url:    "https://example.com/dir/",
			google: true, rfc: false,
		},
		{
			name:   "both: an encoded non-ASCII URL matches the raw pattern",
			robots: "User-agent: *\nDisallow: /foo/bar/ツ\n",
			url:    "https://example.com/foo/bar/%E3%83%84",
			google: false, rfc: false,
		},
		{
			name:   "both: /robots.txt is always allowed (RFC 9309 §2.2.2)",
			robots: "User-agent: *\nDisallow: /\n",
			url:    "https://example.com/robots.txt",
			google: true, rfc: true,
		},
		{
			name:   "both: an encoded / in the path is not a path separator",
			robots: "User-agent: *\nDisallow: /a%2Fb\n",
			url:    "https://example.com/a/b",
			google: true, rfc: true,
		},
		{
			name:   "both: a % without two characters after it is a literal",
			robots: "User-agent: *\nDisallow: /x%4$\n",
			url:    "https://example.com/x%4",
			google: false, rfc: false,
		},
		{
			name:   "both: a % followed by one hex digit is a literal",
			robots: "User-agent: *\nDisallow: /x%4x$\n",
			url:    "https://example.com/x%4x",
			google: false, rfc: false,
		},
		{
			name:   "a % before a non-hex character is not an escape",
			robots: "User-agent: *\nDisallow: /x%x4$\n",
			url:    "https://example.com/x%14",
			google: true, rfc: true,
		},
		{
			name:   "the octet 0x80 in the URL is %-encoded under RFC 9309",
			robots: "User-agent: *\nDisallow: /x%80$\n",
			url:    "https://example.com/x\x80",
			google: true, rfc: false,
		},
		{
			name:   "the octet 0x7F in the URL is not %-encoded",
			robots: "User-agent: *\nDisallow: /x%7F$\n",
			url:    "https://example.com/x\x7f",
			google: true, rfc: true,
		},
		{
			name:   "both: a mid-pattern $ is a literal",
			robots: "User-agent: *\nDisallow: /a$b\n",
			url:    "https://example.com/a$b",
			google: false, rfc: false,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := robotstxt.Parse([]byte(tt.robots)).Check("FooBot", tt.url)
			if g.Allowed != tt.google {
				t.Errorf("google: allowed=%v, want %v (%s)", g.Allowed, tt.google, g.Rule)
			}
			rf := robotstxt.ParseWith([]byte(tt.robots), robotstxt.Options{Profile: robotstxt.RFC9309})
			r := rf.Check("FooBot", tt.url)
			if r.Allowed != tt.rfc {
				t.Errorf("rfc9309: allowed=%v, want %v (%s)", r.Allowed, tt.rfc, r.Rule)
			}
			// Under rfc9309 Allowed always takes the rewriting path.
			if got := rf.Matcher("FooBot").Allowed(tt.url); got != tt.rfc {
				t.Errorf("rfc9309: Allowed=%v, want %v", got, tt.rfc)
			}
		})
	}
}

// TestPeerVectorsRFC runs the peer vectors under the RFC 9309 profile. The
// vectors' expectations are Google's or their suites'; the RFC profile must
// agree with Google on every vector except those whose answer turns on one
// of the documented differences, which are listed here with the reason.
func TestPeerVectorsRFC(t *testing.T) {
	vs := loadPeerVectors(t)
	differ := 0
	for i, v := range vs {
		body := v.body(t)
		g := robotstxt.Parse(body).Check(v.Agent, v.URL)
		rf := robotstxt.ParseWith(body, robotstxt.Options{Profile: robotstxt.RFC9309})
		r := rf.Check(v.Agent, v.URL)
		if got := rf.Matcher(v.Agent).Allowed(v.URL); got != r.Allowed {
			t.Errorf("vector %d: rfc9309 Allowed says %v, Check says %v", i, got, r.Allowed)
		}
		if g.Allowed == r.Allowed {
			continue
		}
		differ++
		// The RFC answer must then be the source suite's answer where the
		// suite is an RFC-minded one (protego, texting_robots), or a case
		// the differences explain.
		if v.Google != nil && r.Allowed != v.Allowed {
			t.Errorf("vector %d (%s): rfc9309 %v differs from Google %v and from its suite %v", i, v.Source, r.Allowed, g.Allowed, v.Allowed)
		}
		t.Logf("vector %d: rfc9309=%v google=%v agent=%q url=%q (%s)", i, r.Allowed, g.Allowed, v.Agent, v.URL, v.Source)
	}
	t.Logf("%d vectors answer differently under rfc9309", differ)
}

// TestParseProfile: the names ParseProfile takes, in any case ("" is the
// default, Google), and that String gives the name back.
func TestParseProfile(t *testing.T) {
	for _, c := range []struct {
		in   string
		want robotstxt.Profile
		ok   bool
	}{
		{"google", robotstxt.Google, true},
		{"Google", robotstxt.Google, true},
		{"", robotstxt.Google, true},
		{"rfc9309", robotstxt.RFC9309, true},
		{"RFC9309", robotstxt.RFC9309, true},
		{"rfc", robotstxt.RFC9309, true},
		{"bing", robotstxt.Google, false},
		{"rfc 9309", robotstxt.Google, false},
	} {
		if p, ok := robotstxt.ParseProfile(c.in); p != c.want || ok != c.ok {
			t.Errorf("ParseProfile(%q) = %v, %v; want %v, %v", c.in, p, ok, c.want, c.ok)
		}
	}
	for p, want := range map[robotstxt.Profile]string{robotstxt.Google: "google", robotstxt.RFC9309: "rfc9309", 7: "Profile(7)"} {
		if got := p.String(); got != want {
			t.Errorf("Profile(%d).String() = %q, want %q", p, got, want)
		}
	}
}

// TestRFCNormalisedOctets: under RFC 9309 a %xx escape in the URL is
// decoded exactly when it stands for an unreserved character (ALPHA,
// DIGIT, "-", ".", "_", "~"; RFC 3986 §2.3), so "/x%HH" matches the
// pattern "/x<c>$" only then; and in the query ":", "/", "?", "@", "[" and
// "]" are encoded, so they match a pattern that spells them %XX.
func TestRFCNormalisedOctets(t *testing.T) {
	for _, c := range []struct {
		esc, lit   string
		unreserved bool
	}{
		{"%21", "!", false},
		{"%2C", ",", false},
		{"%2D", "-", true},
		{"%2E", ".", true},
		{"%2F", "/", false},
		{"%30", "0", true},
		{"%39", "9", true},
		{"%3A", ":", false},
		{"%40", "@", false},
		{"%41", "A", true},
		{"%5A", "Z", true},
		{"%5B", "[", false},
		{"%5F", "_", true},
		{"%60", "`", false},
		{"%61", "a", true},
		{"%7A", "z", true},
		{"%7B", "{", false},
		{"%7E", "~", true},
	} {
		f := robotstxt.ParseWith([]byte("User-agent: *\nDisallow: /x"+c.lit+"$\n"), robotstxt.Options{Profile: robotstxt.RFC9309})
		if got := f.Check("FooBot", "https://example.com/x"+c.esc).Allowed; got != !c.unreserved {
			t.Errorf("Disallow: /x%s$, URL /x%s: allowed=%v, want %v", c.lit, c.esc, got, !c.unreserved)
		}
	}
	for _, c := range []struct {
		lit, esc string
		encoded  bool
	}{
		{":", "%3A", true},
		{"/", "%2F", true},
		{"?", "%3F", true},
		{"@", "%40", true},
		{"[", "%5B", true},
		{"]", "%5D", true},
		{"=", "%3D", false},
		{"!", "%21", false},
	} {
		f := robotstxt.ParseWith([]byte("User-agent: *\nDisallow: /a?b"+c.esc+"c$\n"), robotstxt.Options{Profile: robotstxt.RFC9309})
		if got := f.Check("FooBot", "https://example.com/a?b"+c.lit+"c").Allowed; got != !c.encoded {
			t.Errorf("Disallow: /a?b%sc$, URL /a?b%sc: allowed=%v, want %v", c.esc, c.lit, got, !c.encoded)
		}
	}
}
