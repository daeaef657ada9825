package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/rep-toolkit/rep/server"
)

// The check endpoint answers verdicts in input order, each with the line
// that decided it.
func Example() {
	s, err := server.New(server.Config{})
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()

	body := `{"robots": "User-agent: *\nDisallow: /private\n", "agent": "Googlebot", "urls": ["/private/x", "/public"]}`
	res, err := http.Post(ts.URL+"/api/check", "application/json", strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	defer res.Body.Close()
	var out struct {
		Results []struct {
			URL     string `json:"url"`
			Allowed bool   `json:"allowed"`
			Line    int    `json:"line"`
			Rule    string `json:"rule"`
		} `json:"results"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		panic(err)
	}
	for _, r := range out.Results {
		fmt.Printf("%s allowed=%v line=%d %q\n", r.URL, r.Allowed, r.Line, r.Rule)
	}
	// Output:
	// /private/x allowed=false line=2 "Disallow: /private"
	// /public allowed=true line=0 ""
}

// Errors are JSON too, with a status that says whose fault they are.
func Example_errors() {
	s, err := server.New(server.Config{})
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()

	res, err := http.Get(ts.URL + "/api/allowed?agent=Googlebot&url=http://127.0.0.1/")
	if err != nil {
		panic(err)
	}
	defer res.Body.Close()
	var e struct {
		Error string `json:"error"`
	}
	json.NewDecoder(res.Body).Decode(&e)
	fmt.Println(res.StatusCode, e.Error)
	// Output:
	// 403 refused to fetch http://127.0.0.1/: 127.0.0.1 is a loopback address (start rep serve with -allow-private to test local sites)
}
