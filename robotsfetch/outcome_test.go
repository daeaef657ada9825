package robotsfetch

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/internal/enum"
)

// textEnum is one of the package's enums as its text methods see it.
type textEnum interface {
	fmt.Stringer
	MarshalText() ([]byte, error)
}

// TestEnumNames: every Case, Verdict, Source and Warning has its stable
// name (the JSON and log vocabulary), reads back from it, and a value
// past the last prints as a number instead of panicking.
func TestEnumNames(t *testing.T) {
	caseBack := func(s string) (textEnum, error) { var c Case; err := c.UnmarshalText([]byte(s)); return c, err }
	verdictBack := func(s string) (textEnum, error) { var v Verdict; err := v.UnmarshalText([]byte(s)); return v, err }
	sourceBack := func(s string) (textEnum, error) { var v Source; err := v.UnmarshalText([]byte(s)); return v, err }
	warningBack := func(s string) (textEnum, error) { var v Warning; err := v.UnmarshalText([]byte(s)); return v, err }
	tests := []struct {
		v    textEnum
		name string
		back func(string) (textEnum, error)
	}{
		{CaseNone, "none", caseBack},
		{Success, "success", caseBack},
		{Unavailable, "unavailable", caseBack},
		{TooManyRedirects, "too-many-redirects", caseBack},
		{BadRedirect, "bad-redirect", caseBack},
		{Unreachable, "unreachable", caseBack},
		{StaleCopy, "stale-copy", caseBack},
		{OutageCopy, "outage-copy", caseBack},
		{OutageAllow, "outage-allow", caseBack},
		{RefusedAddress, "refused-address", caseBack},
		{UseRules, "use-rules", verdictBack},
		{AllowAll, "allow-all", verdictBack},
		{DisallowAll, "disallow-all", verdictBack},
		{FromNetwork, "network", sourceBack},
		{FromRevalidation, "revalidated", sourceBack},
		{FromStore, "store", sourceBack},
		{WarnHTML, "html", warningBack},
		{WarnContentType, "content-type", warningBack},
		{WarnTruncated, "truncated", warningBack},
		{WarnNoStore, "no-store", warningBack},
		{WarnStoreFailed, "store-failed", warningBack},
	}
	for _, tt := range tests {
		b, err := tt.v.MarshalText()
		if tt.v.String() != tt.name || string(b) != tt.name || err != nil {
			t.Errorf("%T %d: String %q, MarshalText %q, %v; want %q", tt.v, tt.v, tt.v.String(), b, err, tt.name)
		}
		if got, err := tt.back(tt.name); got != tt.v || err != nil {
			t.Errorf("%T from %q: %v, %v; want %v", tt.v, tt.name, got, err, tt.v)
		}
	}
	for _, tt := range []struct {
		v    fmt.Stringer
		want string
	}{
		{Case(10), "case(10)"}, {Case(255), "case(255)"},
		// Warning 0 is no warning: the first is 1.
		{Warning(1), "html"},
		{Verdict(3), "class(3)"},
		{Source(3), "source(3)"},
		{Warning(0), "warning(0)"}, {Warning(6), "warning(6)"},
	} {
		if got := tt.v.String(); got != tt.want {
			t.Errorf("%T %d: %q, want %q", tt.v, tt.v, got, tt.want)
		}
	}
	for _, tt := range []struct {
		name string
		back func(string) (textEnum, error)
		want string
	}{
		{"bogus", caseBack, `unknown case "bogus": use ` + enum.Or(caseEnum.List())},
		{"", caseBack, `unknown case "": use ` + enum.Or(caseEnum.List())},
		{"Success", caseBack, `unknown case "Success": use ` + enum.Or(caseEnum.List())},
		{"bogus", verdictBack, `unknown class "bogus": use use-rules, allow-all or disallow-all`},
		{"bogus", sourceBack, `unknown source "bogus": use network, revalidated or store`},
		// Warning 0 has no name: the empty string is not it.
		{"", warningBack, `unknown warning "": use html, content-type, truncated, no-store or store-failed`},
	} {
		if _, err := tt.back(tt.name); err == nil || err.Error() != tt.want {
			t.Errorf("reading %q: %v, want %s", tt.name, err, tt.want)
		}
	}
}

