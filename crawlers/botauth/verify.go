package botauth

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/dunglas/httpsfv"
)

// Tag is the value of the tag parameter that marks a Web Bot Auth signature.
const Tag = "web-bot-auth"

// SignatureAgent is the Signature-Agent member a signature covers: where
// its key is published (the signature agent of
// draft-ietf-webbotauth-httpsig-protocol).
type SignatureAgent struct {
	Member string // the Dictionary key, e.g. "sig1"; "" for the legacy String form
	URL    string // the member value
	Type   string // the type parameter: "directory" (the default), "jwks_uri" or "cimd"
}

// Legacy reports whether the header had the older plain String form.
func (a *SignatureAgent) Legacy() bool { return a.Member == "" }

// Agent is the former name of SignatureAgent.
//
// Deprecated: use SignatureAgent.
type Agent = SignatureAgent

// Key is a verification key and where it was found.
type Key struct {
	JWK JWK
	// Directory is the URL the key was fetched from, "" for a key given
	// locally: then the signer is known by the key alone, not by a URL.
	Directory string
	// Proven is set when the directory response carried a valid signature
	// made with this key (the draft's possession proof).
	Proven bool
}

// KeySource finds the key named by keyid that a signature agent publishes.
// agent is nil when the request carries no Signature-Agent. Errors are
// [*Error] values whose Reason is [UnknownKey], [DirectoryUnavailable],
// [UnsupportedAgent], [BadAgent] or [NoKeySource].
type KeySource interface {
	Key(ctx context.Context, agent *SignatureAgent, keyid string) (Key, error)
}

// Key implements [KeySource] for a fixed key set: the key whose thumbprint
// is keyid, whatever the agent. The kid members are not trusted.
func (s JWKS) Key(_ context.Context, _ *SignatureAgent, keyid string) (Key, error) {
	for _, k := range s.Keys {
		if t, err := k.Thumbprint(); err == nil && t == keyid {
			return Key{JWK: k}, nil
		}
	}
	return Key{}, &Error{Reason: UnknownKey, KeyID: keyid, Detail: fmt.Sprintf("none of the %d keys given has this thumbprint", len(s.Keys))}
}

// Verifier verifies Web Bot Auth signatures. The zero Verifier has no keys
// and reports every signed request unverified; set Keys. A Verifier is safe
// for concurrent use when its KeySource is.
type Verifier struct {
	// Keys finds verification keys: a [JWKS] or a [*Fetcher].
	Keys KeySource
	// Now returns the time against which created and expires are judged;
	// nil means time.Now.
	Now func() time.Time
	// Leeway tolerates clock skew: a created up to Leeway in the future and
	// an expires up to Leeway in the past are accepted.
	Leeway time.Duration
	// MaxValidity, when positive, refuses a signature whose expires is
	// more than MaxValidity after its created (the draft recommends no
	// more than 24 hours).
	MaxValidity time.Duration
	// Fields, when not nil, are the only header fields (lower case) known
	// of the request: one rebuilt from an access log line carries just the
	// fields the log records. A covered field outside them cannot be
	// computed, and the signature is unverified (UnknownField) rather than
	// invalid; a field among them that the request lacks is absent, as for
	// a live request. nil means the request is complete.
	Fields []string
}

// Result is the outcome of verifying a request. When several Web Bot Auth
// signatures are present it describes the first that verified, else the
// first invalid one, else the first.
type Result struct {
	Verdict Verification
	// Err is why the request is not Verified, an [*Error]; nil when it is.
	Err error
	// The signature judged; empty when there is none.
	Label   string
	KeyID   string
	Alg     string
	Tag     string
	Agent   *SignatureAgent // the covered Signature-Agent member, nil without one
	Key     *Key            // the key that verified, when Verified
	Covered []string        // the covered component identifiers, serialized
	Created time.Time       // zero when absent
	Expires time.Time       // zero when absent
	// Base is the RFC 9421 signature base, when it could be built.
	Base string
}

func (v *Verifier) now() time.Time {
	if v.Now != nil {
		return v.Now()
	}
	return time.Now()
}

