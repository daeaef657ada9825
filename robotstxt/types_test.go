package robotstxt_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
)

// TestReasonAndViaText: the few words each Reason and Via explains itself
// with, and the numeric form past the last value.
func TestReasonAndViaText(t *testing.T) {
	for r, want := range map[robotstxt.Reason]string{
		robotstxt.NoRuleMatched:    "no rule matched",
		robotstxt.RuleMatched:      "longest matching rule",
		robotstxt.EmptyRuleMatched: "only an empty rule matched; an empty value never blocks",
		robotstxt.IndexHTML:        "an allowed index.html also allows its directory",
		robotstxt.RobotsTxt:        "/robots.txt is always allowed (RFC 9309 §2.2.2)",
		robotstxt.Unavailable:      "robots.txt is unavailable: no restrictions (RFC 9309 §2.3.1.3)",
		robotstxt.Unreachable:      "robots.txt is unreachable: everything disallowed (RFC 9309 §2.3.1.4)",
		robotstxt.Unreachable + 1:  "Reason(7)",
	} {
		if got := r.String(); got != want {
			t.Errorf("Reason(%d).String() = %q, want %q", uint8(r), got, want)
		}
	}
	for v, want := range map[robotstxt.Via]string{
		robotstxt.ViaNone:      "no group names the agent and no * group applies to it",
		robotstxt.ViaToken:     "groups naming the agent",
		robotstxt.ViaFallback:  "groups naming a fallback agent",
		robotstxt.ViaStar:      "the * group (no group names the agent)",
		robotstxt.ViaFetch:     "no group: how robots.txt was fetched decided",
		robotstxt.ViaFetch + 1: "Via(5)",
	} {
		if got := v.String(); got != want {
			t.Errorf("Via(%d).String() = %q, want %q", uint8(v), got, want)
		}
	}
}

// TestSeverityAndDiagnosticText: severities by name, and a diagnostic as
// "line:col: severity: [code] message".
func TestSeverityAndDiagnosticText(t *testing.T) {
	for s, want := range map[robotstxt.Severity]string{
		robotstxt.Info:      "info",
		robotstxt.Warning:   "warning",
		robotstxt.Error:     "error",
		robotstxt.Error + 1: "Severity(3)",
	} {
		if got := s.String(); got != want {
			t.Errorf("Severity(%d).String() = %q, want %q", uint8(s), got, want)
		}
	}
	d := robotstxt.Diagnostic{Line: 12, Column: 30, Severity: robotstxt.Warning, Code: "missing-colon", Message: "m", Hint: "h"}
	if got, want := d.String(), "12:30: warning: [missing-colon] m"; got != want {
		t.Errorf("Diagnostic.String() = %q, want %q", got, want)
	}
}

// TestDiagnosticJSONRoundTrip: diagnostics written as JSON (severity by
// name) read back as they were; an unknown severity is an error naming
// the valid ones.
func TestDiagnosticJSONRoundTrip(t *testing.T) {
	in := robotstxt.Parse([]byte("User-agent: *\nDisalow: /x\nCrawl-delay: soon\n")).Diagnostics()
	if len(in) == 0 {
		t.Fatal("the file draws no diagnostics: the test needs some")
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"Severity":"`)) {
		t.Errorf("severity not written by name: %s", b)
	}
	var out []robotstxt.Diagnostic
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("reading back %s: %v", b, err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("read back\n%+v\nwant\n%+v", out, in)
	}
	var s robotstxt.Severity
	if err := s.UnmarshalText([]byte("fatal")); err == nil || !strings.Contains(err.Error(), "info, warning or error") {
		t.Errorf("unknown severity: %v", err)
	}
}