// TestCaseExplain: each case says what it means for a crawler.
func TestCaseExplain(t *testing.T) {
	for c, want := range map[Case]string{
		CaseNone:         "not fetched",
		Case(10):         "case(10)",
		RefusedAddress:   "refused address (loopback, private, link-local...): everything disallowed, however long",
		Success:          "2xx: the rules in the file apply",
		Unavailable:      "4xx: unavailable, no restrictions",
		TooManyRedirects: "too many redirects: unavailable, no restrictions",
		BadRedirect:      "unfollowable redirect: unavailable, no restrictions",
		Unreachable:      "unreachable (429, 5xx or network error): everything disallowed",
		StaleCopy:        "unreachable: the last good copy applies",
		OutageCopy:       "unreachable for too long: the last good copy applies",
		OutageAllow:      "unreachable for too long and no good copy: no restrictions",
	} {
		if got := c.Explain(); got != want {
			t.Errorf("%s: %q, want %q", c, got, want)
		}
	}
}

// TestOutcomeString: the one-line summary names the URL, the status when
// there was one, the case and verdict, the redirects and where the error
// happened. Err names the same URL: the last answered, else the last
// redirect asked, else the robots.txt URL.
func TestOutcomeString(t *testing.T) {
	const u, a, b = "https://example.com/robots.txt", "https://a.example/robots.txt", "https://b.example/robots.txt"
	tests := []struct {
		name   string
		o      Outcome
		want   string
		failed string // the URL Err names; "" when no error
	}{
		{"200", Outcome{URL: u, Status: 200, Case: Success, Verdict: UseRules},
			u + ": 200, success (use-rules)", ""},
		{"no answer", Outcome{URL: u, Case: Unreachable, Verdict: DisallowAll, Error: "refused"},
			u + ": unreachable (disallow-all), error: refused", u},
		{"redirected", Outcome{URL: u, Status: 200, Case: Success, Redirects: []string{a, b}, FinalURL: b},
			u + ": 200, success (use-rules), 2 redirect(s) to " + b, ""},
		{"error at a redirect asked", Outcome{URL: u, Case: Unreachable, Verdict: DisallowAll, Redirects: []string{a, b}, Error: "timeout"},
			u + ": unreachable (disallow-all), 2 redirect(s) to " + b + ", error at " + b + ": timeout", b},
		{"error at the one redirect asked", Outcome{URL: u, Case: Unreachable, Verdict: DisallowAll, Redirects: []string{a}, Error: "timeout"},
			u + ": unreachable (disallow-all), 1 redirect(s) to " + a + ", error at " + a + ": timeout", a},
		{"error at the last answer", Outcome{URL: u, Status: 503, Case: Unreachable, Verdict: DisallowAll, Redirects: []string{a}, FinalURL: a, Error: "503 Service Unavailable"},
			u + ": 503, unreachable (disallow-all), 1 redirect(s) to " + a + ", error at " + a + ": 503 Service Unavailable", a},
		{"error at the robots.txt URL itself", Outcome{URL: u, Status: 503, Case: Unreachable, Verdict: DisallowAll, FinalURL: u, Error: "503 Service Unavailable"},
			u + ": 503, unreachable (disallow-all), error: 503 Service Unavailable", u},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.o.String(); got != tt.want {
				t.Errorf("String() = %q\nwant       %q", got, tt.want)
			}
			err := tt.o.Err()
			var fe *Error
			switch {
			case tt.failed == "" && err != nil:
				t.Errorf("Err() = %v, want nil", err)
			case tt.failed != "" && (!errors.As(err, &fe) || fe.URL != tt.failed || fe.Err.Error() != tt.o.Error):
				t.Errorf("Err() = %v, want a failure at %s", err, tt.failed)
			}
		})
	}
}

// TestOutcomeDurationJSON: Duration is written in milliseconds with
// microseconds kept, and read back to the nanosecond they stand for.
func TestOutcomeDurationJSON(t *testing.T) {
	for _, tt := range []struct {
		d  time.Duration
		ms float64
	}{
		{0, 0},
		{1500 * time.Microsecond, 1.5},
		{2 * time.Second, 2000},
		{1234567 * time.Nanosecond, 1.234},
	} {
		b, err := json.Marshal(Outcome{Duration: tt.d})
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			MS float64 `json:"duration_ms"`
		}
		if err := json.Unmarshal(b, &m); err != nil || m.MS != tt.ms {
			t.Errorf("%v: duration_ms %v, %v; want %v", tt.d, m.MS, err, tt.ms)
		}
		var back Outcome
		if err := json.Unmarshal(b, &back); err != nil || back.Duration != tt.d.Truncate(time.Microsecond) {
			t.Errorf("%v read back as %v, %v", tt.d, back.Duration, err)
		}
	}
}
