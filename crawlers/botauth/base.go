package botauth

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/dunglas/httpsfv"
)

// message is what a signature base reads: the derived components of a
// request (RFC 9421 section 2.2) or a response, and its header fields.
type message struct {
	method    string
	scheme    string
	authority string
	path      string
	query     string // without '?'
	target    string // request target as sent
	status    int    // responses only
	header    http.Header
	req       *message // the request a response answers, for ;req
}

// requestMessage returns the message of r. The scheme is r.URL.Scheme, or
// "https" when r arrived over TLS, else "http".
func requestMessage(r *http.Request) *message {
	scheme := strings.ToLower(r.URL.Scheme)
	if scheme == "" {
		scheme = "http"
		if r.TLS != nil {
			scheme = "https"
		}
	}
	host := r.Host
	if host == "" {
		host = r.URL.Host
	}
	path := r.URL.EscapedPath()
	if path == "" {
		path = "/"
	}
	target := r.RequestURI
	if target == "" {
		target = r.URL.RequestURI()
	}
	method := r.Method
	if method == "" {
		method = http.MethodGet
	}
	return &message{
		method:    method,
		scheme:    scheme,
		authority: normalizeAuthority(scheme, host),
		path:      path,
		query:     r.URL.RawQuery,
		target:    target,
		header:    r.Header,
	}
}

// normalizeAuthority lowercases host and drops the scheme's default port
// (RFC 9421 section 2.2.3, RFC 9110 section 4.2.3).
func normalizeAuthority(scheme, host string) string {
	host = strings.ToLower(host)
	h, port, err := net.SplitHostPort(host)
	if err != nil {
		return host
	}
	if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
		if strings.Contains(h, ":") {
			return "[" + h + "]"
		}
		return h
	}
	return host
}

// componentError is a failure to compute one component's value.
type componentError struct {
	id  string
	msg string
}

func (e *componentError) Error() string { return e.id + ": " + e.msg }

// signatureBase returns the RFC 9421 section 2.5 signature base of m for
// the covered components and signature parameters of sig. A component that
// cannot be computed fails with a *componentError.
func signatureBase(m *message, sig httpsfv.InnerList) (string, error) {
	var b strings.Builder
	seen := map[string]bool{}
	for _, it := range sig.Items {
		id, err := httpsfv.Marshal(it)
		if err != nil {
			return "", &componentError{fmt.Sprint(it.Value), "cannot serialize the identifier: " + err.Error()}
		}
		if seen[id] {
			return "", &componentError{id, "covered twice"}
		}
		seen[id] = true
		v, err := m.component(it)
		if err != nil {
			return "", &componentError{id, err.Error()}
		}
		b.WriteString(id)
		b.WriteString(": ")
		b.WriteString(v)
		b.WriteByte('\n')
	}
	params, err := httpsfv.Marshal(sig)
	if err != nil {
		return "", &componentError{`"@signature-params"`, err.Error()}
	}
	b.WriteString(`"@signature-params": `)
	b.WriteString(params)
	return b.String(), nil
}

// dictionaryFields are the fields this package knows to be RFC 9651
// Dictionaries, for the sf parameter.
var dictionaryFields = map[string]bool{
	"signature": true, "signature-input": true, "signature-agent": true,
	"content-digest": true, "repr-digest": true, "want-content-digest": true,
	"want-repr-digest": true, "accept-signature": true,
}

