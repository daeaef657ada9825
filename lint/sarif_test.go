package lint_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rep-toolkit/rep/lint"
)

// testdata/sarif-2.1.0.schema.json is the SARIF 2.1.0 (rtm.5) JSON schema
// as published by the OASIS TC and SchemaStore, taken unchanged from the
// npm package @microsoft/jest-sarif 1.0.0-beta.0 (MIT), file
// lib/schemas/sarif-2.1.0-rtm.5.json.

// TestLintSARIFSchema validates every SARIF golden file, and the SARIF of
// each case with every finding shown, against the schema.
func TestLintSARIFSchema(t *testing.T) {
	s := loadSchema(t)
	files, err := filepath.Glob(filepath.Join("testdata", "cases", "*", "want.sarif"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no SARIF golden files: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if errs := s.validate(b); len(errs) > 0 {
			t.Errorf("%s is not valid SARIF 2.1.0:\n%s", f, strings.Join(errs, "\n"))
		}
	}
	// A fetched file (URI with a scheme) and a path with blanks.
	r := lint.Run([]byte("User-agent: *\nDisallow: /é\nDisallow /x\n"), lint.Options{})
	for _, name := range []string{"https://example.com/robots.txt", "site files/robots.txt"} {
		var buf bytes.Buffer
		if err := r.WriteSARIF(&buf, name, lint.Info); err != nil {
			t.Fatal(err)
		}
		if errs := s.validate(buf.Bytes()); len(errs) > 0 {
			t.Errorf("SARIF for %q:\n%s", name, strings.Join(errs, "\n"))
		}
	}
}

// TestSchemaValidatorRejects makes sure the validator is not vacuous: each
// broken log must fail.
func TestSchemaValidatorRejects(t *testing.T) {
	s := loadSchema(t)
	for _, bad := range []string{
		`{"runs": []}`,                                             // version missing
		`{"version": "2.0.0", "runs": []}`,                         // wrong version
		`{"version": "2.1.0", "runs": [{}]}`,                       // tool missing
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]}`, // driver name missing
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{}]}]}`, // message missing
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "level": "fatal"}]}]}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "locations": [{"physicalLocation": {"region": {"startLine": 0}}}]}]}]}`,
		`{"version": "2.1.0", "runs": [], "extra": 1}`,
	} {
		if errs := s.validate([]byte(bad)); len(errs) == 0 {
			t.Errorf("accepted invalid SARIF: %s", bad)
		}
	}
}

func loadSchema(t *testing.T) *schema {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "sarif-2.1.0.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(b, &root); err != nil {
		t.Fatal(err)
	}
	return &schema{root: root, re: map[string]*regexp.Regexp{}}
}

// schema is a JSON Schema (draft-04/07) validator for the keywords the SARIF
// schema uses: $ref (local), type, enum, properties, additionalProperties,
// required, items, minItems, uniqueItems, minimum, maximum, pattern,
// format (uri, uri-reference, date-time), anyOf and oneOf. An unknown
// keyword fails the validation, so the subset cannot silently shrink.
type schema struct {
	root map[string]any
	re   map[string]*regexp.Regexp
}

var annotations = map[string]bool{"description": true, "default": true, "title": true, "$schema": true, "id": true, "$id": true, "definitions": true}

func (s *schema) validate(doc []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return []string{err.Error()}
	}
	var errs []string
	s.check(s.root, v, "$", &errs)
	return errs
}

func (s *schema) check(sch map[string]any, v any, path string, errs *[]string) {
	fail := func(format string, a ...any) { *errs = append(*errs, path+": "+fmt.Sprintf(format, a...)) }
	if ref, ok := sch["$ref"].(string); ok {
		target := s.resolve(ref)
		if target == nil {
			fail("unresolvable $ref %s", ref)
			return
		}
		s.check(target, v, path, errs)
	}
	for k, kv := range sch {
		switch k {
		case "$ref":
		case "type":
			if !hasType(v, kv.(string)) {
				fail("want %s, got %T", kv, v)
				return
			}
		case "enum":
			found := false
			for _, e := range kv.([]any) {
				if jsonEqual(e, v) {
					found = true
				}
			}
			if !found {
				fail("%v not in enum %v", v, kv)
			}
		case "properties", "additionalProperties":
			obj, ok := v.(map[string]any)
			if !ok {
				continue
			}
			if k == "additionalProperties" {
				props, _ := sch["properties"].(map[string]any)
				for name, pv := range obj {
					if _, declared := props[name]; declared {
						continue
					}
					switch ap := kv.(type) {
					case bool:
						if !ap {
							fail("property %q not allowed", name)
						}
					case map[string]any:
						s.check(ap, pv, path+"."+name, errs)
					}
				}
				continue
			}
			for name, ps := range kv.(map[string]any) {
				if pv, ok := obj[name]; ok {
					s.check(ps.(map[string]any), pv, path+"."+name, errs)
				}
			}
		case "required":
			if obj, ok := v.(map[string]any); ok {
				for _, r := range kv.([]any) {
					if _, ok := obj[r.(string)]; !ok {
						fail("required property %q missing", r)
					}
				}
			}
		case "items":
			if arr, ok := v.([]any); ok {
				for i, it := range arr {
					s.check(kv.(map[string]any), it, fmt.Sprintf("%s[%d]", path, i), errs)
				}
			}
		case "minItems":
			if arr, ok := v.([]any); ok && float64(len(arr)) < num(kv) {
				fail("fewer than %v items", kv)
			}
		case "uniqueItems":
			if arr, ok := v.([]any); ok && kv.(bool) {
				for i := range arr {
					for j := i + 1; j < len(arr); j++ {
						if jsonEqual(arr[i], arr[j]) {
							fail("items %d and %d are equal", i, j)
						}
					}
				}
			}
		case "minimum", "maximum":
			if n, ok := v.(json.Number); ok {
				f, _ := n.Float64()
				if k == "minimum" && f < num(kv) || k == "maximum" && f > num(kv) {
					fail("%v out of range (%s %v)", n, k, kv)
				}
			}
		case "pattern":
			if str, ok := v.(string); ok && !s.regexp(kv.(string)).MatchString(str) {
				fail("%q does not match %s", str, kv)
			}
		case "format":
			if str, ok := v.(string); ok {
				if err := checkFormat(kv.(string), str); err != nil {
					fail("%q is not a valid %s: %v", str, kv, err)
				}
			}
		case "anyOf", "oneOf":
			n := 0
			for _, alt := range kv.([]any) {
				var sub []string
				s.check(alt.(map[string]any), v, path, &sub)
				if len(sub) == 0 {
					n++
				}
			}
			if n == 0 || k == "oneOf" && n != 1 {
				fail("%s: %d alternatives match", k, n)
			}
		default:
			if !annotations[k] {
				fail("schema keyword %q is not supported by this validator", k)
			}
		}
	}
}

func (s *schema) resolve(ref string) map[string]any {
	if !strings.HasPrefix(ref, "#/") {
		return nil
	}
	var cur any = s.root
	for _, part := range strings.Split(ref[2:], "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[part]
	}
	m, _ := cur.(map[string]any)
	return m
}

func (s *schema) regexp(p string) *regexp.Regexp {
	if re, ok := s.re[p]; ok {
		return re
	}
	re := regexp.MustCompile(p)
	s.re[p] = re
	return re
}

func hasType(v any, typ string) bool {
	switch typ {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "number":
		_, ok := v.(json.Number)
		return ok
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		f, err := n.Float64()
		return err == nil && f == math.Trunc(f)
	case "null":
		return v == nil
	}
	return false
}

func num(v any) float64 {
	switch n := v.(type) {
	case float64:
		return n
	case json.Number:
		f, _ := n.Float64()
		return f
	}
	return math.NaN()
}

func jsonEqual(a, b any) bool {
	if na, ok := a.(json.Number); ok {
		a = num(na)
	}
	if nb, ok := b.(json.Number); ok {
		b = num(nb)
	}
	return reflect.DeepEqual(a, b)
}

func checkFormat(format, s string) error {
	switch format {
	case "uri":
		u, err := url.Parse(s)
		if err != nil {
			return err
		}
		if u.Scheme == "" {
			return fmt.Errorf("no scheme")
		}
	case "uri-reference":
		if strings.ContainsAny(s, " \\") {
			return fmt.Errorf("unescaped blank or backslash")
		}
		_, err := url.Parse(s)
		return err
	case "date-time":
		_, err := time.Parse(time.RFC3339, s)
		return err
	default:
		return fmt.Errorf("unknown format")
	}
	return nil
}
