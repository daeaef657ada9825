package robotsmeta

import (
	"fmt"
	"strings"
	"testing"
)

// TestRobotsTagDiagnosticPositions: each Robots-Tag finding has its
// severity, points at its field line and at the byte of that line's value
// it is about (1-based), names the source it concerns, and says what a
// site owner needs (the piece of its message checked here).
func TestRobotsTagDiagnosticPositions(t *testing.T) {
	for _, c := range []struct {
		lines []string
		want  string // "severity code@line:col>source line:column" for each diagnostic, comma-separated; the index when negative (no source)
		msg   string // a piece of the last diagnostic's message
	}{
		{[]string{"Robots-Tag:"}, "warning empty-value@1:1>1:0", "no value"},
		{[]string{"Server: x", "Robots-Tag: ", "Robots-Tag: *;noindex"}, "warning empty-value@2:1>2:0", "no value"},
		{[]string{"Robots-Tag: *;noindex, ExampleBot;"}, "error robots-tag-invalid@1:23>1:0", "a key must start with a lower-case letter"},
		{[]string{"Robots-Tag: *;noindex", "Robots-Tag: a, ExampleBot;"}, "error robots-tag-invalid@2:15>2:0", "RFC 9651 section 4.2"},
		{[]string{"Robots-Tag: *;noindex", "Robots-Tag: a, 5;b"}, "error robots-tag-invalid@2:4>2:0", `member "5;b" is an Integer`},
		{[]string{"Robots-Tag: a, (b c);d"}, "error robots-tag-invalid@1:4>1:0", "is an Inner List"},
		{[]string{"Robots-Tag: a, ?1;d"}, "error robots-tag-invalid@1:4>1:0", "is a Boolean"},
		{[]string{"Robots-Tag: a, %\"x\";d"}, "error robots-tag-invalid@1:4>1:0", "is a Display String"},
		{[]string{"Robots-Tag: a, @1;d"}, "error robots-tag-invalid@1:4>1:0", "is a Date"},
		{[]string{"Robots-Tag: a, Bot/2.1;d"}, "error robots-tag-invalid@1:4>1:0", `"Bot/2.1", not a product token`},
		{[]string{"Robots-Tag: *;noindex", "Robots-Tag: ExampleBot;noindex;foo"}, "warning unknown-directive@2:20>2:1", `unknown rule "foo"`},
		{[]string{"Robots-Tag: a;noindex, ExampleBot;noindex;noindex=?0"}, "info robots-tag-duplicate@1:23>1:12,info robots-tag-false@1:23>1:12", "noindex=?0 states no rule"},
		{[]string{"Robots-Tag: a;noindex", "Robots-Tag: ExampleBot"}, "info robots-tag-no-rules@2:1>2:1", `"ExampleBot" has no rules`},
		{[]string{"Robots-Tag: a;noindex, noindex"}, "warning robots-tag-no-rules@1:12>1:12", `e.g. "*;noindex"`},
		{[]string{"Robots-Tag: max-snippet"}, "warning robots-tag-no-rules@1:1>1:1", `e.g. "*;max-snippet=..."`},
		{[]string{"Robots-Tag: a;max-snippet=:AA==:"}, "warning invalid-value@1:3>1:1", "a Byte Sequence is not a value"},
		{[]string{"Robots-Tag: a;nosnippet=5"}, "warning invalid-item@1:3>1:1", "takes no value"},
		// 745 members of 11 bytes: the 745th reaches the limit (8192) and
		// is dropped with the rest; 744 are read, ending at byte 8182.
		{[]string{"Robots-Tag: " + strings.Repeat("a;noindex, ", 745) + "bb;noindex, cc"},
			"warning robots-tag-limit@1:8193>-1", "8209 bytes, over the 8192-byte parsing limit: the 744 complete members before the limit are read; the member cut at the limit and all after it, 27 bytes, are ignored"},
		// Lines joined: the first value is 8138 bytes (740 members), then
		// ", " and the second line, which starts at byte 8140; the limit
		// falls in its fifth member, at its 53rd byte.
		{[]string{"Robots-Tag: " + strings.TrimSuffix(strings.Repeat("a;noindex, ", 740), ", "), "Robots-Tag: " + strings.Repeat("b;noindex, ", 10) + "c"},
			"warning robots-tag-limit@2:53>-1", "the 744 complete members"},
		// One member read, then one longer than the limit.
		{[]string{"Robots-Tag: ExampleBot;noindex, " + strings.Repeat("b", 9000)}, "warning robots-tag-limit@1:8193>-1",
			"9020 bytes, over the 8192-byte parsing limit: the 1 complete members before the limit are read; the member cut at the limit and all after it, 9002 bytes"},
		// One member longer than the limit: none is read.
		{[]string{"Robots-Tag: a" + strings.Repeat("b", 9000) + ";noindex"}, "warning robots-tag-limit@1:8193>-1", "9009 bytes, over the 8192-byte parsing limit: the 0 complete members before the limit are read; the member cut at the limit and all after it, 9009 bytes"},
	} {
		pg, err := ParseLines(c.lines, nil, Options{Now: robotsTagNow})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range pg.Diagnostics {
			src := fmt.Sprint(d.Source)
			if d.Source >= 0 {
				s := pg.Sources[d.Source]
				src = fmt.Sprintf("%d:%d", s.Line, s.Column)
			}
			got = append(got, fmt.Sprintf("%s %s@%d:%d>%s", d.Severity, d.Code, d.Line, d.Column, src))
		}
		if g := strings.Join(got, ","); g != c.want {
			t.Errorf("%.70q: got %s, want %s", c.lines, g, c.want)
			continue
		}
		if m := pg.Diagnostics[len(pg.Diagnostics)-1].Message; !strings.Contains(m, c.msg) {
			t.Errorf("%.70q: message %q does not say %q", c.lines, m, c.msg)
		}
	}
}
