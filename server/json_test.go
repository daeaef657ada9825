package server

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// bodyProbe has a field of each kind a request body's fields come in.
type bodyProbe struct {
	S string          `json:"s"`
	L []string        `json:"l"`
	B bool            `json:"b"`
	O struct{ X int } `json:"o"`
	M map[string]int  `json:"m"`
	N int             `json:"n"`
	F float64         `json:"f"`
}

// TestDecodeBody: every way a request body can be wrong has its status
// and its own message, in full; a body of exactly the limit is read, one
// byte more is 413 naming the limit.
func TestDecodeBody(t *testing.T) {
	tests := []struct {
		name, body string
		limit      int64
		status     int // 0: decoded
		msg        string
	}{
		{"one object", `{"s":"x","n":2}`, 0, 0, ""},
		{"trailing space", "{\"s\":\"x\"} \n\t", 0, 0, ""},
		{"at the limit", `{"s":"xx"}`, 10, 0, ""},
		{"a byte over the limit", `{"s":"xxx"}`, 10, 413, "request body is over 10 bytes"},
		{"over a KiB limit", `{"s":"` + strings.Repeat("a", 1024) + `"}`, 1024, 413, "request body is over 1024 bytes (1 KiB)"},
		{"empty", ``, 0, 400, "empty request body: send a JSON object"},
		{"only space", "  \n", 0, 400, "empty request body: send a JSON object"},
		{"ends early", `{"s":"x"`, 0, 400, "malformed JSON: the body ends early"},
		{"malformed", `{"s": }`, 0, 400, "malformed JSON at byte 7: invalid character '}' looking for beginning of value"},
		{"a second object", `{"s":"x"} {}`, 0, 400, "bad request body: extra data after the JSON object"},
		{"a stray value", `{"s":"x"} 1`, 0, 400, "bad request body: extra data after the JSON object"},
		{"a stray brace", `{"s":"x"}}`, 0, 400, "bad request body: extra data after the JSON object"},
		{"a stray bracket", `{"s":"x"}]`, 0, 400, "bad request body: extra data after the JSON object"},
		{"unknown field", `{"url":"x"}`, 0, 400, `bad request body: json: unknown field "url"`},
		{"an array", `["x"]`, 0, 400, "the body must be a JSON object, not a JSON array"},
		{"a string", `"x"`, 0, 400, "the body must be a JSON object, not a JSON string"},
		{"string field", `{"s":1}`, 0, 400, `field "s" must be a string, not a JSON number`},
		{"array field", `{"l":"/"}`, 0, 400, `field "l" must be an array, not a JSON string`},
		{"bool field", `{"b":"yes"}`, 0, 400, `field "b" must be true or false, not a JSON string`},
		{"struct field", `{"o":1}`, 0, 400, `field "o" must be an object, not a JSON number`},
		{"map field", `{"m":[]}`, 0, 400, `field "m" must be an object, not a JSON array`},
		{"int field", `{"n":"5"}`, 0, 400, `field "n" must be a whole number, not a JSON string`},
		{"int field, a fraction", `{"n":1.5}`, 0, 400, `field "n" must be a whole number, not a JSON number 1.5`},
		{"float field", `{"f":true}`, 0, 400, `field "f" must be a number, not a JSON bool`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			r := httptest.NewRequest("POST", "/api/check", strings.NewReader(tt.body))
			var v bodyProbe
			var ok bool
			if tt.limit > 0 {
				ok = decodeBodyMax(w, r, &v, tt.limit)
			} else {
				ok = decodeBody(w, r, &v)
			}
			if tt.status == 0 {
				if !ok || w.Body.Len() != 0 {
					t.Fatalf("refused: %d %s", w.Code, w.Body)
				}
				return
			}
			if ok {
				t.Fatalf("accepted, want %d", tt.status)
			}
			if w.Code != tt.status {
				t.Errorf("status %d, want %d", w.Code, tt.status)
			}
			if want := `{"error":` + quoteJSON(tt.msg) + "}\n"; w.Body.String() != want {
				t.Errorf("body %s, want %s", w.Body, want)
			}
		})
	}
}

// quoteJSON writes s as a JSON string the way the server does (no HTML
// escaping).
func quoteJSON(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}

// TestWriteJSON: answers are JSON, never cached, with the status given,
// and '<', '>' and '&' written as they are (the answers quote robots.txt
// lines and URLs, which a reader should see unescaped).
func TestWriteJSON(t *testing.T) {
	w := httptest.NewRecorder()
	writeError(w, http.StatusTeapot, `Disallow: /<a>&b`)
	if w.Code != http.StatusTeapot {
		t.Errorf("status %d", w.Code)
	}
	want := http.Header{"Content-Type": {"application/json; charset=utf-8"}, "Cache-Control": {"no-store"}}
	if !reflect.DeepEqual(w.Header(), want) {
		t.Errorf("headers %v, want %v", w.Header(), want)
	}
	if got := w.Body.String(); got != "{\"error\":\"Disallow: /<a>&b\"}\n" {
		t.Errorf("body %q", got)
	}
}

// TestJSONKind: how a 400 names the JSON a field needs, for each Go kind a
// request field can have.
func TestJSONKind(t *testing.T) {
	for kind, want := range map[string]string{
		"string": "a string",
		"slice":  "an array", "bool": "true or false",
		"struct": "an object", "map": "an object",
		"int": "a whole number", "int8": "a whole number", "int16": "a whole number", "int32": "a whole number", "int64": "a whole number",
		"uint": "a whole number", "uint8": "a whole number", "uint16": "a whole number", "uint32": "a whole number", "uint64": "a whole number",
		"float32": "a number", "float64": "a number",
		"array": "an array",
	} {
		if got := jsonKind(kind); got != want {
			t.Errorf("jsonKind(%s) = %q, want %q", kind, got, want)
		}
	}
}
