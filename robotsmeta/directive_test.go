package robotsmeta

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestDirectiveNames: every directive's canonical name, as the package
// documents it and as engines spell it, reads back through LookupDirective
// in any case; values outside the list print as "invalid".
func TestDirectiveNames(t *testing.T) {
	for _, tc := range []struct {
		d    Directive
		name string
	}{
		{Invalid, "invalid"},
		{All, "all"},
		{Index, "index"},
		{Follow, "follow"},
		{NoIndex, "noindex"},
		{NoFollow, "nofollow"},
		{None, "none"},
		{NoArchive, "noarchive"},
		{Archive, "archive"},
		{NoCache, "nocache"},
		{NoSnippet, "nosnippet"},
		{MaxSnippet, "max-snippet"},
		{MaxImagePreview, "max-image-preview"},
		{MaxVideoPreview, "max-video-preview"},
		{NoTranslate, "notranslate"},
		{NoImageIndex, "noimageindex"},
		{UnavailableAfter, "unavailable_after"},
		{IndexIfEmbedded, "indexifembedded"},
		{NoSitelinksSearchBox, "nositelinkssearchbox"},
		{NoODP, "noodp"},
		{NoYDir, "noydir"},
		{NoPreview, "nopreview"},
		{NoYaca, "noyaca"},
		{NoAI, "noai"},
		{NoImageAI, "noimageai"},
	} {
		if got := tc.d.String(); got != tc.name {
			t.Errorf("Directive(%d).String() = %q, want %q", tc.d, got, tc.name)
		}
		want := tc.d
		for _, s := range []string{tc.name, strings.ToUpper(tc.name)} {
			if got := LookupDirective(s); got != want {
				t.Errorf("LookupDirective(%q) = %v, want %v", s, got, want)
			}
		}
	}
	// NoImageAI is the last of the 25 directives (0 to 24).
	for _, d := range []Directive{25, 26, 255} {
		if got := d.String(); got != "invalid" {
			t.Errorf("Directive(%d).String() = %q, want \"invalid\"", d, got)
		}
	}
}

// TestImagePreviewNames: the three max-image-preview values Google
// documents, and "" for unset.
func TestImagePreviewNames(t *testing.T) {
	for _, tc := range []struct {
		p    ImagePreview
		name string
	}{
		{PreviewUnset, ""},
		{PreviewNone, "none"},
		{PreviewStandard, "standard"},
		{PreviewLarge, "large"},
		{4, ""},
	} {
		if got := tc.p.String(); got != tc.name {
			t.Errorf("ImagePreview(%d).String() = %q, want %q", tc.p, got, tc.name)
		}
	}
}

// TestApplied: Policy.Applied holds exactly the directives that reached
// the agent, and Directives lists them in declaration order.
func TestApplied(t *testing.T) {
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		header string
		want   []Directive
	}{
		{"X-Robots-Tag: noindex", []Directive{NoIndex}},
		{"X-Robots-Tag: nofollow", []Directive{NoFollow}},
		{"X-Robots-Tag: all", []Directive{All}},
		{"X-Robots-Tag: noimageai, noindex", []Directive{NoIndex, NoImageAI}},
		{"X-Robots-Tag: otherbot: noindex", nil},
	} {
		pol, err := EvaluateLines([]string{tc.header}, nil, "googlebot", Google, now, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := pol.Applied.Directives(); !slices.Equal(got, tc.want) {
			t.Errorf("%s: Applied = %v, want %v", tc.header, got, tc.want)
		}
		for d := All; d < numDirectives; d++ {
			if got, want := pol.Applied.Has(d), slices.Contains(tc.want, d); got != want {
				t.Errorf("%s: Applied.Has(%v) = %v, want %v", tc.header, d, got, want)
			}
		}
	}
}

// TestParseProfile: the four engines by name in any case, empty for
// google, and an unknown name refused (reported, with google in its place).
func TestParseProfile(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Profile
		ok   bool
	}{
		{"", Google, true},
		{"google", Google, true},
		{"Bing", Bing, true},
		{"YANDEX", Yandex, true},
		{"rfc9309", RFC9309, true},
		{"altavista", Google, false},
	} {
		if got, ok := ParseProfile(tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("ParseProfile(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