// Verify verifies the Web Bot Auth signatures of r. The request's scheme,
// for @target-uri and @scheme, is r.URL.Scheme, else https when r.TLS is
// set, else http.
func (v *Verifier) Verify(ctx context.Context, r *http.Request) Result {
	m := requestMessage(r)
	inputs := r.Header.Values("Signature-Input")
	sigs := r.Header.Values("Signature")
	if len(inputs) == 0 && len(sigs) == 0 {
		return fail(Result{}, &Error{Reason: NoSignature, Detail: "the request has no Signature-Input or Signature header"})
	}
	if len(inputs) == 0 {
		return fail(Result{}, &Error{Reason: Malformed, Header: "Signature-Input", Detail: "Signature without Signature-Input"})
	}
	in, err := httpsfv.UnmarshalDictionary(inputs)
	if err != nil {
		return fail(Result{}, &Error{Reason: Malformed, Header: "Signature-Input", Detail: "not an RFC 9651 Dictionary", Err: err})
	}
	sd := httpsfv.NewDictionary()
	if len(sigs) > 0 {
		if sd, err = httpsfv.UnmarshalDictionary(sigs); err != nil {
			return fail(Result{}, &Error{Reason: Malformed, Header: "Signature", Detail: "not an RFC 9651 Dictionary", Err: err})
		}
	}
	var results []Result
	var foreign []string
	for _, label := range in.Names() {
		mem, _ := in.Get(label)
		list, ok := mem.(httpsfv.InnerList)
		if !ok {
			results = append(results, fail(Result{Label: label}, &Error{Reason: Malformed, Label: label, Header: "Signature-Input", Detail: "the member is not an Inner List of components"}))
			continue
		}
		tag, _ := list.Params.Get("tag")
		if tag != Tag {
			foreign = append(foreign, fmt.Sprintf("%s (tag %v)", label, sfString(tag)))
			continue
		}
		results = append(results, v.verifyOne(ctx, m, r.Header, label, list, sd))
	}
	if len(results) == 0 {
		return fail(Result{}, &Error{Reason: ForeignTag, Detail: fmt.Sprintf("no signature has tag=%q: %s", Tag, strings.Join(foreign, ", "))})
	}
	for _, want := range []Verification{Verified, Invalid} {
		for _, res := range results {
			if res.Verdict == want {
				return res
			}
		}
	}
	return results[0]
}

// sfString shows a parameter value for a message.
func sfString(v any) string {
	switch v := v.(type) {
	case nil:
		return "absent"
	case string:
		return fmt.Sprintf("%q", v)
	}
	return fmt.Sprint(v)
}

func fail(r Result, e *Error) Result {
	r.Verdict = e.Reason.Verdict()
	r.Err = e
	return r
}

