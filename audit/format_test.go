package audit

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rep-toolkit/rep/accesslog"
)

// TestFormatError: a log read in a format not its own (most lines bad) is
// an error that names the format and the one its lines parse in, not a
// clean-looking report of 0 requests.
func TestFormatError(t *testing.T) {
	const combined = `66.249.66.1 - - [01/Mar/2026:00:00:01 +0000] "GET /a HTTP/1.1" 200 5 "-" "Googlebot/2.1"` + "\n"
	const w3c = "#Software: IIS\n#Fields: date time c-ip cs-method cs-uri-stem sc-status\n2026-03-01 00:00:01 1.2.3.4 GET /a 200\n"
	tests := []struct {
		name, format, log, suggest string
		bad                        int64
	}{
		{"combined read as w3c", "w3c", strings.Repeat(combined, 15), "combined", 15},
		{"w3c read as combined", "combined", w3c, "w3c", 3},
		{"combined read as json", "json", strings.Repeat(combined, 3), "combined", 3},
		{"json read as combined", "combined", `{"ts":1772323201,"uri":"/a","status":200}` + "\n", "json", 1},
		{"dates out of range", "combined", strings.Repeat(strings.Replace(combined, "2026", "9999", 1), 2), "", 2},
		// They look like combined, but do not parse as it either.
		{"dates out of range read as w3c", "w3c", strings.Repeat(strings.Replace(combined, "2026", "9999", 1), 2), "", 2},
		// They look like JSON (a line that starts with "{"), but are not.
		{"broken JSON read as combined", "combined", "{not json\n{nor this\n", "", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := accesslog.MustFormat(tt.format)
			_, err := Run(context.Background(), []string{"-"}, Input{Format: f, Stdin: strings.NewReader(tt.log)}, Options{}, nil)
			fe, ok := errors.AsType[*FormatError](err)
			if !ok {
				t.Fatalf("err = %v, want a *FormatError", err)
			}
			if fe.Format != tt.format || fe.Suggest != tt.suggest || fe.Bad != tt.bad || fe.First.Line != 1 {
				t.Errorf("%+v; want format %s, suggestion %q, %d bad from line 1", fe, tt.format, tt.suggest, tt.bad)
			}
			advice := "; if the log is in another format, give its -format (combined, common, w3c, caddy, cloudfront, alb, json, nginx:'…' or apache:'…')"
			if tt.suggest != "" {
				advice = "; they look like " + tt.suggest + ": give -format " + tt.suggest
			}
			if !strings.HasSuffix(err.Error(), advice) {
				t.Errorf("error %q does not end in %q", err, advice)
			}
		})
	}
	// As many bad lines as requests are not an error either.
	log := strings.Repeat(combined, 2) + "garbage\ngarbage\n"
	if rep, err := Run(context.Background(), []string{"-"}, Input{Format: accesslog.MustFormat("combined"), Stdin: strings.NewReader(log)}, Options{}, nil); err != nil || rep.BadLines != 2 || rep.Requests != 2 {
		t.Errorf("2 bad lines of 4: %v, %+v", err, rep)
	}
	// A few bad lines among many requests are counted and shown, not an
	// error.
	log = strings.Repeat(`66.249.66.1 - - [01/Mar/2026:00:00:01 +0000] "GET /a HTTP/1.1" 200 5 "-" "G"`+"\n", 3) + "garbage\n"
	rep, err := Run(context.Background(), []string{"-"}, Input{Format: accesslog.MustFormat("combined"), Stdin: strings.NewReader(log)}, Options{}, nil)
	if err != nil || rep.BadLines != 1 || len(rep.BadSamples) != 1 || rep.BadSamples[0].Line != 4 {
		t.Errorf("err %v, report %+v", err, rep)
	}
}