// component returns the value of one covered component (RFC 9421
// sections 2.1 and 2.2).
func (m *message) component(it httpsfv.Item) (string, error) {
	name, ok := it.Value.(string)
	if !ok {
		return "", errors.New("a component identifier must be a String")
	}
	if name != strings.ToLower(name) {
		return "", errors.New("a component name must be lower case")
	}
	var key, qname string
	var sf, bs, req bool
	for _, p := range it.Params.Names() {
		v, _ := it.Params.Get(p)
		switch p {
		case "key", "name":
			s, ok := v.(string)
			if !ok {
				return "", fmt.Errorf("parameter %s must be a String", p)
			}
			if p == "key" {
				key = s
			} else {
				qname = s
			}
		case "sf", "bs", "req":
			if v != true {
				return "", fmt.Errorf("parameter %s must be the Boolean true", p)
			}
			switch p {
			case "sf":
				sf = true
			case "bs":
				bs = true
			default:
				req = true
			}
		default: // tr and unknown parameters: cannot be honoured
			return "", fmt.Errorf("parameter %s is not supported", p)
		}
	}
	if req {
		if m.req == nil {
			return "", errors.New("req on a request: there is no related request")
		}
		m = m.req
	}
	if strings.HasPrefix(name, "@") {
		if key != "" || sf || bs {
			return "", errors.New("key, sf and bs apply to fields, not derived components")
		}
		if qname != "" && name != "@query-param" {
			return "", errors.New("name applies to @query-param only")
		}
		return m.derived(name, qname)
	}
	if qname != "" {
		return "", errors.New("name applies to @query-param only")
	}
	if (key != "" && (sf || bs)) || (sf && bs) {
		return "", errors.New("key, sf and bs exclude each other")
	}
	lines := m.header.Values(name)
	if len(lines) == 0 {
		return "", errors.New("the message has no such field")
	}
	switch {
	case bs:
		parts := make([]string, len(lines))
		for i, l := range lines {
			parts[i] = ":" + base64.StdEncoding.EncodeToString([]byte(trimOWS(l))) + ":"
		}
		return strings.Join(parts, ", "), nil
	case key != "":
		d, err := httpsfv.UnmarshalDictionary(lines)
		if err != nil {
			return "", fmt.Errorf("the field is not a Dictionary: %v", err)
		}
		mem, ok := d.Get(key)
		if !ok {
			return "", fmt.Errorf("the field has no member %q", key)
		}
		return marshalMember(mem)
	case sf:
		if !dictionaryFields[name] {
			return "", errors.New("sf on a field of unknown structured type")
		}
		d, err := httpsfv.UnmarshalDictionary(lines)
		if err != nil {
			return "", fmt.Errorf("the field is not a Dictionary: %v", err)
		}
		return httpsfv.Marshal(d)
	}
	parts := make([]string, len(lines)) // lines is the header's own slice
	for i, l := range lines {
		parts[i] = trimOWS(strings.ReplaceAll(strings.ReplaceAll(l, "\r\n", " "), "\n", " "))
	}
	return strings.Join(parts, ", "), nil
}

func marshalMember(mem httpsfv.Member) (string, error) {
	switch v := mem.(type) {
	case httpsfv.Item:
		return httpsfv.Marshal(v)
	case httpsfv.InnerList:
		return httpsfv.Marshal(v)
	}
	return "", errors.New("unknown dictionary member type")
}

func trimOWS(s string) string { return strings.Trim(s, " \t") }

// derived returns a derived component's value (RFC 9421 section 2.2).
func (m *message) derived(name, qname string) (string, error) {
	isResponse := m.status != 0
	if isResponse && name != "@status" {
		return "", errors.New("a request component on a response: add ;req")
	}
	switch name {
	case "@status":
		if !isResponse {
			return "", errors.New("@status on a request")
		}
		return strconv.Itoa(m.status), nil
	case "@method":
		return m.method, nil
	case "@target-uri":
		u := m.scheme + "://" + m.authority + m.path
		if m.query != "" {
			u += "?" + m.query
		}
		return u, nil
	case "@authority":
		return m.authority, nil
	case "@scheme":
		return m.scheme, nil
	case "@request-target":
		return m.target, nil
	case "@path":
		return m.path, nil
	case "@query":
		return "?" + m.query, nil
	case "@query-param":
		if qname == "" {
			return "", errors.New("@query-param needs a name parameter")
		}
		var found []string
		for pair := range strings.SplitSeq(m.query, "&") {
			if pair == "" {
				continue
			}
			k, v, _ := strings.Cut(pair, "=")
			dk, err1 := url.QueryUnescape(k)
			dv, err2 := url.QueryUnescape(v)
			if err1 != nil || err2 != nil {
				return "", errors.New("the query is not percent-encoded properly")
			}
			if formEncode(dk) == qname {
				found = append(found, formEncode(dv))
			}
		}
		switch len(found) {
		case 0:
			return "", fmt.Errorf("the query has no parameter %q", qname)
		case 1:
			return found[0], nil
		}
		return "", fmt.Errorf("the query has parameter %q more than once", qname)
	}
	return "", fmt.Errorf("unknown derived component %s", name)
}

// formEncode percent-encodes s with the application/x-www-form-urlencoded
// percent-encode set, a space as %20 (RFC 9421 section 2.2.8).
func formEncode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '*' || c == '-' || c == '.' || c == '_' {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}
