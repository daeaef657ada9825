package robotsfetch_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/rep-toolkit/rep/robotsfetch"
)

// TestBodyKept: Robots.Body is the file crawlers read, on the first answer
// and on every answer from the cache after it (the linter and the server
// read it); nil when the fetch decided without a file.
func TestBodyKept(t *testing.T) {
	const body = "User-agent: *\nDisallow: /x\n"
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, body) }))
	defer ok.Close()
	gone := httptest.NewServer(http.NotFoundHandler())
	defer gone.Close()
	f, err := robotsfetch.New(robotsfetch.Options{UserAgent: "ExampleBot/1.0"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		r, err := f.Get(context.Background(), ok.URL+"/a")
		if err != nil {
			t.Fatal(err)
		}
		if string(r.Body) != body || r.Outcome.Cached != (i > 0) {
			t.Errorf("answer %d: body %q, cached %v", i, r.Body, r.Outcome.Cached)
		}
	}
	r, err := f.Get(context.Background(), gone.URL+"/a")
	if err != nil {
		t.Fatal(err)
	}
	if r.Body != nil || r.File != nil {
		t.Errorf("404: body %q, file %v", r.Body, r.File)
	}
}
