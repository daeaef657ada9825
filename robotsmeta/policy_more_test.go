package robotsmeta

import (
	"strings"
	"testing"
	"time"
)

// TestFieldNames: the fields in output order, named as the keys of
// rep page -json; values past the last print as "?".
func TestFieldNames(t *testing.T) {
	want := []string{"index", "follow", "archive", "snippet", "max_snippet",
		"max_image_preview", "max_video_preview", "translate", "imageindex", "unavailable_after",
		"indexifembedded", "noai", "noimageai", "tdm_reservation", "ai_train"}
	fs := Fields()
	if len(fs) != len(want) {
		t.Fatalf("Fields() has %d fields, want %d", len(fs), len(want))
	}
	for i, f := range fs {
		if f != Field(i) || f.String() != want[i] {
			t.Errorf("Fields()[%d] = %d %q, want %d %q", i, f, f.String(), i, want[i])
		}
	}
	// ai_train is the 15th and last field (0 to 14).
	for _, f := range []Field{15, 16, 255} {
		if got := f.String(); got != "?" {
			t.Errorf("Field(%d).String() = %q, want \"?\"", f, got)
		}
	}
}

// TestWhyOutOfRange: Why answers false, without panicking, for a field past
// the last and for a policy with no page.
func TestWhyOutOfRange(t *testing.T) {
	pol, err := EvaluateLines([]string{"X-Robots-Tag: noindex", "tdm-reservation: 1", "Content-Usage: train-ai=n"}, nil,
		"googlebot", Google, time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		f       Field
		want    bool
		hasRule bool   // the value comes from a robots rule
		source  string // the name of the deciding header
	}{
		{FieldIndex, true, true, "X-Robots-Tag"},
		{FieldTDMReservation, true, false, "tdm-reservation"},
		{FieldAITrain, true, false, "Content-Usage"},
		{FieldFollow, false, false, ""},
		{15, false, false, ""},
		{16, false, false, ""},
	} {
		why, ok := pol.Why(tc.f)
		if ok != tc.want || why.HasRule != tc.hasRule || why.Source.Name != tc.source {
			t.Errorf("Why(%d) = %+v, %v; want ok %v, HasRule %v, source %q", tc.f, why, ok, tc.want, tc.hasRule, tc.source)
		}
	}
	var zero Policy
	if _, ok := zero.Why(FieldIndex); ok {
		t.Error("Why on a policy without a page = true")
	}
	if zero.Unfollowed() != nil {
		t.Error("Unfollowed on a policy without a page is not nil")
	}
}

// TestUnfollowed: the links a crawler should not follow are those with
// rel nofollow, ugc or sponsored, or every link on a nofollow page.
func TestUnfollowed(t *testing.T) {
	const links = `<a href="/a">a</a><a href="/b" rel="nofollow">b</a><a href="/c" rel="ugc">c</a>` +
		`<a href="/d" rel="sponsored">d</a><a href="/e" rel="noopener">e</a>`
	for _, tc := range []struct {
		meta string
		want string
	}{
		{`<meta name="robots" content="noarchive">`, "/b /c /d"},
		{`<meta name="robots" content="nofollow">`, "/a /b /c /d /e"},
	} {
		pol, err := EvaluateLines(nil, strings.NewReader(tc.meta+links), "googlebot", Google,
			time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), Options{Need: NeedLinks})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range pol.Unfollowed() {
			got = append(got, l.Href)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: Unfollowed = %v, want %s", tc.meta, got, tc.want)
		}
	}
}