// verifyOne checks one web-bot-auth signature, in the order a signer
// would fix it: headers, covered components, parameters, time, base, key,
// signature.
func (v *Verifier) verifyOne(ctx context.Context, m *message, h http.Header, label string, list httpsfv.InnerList, sd *httpsfv.Dictionary) Result {
	res := Result{Label: label, Tag: Tag}
	bad := func(e *Error) Result {
		e.Label = label
		if e.KeyID == "" {
			e.KeyID = res.KeyID
		}
		return fail(res, e)
	}
	for _, it := range list.Items {
		id, err := httpsfv.Marshal(it)
		if _, isStr := it.Value.(string); err != nil || !isStr {
			return bad(&Error{Reason: Malformed, Header: "Signature-Input", Detail: fmt.Sprintf("component %v is not a String", it.Value)})
		}
		res.Covered = append(res.Covered, id)
	}
	if p, ok := list.Params.Get("keyid"); ok {
		if s, ok := p.(string); ok {
			res.KeyID = s
		}
	}

	// The signature itself.
	sm, ok := sd.Get(label)
	if !ok {
		return bad(&Error{Reason: MissingSignature, Header: "Signature", Detail: fmt.Sprintf("Signature has no member %q", label)})
	}
	si, ok := sm.(httpsfv.Item)
	sig, isBytes := si.Value.([]byte)
	if !ok || !isBytes {
		return bad(&Error{Reason: Malformed, Header: "Signature", Detail: fmt.Sprintf("member %q is not a Byte Sequence", label)})
	}

	// Required components.
	if !covers(list, "@authority") && !covers(list, "@target-uri") {
		return bad(&Error{Reason: MissingComponent, Component: `"@authority" or "@target-uri"`, Detail: "a web-bot-auth signature must cover the authority or the target URI"})
	}
	if len(h.Values("Signature-Agent")) > 0 {
		agent, e := coveredAgent(h, label, list)
		if e != nil {
			return bad(e)
		}
		res.Agent = agent
	}

	// Parameters.
	created, e := intParam(list, "created")
	if e != nil {
		return bad(e)
	}
	expires, e := intParam(list, "expires")
	if e != nil {
		return bad(e)
	}
	res.Created, res.Expires = time.Unix(created, 0).UTC(), time.Unix(expires, 0).UTC()
	if res.KeyID == "" {
		if _, ok := list.Params.Get("keyid"); ok {
			return bad(&Error{Reason: MissingParameter, Param: "keyid", Detail: "keyid must be a String"})
		}
		return bad(&Error{Reason: MissingParameter, Param: "keyid", Detail: "keyid names the key: its JWK SHA-256 thumbprint"})
	}
	if p, ok := list.Params.Get("alg"); ok {
		s, isStr := p.(string)
		if !isStr {
			return bad(&Error{Reason: BadParameter, Param: "alg", Detail: "alg must be a String"})
		}
		res.Alg = s
		if s != "ed25519" {
			return bad(&Error{Reason: UnsupportedAlgorithm, Param: "alg", Detail: fmt.Sprintf("alg %q: only ed25519 is verified", s)})
		}
	}
	if p, ok := list.Params.Get("nonce"); ok {
		if _, isStr := p.(string); !isStr {
			return bad(&Error{Reason: BadParameter, Param: "nonce", Detail: "nonce must be a String"})
		}
	}
	if expires <= created {
		return bad(&Error{Reason: BadParameter, Param: "expires", Detail: fmt.Sprintf("expires %d is not after created %d", expires, created)})
	}
	if v.MaxValidity > 0 && time.Duration(expires-created)*time.Second > v.MaxValidity {
		return bad(&Error{Reason: BadParameter, Param: "expires", Detail: fmt.Sprintf("valid for %s, more than the %s allowed", time.Duration(expires-created)*time.Second, v.MaxValidity)})
	}

	// Time.
	now := v.now()
	if now.After(res.Expires.Add(v.Leeway)) {
		return bad(&Error{Reason: Expired, Param: "expires", Detail: fmt.Sprintf("expired at %s, %s before %s", res.Expires.Format(time.RFC3339), now.Sub(res.Expires).Round(time.Second), now.UTC().Format(time.RFC3339))})
	}
	if res.Created.After(now.Add(v.Leeway)) {
		return bad(&Error{Reason: NotYetValid, Param: "created", Detail: fmt.Sprintf("created %s, %s after %s", res.Created.Format(time.RFC3339), res.Created.Sub(now).Round(time.Second), now.UTC().Format(time.RFC3339))})
	}

	// Header fields the request cannot be known to carry.
	if v.Fields != nil {
		for _, it := range list.Items {
			name, _ := it.Value.(string)
			if !strings.HasPrefix(name, "@") && !slices.Contains(v.Fields, name) {
				id, _ := httpsfv.Marshal(it)
				return bad(&Error{Reason: UnknownField, Component: id, Detail: "the request as known does not record this field, so the signature base cannot be built"})
			}
		}
	}

	// The authority, which @authority and @target-uri both hold: a request
	// rebuilt from a log line that does not carry its host has none, and
	// its signature can be judged neither valid nor invalid.
	if m.authority == "" {
		c := `"@authority"`
		if !covers(list, "@authority") {
			c = `"@target-uri"`
		}
		return bad(&Error{Reason: UnknownAuthority, Component: c, Detail: "the request's host is not known, so the signature base cannot be built"})
	}

	// Signature base.
	base, err := signatureBase(m, list)
	if err != nil {
		var ce *componentError
		if errors.As(err, &ce) {
			return bad(&Error{Reason: BadComponent, Component: ce.id, Detail: ce.msg})
		}
		return bad(&Error{Reason: BadComponent, Err: err})
	}
	res.Base = base

	// Key.
	if v.Keys == nil {
		return bad(&Error{Reason: NoKeySource, Detail: "no keys given and no directory fetching"})
	}
	key, err := v.Keys.Key(ctx, res.Agent, res.KeyID)
	if err != nil {
		var ke *Error
		if !errors.As(err, &ke) {
			ke = &Error{Reason: DirectoryUnavailable, Err: err}
		}
		return bad(ke)
	}
	pub, err := key.JWK.Ed25519()
	if err != nil {
		return bad(&Error{Reason: UnsupportedAlgorithm, Directory: key.Directory, Detail: fmt.Sprintf("the key is kty %q crv %q; only Ed25519 is verified", key.JWK.Kty, key.JWK.Crv)})
	}
	if Thumbprint(pub) != res.KeyID {
		return bad(&Error{Reason: KeyMismatch, Directory: key.Directory, Detail: "the key found has thumbprint " + Thumbprint(pub)})
	}
	if !key.JWK.ValidAt(now) {
		return bad(&Error{Reason: Expired, Directory: key.Directory, Detail: fmt.Sprintf("the key is valid from nbf %d to exp %d only", key.JWK.Nbf, key.JWK.Exp)})
	}
	if !ed25519.Verify(pub, []byte(base), sig) {
		return bad(&Error{Reason: BadSignature, Directory: key.Directory, Detail: "Ed25519 verification of the signature base fails: a covered component differs from what was signed, or another key signed"})
	}
	res.Verdict = Verified
	res.Key = &key
	return res
}

