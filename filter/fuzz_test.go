package filter

import (
	"encoding/json"
	"io"
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/survey"
)

// FuzzJSONFields checks the field scanner against encoding/json: on a
// line encoding/json reads as an object, the scanner either declines
// (ok false: the caller decodes fully) or finds exactly the top-level
// string values encoding/json finds.
func FuzzJSONFields(f *testing.F) {
	for _, s := range []string{
		`{"url":"https://a.test/x","date":"2024-01-01"}`,
		`{"id":1,"meta":{"url":"no"},"url":"https:\/\/a.test\/\u00e9"}`,
		`{"arr":[1,{"url":"x"},"]"],"url":"u","date":null}`,
		`{"url":1}`, `{}`, `[]`, `{"url":"a","url":"b"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		u, d, fu, fd, ok := jsonFields(line, "url", "date")
		var m map[string]json.RawMessage
		if json.Unmarshal(line, &m) != nil || !ok {
			return
		}
		check := func(key string, got []byte, found bool) {
			raw, has := m[key]
			var want string
			isString := has && json.Unmarshal(raw, &want) == nil && len(raw) > 0 && raw[0] == '"'
			if isString != found {
				t.Fatalf("%s: scanner found %v, encoding/json %v in %s", key, found, isString, line)
			}
			if found && string(got) != want {
				t.Fatalf("%s: scanner %q, encoding/json %q in %s", key, got, want, line)
			}
		}
		if dupKeys(line) {
			return // encoding/json keeps the last of duplicate keys, the scanner the first
		}
		check("url", u, fu)
		check("date", d, fd)
	})
}

// dupKeys reports whether a JSON object repeats a top-level key.
func dupKeys(line []byte) bool {
	dec := json.NewDecoder(bytesReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		k, _ := t.(string)
		if seen[k] {
			return true
		}
		seen[k] = true
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return false
		}
	}
	return false
}

// FuzzFastHost checks that the allocation-free host scan agrees with
// survey.HostOf whenever it answers.
func FuzzFastHost(f *testing.F) {
	for _, s := range []string{"https://a.test/x", "http://a.test:80/", "https://a.test:8443/", "http://A.test/", "https://xn--bcher-kva.de?q", "https://a.test./", "http://user@a.test/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, u string) {
		h, ok := fastHost(u)
		if !ok {
			return
		}
		want, err := survey.HostOf(u)
		if err != nil || h != want {
			t.Fatalf("fastHost(%q) = %q, HostOf = %q, %v", u, h, want, err)
		}
	})
}

type byteReader struct {
	b []byte
	i int
}

func (r *byteReader) Read(p []byte) (int, error) {
	if r.i >= len(r.b) {
		return 0, io.EOF
	}
	n := copy(p, r.b[r.i:])
	r.i += n
	return n, nil
}

func bytesReader(b []byte) *byteReader { return &byteReader{b: b} }

// FuzzAppendJSON checks the verdict writer's strings against
// encoding/json: byte for byte the same (HTML escapes, invalid UTF-8
// replaced), and the whole verdict decodes back to the URL and rule.
func FuzzAppendJSON(f *testing.F) {
	for _, s := range []string{"https://a.test/x", "https://a.test/\"<x>&\\", "https://a.test/\xff\u2028é", "\x00\x1f"} {
		f.Add(s, "/p*$")
	}
	f.Fuzz(func(t *testing.T, u, pattern string) {
		want, _ := json.Marshal(u)
		if got := appendJSONString(nil, u); string(got) != string(want) {
			t.Fatalf("appendJSONString(%q) = %s, encoding/json %s", u, got, want)
		}
		v := Verdict{Class: survey.ClassRules, Crawler: "GPTBot", Group: "*", Line: 3, Rule: robotstxt.Rule{Pattern: pattern, Line: 3}}
		var back struct {
			URL  string `json:"url"`
			Rule string `json:"rule"`
		}
		if err := json.Unmarshal(v.AppendJSON(nil, u), &back); err != nil {
			t.Fatalf("%q: %v", u, err)
		}
		var wu, wr string
		json.Unmarshal(want, &wu)
		rj, _ := json.Marshal("Disallow: " + pattern)
		json.Unmarshal(rj, &wr)
		if back.URL != wu || back.Rule != wr {
			t.Fatalf("verdict decodes to %q %q, want %q %q", back.URL, back.Rule, wu, wr)
		}
	})
}