// TestAgentToken: a product token ends at the first slash or space.
func TestAgentToken(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Googlebot/2.1", "Googlebot"},
		{"Googlebot 2.1", "Googlebot"},
		{"Googlebot", "Googlebot"},
		{"G/1", "G"},
		{"/2.1", ""},
		{" x", ""},
		{"", ""},
	} {
		if got := agentToken(tc.in); got != tc.want {
			t.Errorf("agentToken(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestAppliesScopes: which rules reach which crawler under each profile,
// as Page.Applies documents it: a rule scoped to a name reaches that
// crawler; <meta name="google"> carries only notranslate and
// nositelinkssearchbox to Google's crawlers; Bing reads bingbot and msnbot
// scopes but not robot or google; Yandex reads the yandex scope for every
// Yandex crawler and only noindex, nofollow, none and noarchive in
// X-Robots-Tag.
func TestAppliesScopes(t *testing.T) {
	for _, tc := range []struct {
		prof   Profile
		agent  string
		header string // an X-Robots-Tag value, or ""
		meta   string // name="content" of one meta element, or ""
		want   string // Policy.Applied
	}{
		{Google, "Googlebot", "", `google" content="notranslate`, "notranslate"},
		{Google, "Googlebot", "", `google" content="nositelinkssearchbox`, "nositelinkssearchbox"},
		{Google, "Googlebot", "", `google" content="noindex`, ""},
		{Google, "Googlebot", "", `google" content="nofollow`, ""},
		{Google, "Googlebot-Image", "", `google" content="notranslate`, "notranslate"},
		{Google, "Storebot-Google", "", `google" content="notranslate`, "notranslate"},
		{Google, "bingbot", "", `google" content="notranslate`, ""},
		{Google, "Googlebot", "", `robot" content="noindex`, "noindex"},

		{Bing, "bingbot", "", `bingbot" content="noindex`, "noindex"},
		{Bing, "msnbot", "", `bingbot" content="noindex`, "noindex"},
		{Bing, "bingbot", "", `msnbot" content="noindex`, "noindex"},
		{Bing, "msnbot", "", `msnbot" content="noindex`, "noindex"},
		{Bing, "Googlebot", "", `bingbot" content="noindex`, ""},
		{Bing, "bingbot", "", `robot" content="noindex`, ""},
		{Bing, "bingbot", "", `google" content="noindex`, ""},
		{Bing, "bingbot", "", `google" content="notranslate`, ""},
		{Bing, "bingbot", "", `robots" content="noindex`, "noindex"},

		{Yandex, "YandexBot", "", `yandex" content="noindex`, "noindex"},
		{Yandex, "Yandex", "", `yandex" content="noindex`, "noindex"},
		{Yandex, "YandexImages/3.0", "", `yandex" content="noindex`, "noindex"},
		{Yandex, "Yandex", "", `yandexbot" content="noindex`, ""},
		{Yandex, "Yande", "", `yandex" content="noindex`, ""},
		{Yandex, "Googlebot", "", `yandex" content="noindex`, ""},
		{Yandex, "MyYandexBot", "", `yandex" content="noindex`, ""},
		{Yandex, "YandexBot", "", `robot" content="noindex`, ""},
		{Yandex, "YandexBot", "", `google" content="notranslate`, ""},
		{Yandex, "YandexBot", "", `robots" content="noarchive`, "noarchive"},
		{Yandex, "YandexBot", "noindex", "", "noindex"},
		{Yandex, "YandexBot", "nofollow", "", "nofollow"},
		{Yandex, "YandexBot", "none", "", "none"},
		{Yandex, "YandexBot", "noarchive", "", "noarchive"},
		{Yandex, "YandexBot", "nosnippet", "", ""},
		{Yandex, "YandexBot", "noyaca", "", ""},
		{Yandex, "YandexBot", "all", "", ""},
	} {
		var lines []string
		if tc.header != "" {
			lines = []string{"X-Robots-Tag: " + tc.header}
		}
		html := "<p>x</p>"
		if tc.meta != "" {
			html = `<meta name="` + tc.meta + `">`
		}
		pol, err := EvaluateLines(lines, strings.NewReader(html), tc.agent, tc.prof,
			time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range pol.Applied.Directives() {
			got = append(got, d.String())
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%v %s, header %q, meta %q: Applied %v, want %q", tc.prof, tc.agent, tc.header, tc.meta, got, tc.want)
		}
	}
}

// TestPolicyTies: when several rules give the same, most restrictive
// value, the first of them (in header, then document order) is the reason.
func TestPolicyTies(t *testing.T) {
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		f        Field
		lines    []string
		wantLine int // header line of the deciding rule
	}{
		{FieldMaxImagePreview, []string{"X-Robots-Tag: max-image-preview:standard", "X-Robots-Tag: max-image-preview:standard"}, 1},
		{FieldMaxImagePreview, []string{"X-Robots-Tag: max-image-preview:large", "X-Robots-Tag: max-image-preview:standard"}, 2},
		{FieldMaxImagePreview, []string{"X-Robots-Tag: max-image-preview:none", "X-Robots-Tag: max-image-preview:standard"}, 1},
		{FieldMaxSnippet, []string{"X-Robots-Tag: max-snippet:50", "X-Robots-Tag: max-snippet:50"}, 1},
		{FieldMaxSnippet, []string{"X-Robots-Tag: max-snippet:51", "X-Robots-Tag: max-snippet:50"}, 2},
		{FieldMaxSnippet, []string{"X-Robots-Tag: max-snippet:49", "X-Robots-Tag: max-snippet:50"}, 1},
		{FieldMaxVideoPreview, []string{"X-Robots-Tag: max-video-preview:10", "X-Robots-Tag: max-video-preview:10"}, 1},
		{FieldUnavailableAfter, []string{"X-Robots-Tag: unavailable_after: 2030-06-25T15:00:00Z", "X-Robots-Tag: unavailable_after: 2030-06-25T15:00:00Z"}, 1},
		{FieldUnavailableAfter, []string{"X-Robots-Tag: unavailable_after: 2030-06-25T15:00:01Z", "X-Robots-Tag: unavailable_after: 2030-06-25T15:00:00Z"}, 2},
		{FieldUnavailableAfter, []string{"X-Robots-Tag: unavailable_after: 2030-06-25T14:59:59Z", "X-Robots-Tag: unavailable_after: 2030-06-25T15:00:00Z"}, 1},
	} {
		pol, err := EvaluateLines(tc.lines, nil, "googlebot", Google, now, Options{})
		if err != nil {
			t.Fatal(err)
		}
		why, ok := pol.Why(tc.f)
		if !ok || why.Source.Line != tc.wantLine {
			t.Errorf("%v: %v decided by %+v, %v; want header line %d", tc.lines, tc.f, why, ok, tc.wantLine)
		}
	}
}

// TestBingChat: Bing's 2023 reading of noarchive and nocache for chat
// answers: nocache, alone or with noarchive, allows the URL, title and
// snippet only; noarchive alone excludes the page.
func TestBingChat(t *testing.T) {
	for _, tc := range []struct {
		header string
		want   BingChat
	}{
		{"noindex", ChatFull},
		{"nocache", ChatLinkOnly},
		{"noarchive", ChatExcluded},
		{"noarchive, nocache", ChatLinkOnly},
		{"nocache, noarchive", ChatLinkOnly},
	} {
		pol, err := EvaluateLines([]string{"X-Robots-Tag: " + tc.header}, nil, "bingbot", Bing,
			time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if pol.Chat != tc.want {
			t.Errorf("%s: Chat = %v, want %v", tc.header, pol.Chat, tc.want)
		}
	}
}

// TestIndexIfEmbedded: indexifembedded takes effect only with noindex, or
// none, which includes it.
func TestIndexIfEmbedded(t *testing.T) {
	for _, tc := range []struct {
		header string
		want   bool
	}{
		{"indexifembedded", false},
		{"indexifembedded, noindex", true},
		{"indexifembedded, none", true},
		{"indexifembedded, nofollow", false},
		{"noindex", false},
	} {
		pol, err := EvaluateLines([]string{"X-Robots-Tag: " + tc.header}, nil, "googlebot", Google,
			time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if pol.IndexIfEmbedded != tc.want {
			t.Errorf("%s: IndexIfEmbedded = %v, want %v", tc.header, pol.IndexIfEmbedded, tc.want)
		}
	}
}

// TestLimitsCombine: the smallest non-negative max-snippet or
// max-video-preview wins, 0 included; -1 (no limit) stands only alone.
func TestLimitsCombine(t *testing.T) {
	for _, tc := range []struct {
		header          string
		snippet         bool
		maxSnip, maxVid Limit
	}{
		{"max-snippet:50, max-snippet:0", false, Limit{0, true}, Limit{0, true}},
		{"max-snippet:50, max-snippet:1", true, Limit{1, true}, Limit{}},
		{"max-snippet:-1, max-snippet:10", true, Limit{10, true}, Limit{}},
		{"max-snippet:10, max-snippet:-1", true, Limit{10, true}, Limit{}},
		{"max-snippet:-1", true, Limit{-1, true}, Limit{}},
		{"max-video-preview:5, max-video-preview:0", true, Limit{}, Limit{0, true}},
		{"max-video-preview:5, max-video-preview:1", true, Limit{}, Limit{1, true}},
	} {
		pol, err := EvaluateLines([]string{"X-Robots-Tag: " + tc.header}, nil, "googlebot", Google,
			time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if pol.Snippet != tc.snippet || pol.MaxSnippet != tc.maxSnip || pol.MaxVideoPreview != tc.maxVid {
			t.Errorf("%s: Snippet %v, MaxSnippet %+v, MaxVideoPreview %+v; want %v, %+v, %+v",
				tc.header, pol.Snippet, pol.MaxSnippet, pol.MaxVideoPreview, tc.snippet, tc.maxSnip, tc.maxVid)
		}
	}
}

// TestEarlyStop: with Need = NeedIndexing, parsing stops once Index and
// Follow are final: under Google and Bing at noindex plus nofollow (or
// none), under Yandex at index plus follow (or all).
func TestEarlyStop(t *testing.T) {
	const rest = `<p>rest</p>`
	for _, tc := range []struct {
		prof  Profile
		agent string
		first string
		want  Stop
	}{
		{Google, "googlebot", "noindex, nofollow", StopSettled},
		{Google, "googlebot", "none", StopSettled},
		{Google, "googlebot", "noindex", StopEOF},
		{Google, "googlebot", "nofollow", StopEOF},
		{Bing, "bingbot", "noindex, nofollow", StopSettled},
		{Yandex, "YandexBot", "all", StopSettled},
		{Yandex, "YandexBot", "index, follow", StopSettled},
		{Yandex, "YandexBot", "index", StopEOF},
		{Yandex, "YandexBot", "follow", StopEOF},
		{Yandex, "YandexBot", "noindex, nofollow", StopEOF},
	} {
		html := `<meta name="robots" content="` + tc.first + `">` + rest
		p, err := ParseLines(nil, strings.NewReader(html), Options{Need: NeedIndexing, Agent: tc.agent, Profile: tc.prof})
		if err != nil {
			t.Fatal(err)
		}
		if p.Stop != tc.want {
			t.Errorf("%v %q: Stop = %v, want %v", tc.prof, tc.first, p.Stop, tc.want)
		}
	}
}