// covers reports whether list covers the derived component name of the
// request itself (without req).
func covers(list httpsfv.InnerList, name string) bool {
	for _, it := range list.Items {
		if it.Value == name {
			if _, req := it.Params.Get("req"); !req {
				return true
			}
		}
	}
	return false
}

// coveredAgent returns the Signature-Agent member the signature covers:
// the one keyed by its label when covered, else the first covered one; for
// the legacy String form, the whole field.
func coveredAgent(h http.Header, label string, list httpsfv.InnerList) (*SignatureAgent, *Error) {
	lines := h.Values("Signature-Agent")
	want := fmt.Sprintf(`"signature-agent";key=%q`, label)
	if strings.HasPrefix(trimOWS(lines[0]), `"`) {
		// The legacy form: a String Item.
		it, err := httpsfv.UnmarshalItem(lines)
		if err != nil {
			return nil, &Error{Reason: Malformed, Header: "Signature-Agent", Detail: "not an RFC 9651 Dictionary or String", Err: err}
		}
		s, ok := it.Value.(string)
		if !ok {
			return nil, &Error{Reason: Malformed, Header: "Signature-Agent", Detail: "the legacy form must be a String"}
		}
		for _, c := range list.Items {
			if c.Value == "signature-agent" && len(c.Params.Names()) == 0 {
				return newAgent("", s, it.Params)
			}
		}
		return nil, &Error{Reason: MissingComponent, Component: `"signature-agent"`, Detail: "the request has a Signature-Agent header the signature does not cover"}
	}
	d, err := httpsfv.UnmarshalDictionary(lines)
	if err != nil {
		return nil, &Error{Reason: Malformed, Header: "Signature-Agent", Detail: "not an RFC 9651 Dictionary or String", Err: err}
	}
	var keys []string
	whole := false
	for _, c := range list.Items {
		if c.Value != "signature-agent" {
			continue
		}
		k, ok := c.Params.Get("key")
		if s, isStr := k.(string); ok && isStr {
			keys = append(keys, s)
		} else if len(c.Params.Names()) == 0 {
			whole = true
		}
	}
	pick := ""
	for _, k := range keys {
		if k == label {
			pick = k
		}
	}
	if pick == "" && len(keys) > 0 {
		pick = keys[0]
	}
	if pick == "" && whole && len(d.Names()) == 1 {
		pick = d.Names()[0]
	}
	if pick == "" {
		return nil, &Error{Reason: MissingComponent, Component: want, Detail: "the request has a Signature-Agent header and the signature covers none of its members"}
	}
	mem, ok := d.Get(pick)
	if !ok {
		return nil, &Error{Reason: BadComponent, Component: fmt.Sprintf(`"signature-agent";key=%q`, pick), Detail: "Signature-Agent has no such member"}
	}
	it, ok := mem.(httpsfv.Item)
	s, isStr := it.Value.(string)
	if !ok || !isStr {
		return nil, &Error{Reason: BadAgent, Header: "Signature-Agent", Detail: fmt.Sprintf("member %q is not a String", pick)}
	}
	return newAgent(pick, s, it.Params)
}

func newAgent(member, value string, params *httpsfv.Params) (*SignatureAgent, *Error) {
	a := &SignatureAgent{Member: member, URL: value, Type: "directory"}
	if t, ok := params.Get("type"); ok {
		tok, isTok := t.(httpsfv.Token)
		if !isTok {
			return nil, &Error{Reason: BadAgent, Header: "Signature-Agent", Detail: "the type parameter must be a Token"}
		}
		a.Type = string(tok)
	}
	u, err := url.Parse(value)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return a, &Error{Reason: BadAgent, Header: "Signature-Agent", Detail: fmt.Sprintf("%q is not an https URL", value)}
	}
	return a, nil
}

// intParam returns an Integer signature parameter.
func intParam(list httpsfv.InnerList, name string) (int64, *Error) {
	p, ok := list.Params.Get(name)
	if !ok {
		return 0, &Error{Reason: MissingParameter, Param: name, Detail: "a web-bot-auth signature must carry created and expires"}
	}
	n, ok := p.(int64)
	if !ok {
		return 0, &Error{Reason: MissingParameter, Param: name, Detail: fmt.Sprintf("%s must be an Integer (Unix seconds), got %v", name, p)}
	}
	return n, nil
}
