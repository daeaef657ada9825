package crawlers_test

import (
	"testing"

	"github.com/rep-toolkit/rep/crawlers"
)

func TestKindOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		want crawlers.Kind
	}{
		{"Googlebot", crawlers.KindSearch},
		{"bingbot", crawlers.KindSearch},
		{"GPTBot", crawlers.KindAITraining},
		{"OAI-SearchBot", crawlers.KindAISearch},
		{"ChatGPT-User", crawlers.KindUserFetch},
		{"AdsBot-Google", crawlers.KindAds},
		{"Mediapartners-Google", crawlers.KindAds},
		{"facebookexternalhit", crawlers.KindPreview},
		{"Google-Extended", crawlers.KindControlToken},
		{"Applebot-Extended", crawlers.KindControlToken},
		{"Googlebot-News", crawlers.KindControlToken},
		{"GoogleOther", crawlers.KindOther},
	} {
		c, ok := crawlers.ByName(tc.name)
		if !ok {
			t.Fatalf("%s: not in the registry", tc.name)
		}
		if got := crawlers.KindOf(c); got != tc.want {
			t.Errorf("KindOf(%s) = %s, want %s", tc.name, got, tc.want)
		}
	}
	if got := crawlers.KindOf(nil); got != crawlers.KindUnknown {
		t.Errorf("KindOf(nil) = %s", got)
	}
}

// TestControlTokens: every control token says what it controls and which
// crawlers fetch for it.
func TestControlTokens(t *testing.T) {
	n := 0
	for _, c := range crawlers.All() {
		if crawlers.KindOf(c) != crawlers.KindControlToken {
			continue
		}
		n++
		if c.Controls == "" || len(c.FetchedBy) == 0 {
			t.Errorf("%s: controls %q, fetched_by %v", c.Name, c.Controls, c.FetchedBy)
		}
	}
	if n < 3 {
		t.Errorf("%d control tokens, want Google-Extended, Applebot-Extended and Googlebot-News at least", n)
	}
}

func TestKindConcerns(t *testing.T) {
	type row struct {
		k                                                crawlers.Kind
		fetching, indexing, rendering, directives, usage bool
	}
	for _, r := range []row{
		{crawlers.KindSearch, true, true, true, true, false},
		{crawlers.KindUnknown, true, true, true, true, false},
		{crawlers.KindAISearch, true, true, false, true, false},
		{crawlers.KindAITraining, true, false, false, false, true},
		{crawlers.KindAds, true, false, true, false, false},
		{crawlers.KindControlToken, false, false, false, false, true},
		{crawlers.KindUserFetch, true, false, false, false, false},
		{crawlers.KindPreview, true, false, false, false, false},
	} {
		got := [5]bool{r.k.Concerns(crawlers.ConcernFetching), r.k.Concerns(crawlers.ConcernIndexing), r.k.Concerns(crawlers.ConcernRendering),
			r.k.Concerns(crawlers.ConcernPageDirectives), r.k.Concerns(crawlers.ConcernUsage)}
		want := [5]bool{r.fetching, r.indexing, r.rendering, r.directives, r.usage}
		if got != want {
			t.Errorf("%s: concerns (fetching, indexing, rendering, directives, usage) %v, want %v", r.k, got, want)
		}
	}
}
