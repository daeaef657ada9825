package rep_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/robotstxt"
)

// TestOneURLForm: Check, the client and Decide give one answer for a URL
// as typed and as it goes on the wire.
func TestOneURLForm(t *testing.T) {
	const robots = "User-agent: *\nDisallow: /café\nDisallow: /p\nDisallow: /%7Eadmin\nAllow: /%7Euser\nDisallow: /~user\n"
	s := newSite(t, robots, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") })
	c, _ := rep.New("ExampleBot/1.0", fast)
	a := c.Agent()
	f := robotstxt.ParseWith([]byte(robots), a.ParseOptions())
	ctx := context.Background()
	for _, tt := range []struct {
		path    string
		allowed bool
		line    int
	}{
		{"/café", false, 2},
		{"/caf%C3%A9", false, 2},
		{"/caf%c3%a9", false, 2},
		{"/%70rivate", false, 3},  // Google's matcher alone would allow it
		{"/%7Eadmin/x", false, 4}, // a pattern written with the escape matches as written
		{"/%7Euser/x", false, 6},  // the file allows it as written, not decoded: the stricter wins
		{"/~user/x", false, 6},
		{"/cafe", true, 0},
	} {
		u := s.URL + tt.path
		d, err := c.Check(ctx, u)
		if err != nil || d.Allowed != tt.allowed || d.Rule.Line != tt.line {
			t.Errorf("Check(%s) = %v line %d (%v), want %v line %d", tt.path, d.Allowed, d.Rule.Line, err, tt.allowed, tt.line)
		}
		if fd := a.Decide(f, tt.path); fd.Allowed != tt.allowed || fd.Rule.Line != tt.line {
			t.Errorf("Decide(%s) = %v line %d", tt.path, fd.Allowed, fd.Rule.Line)
		}
		resp, err := get(ctx, c.Client(), u)
		if err == nil {
			resp.Body.Close()
		}
		var de *rep.DisallowedError
		if refused := errors.As(err, &de); refused == tt.allowed || (refused && de.Decision.Rule.Line != tt.line) {
			t.Errorf("client GET %s: %v, want allowed %v", tt.path, err, tt.allowed)
		}
	}
}
