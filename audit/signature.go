package audit

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/accesslog"
	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/crawlers/botauth"
	"github.com/rep-toolkit/rep/crawlers/identity"
)

// signed reports whether rec carries a Web Bot Auth signature to check.
func signed(rec *accesslog.Record) bool {
	return len(rec.SignatureInput) > 0 || len(rec.Signature) > 0
}

// signature verifies the signature of rec, a request claiming crawler c,
// as of the request's own time t: created and expires are judged against
// the log line, not the time of the audit.
func (a *Auditor) signature(ctx context.Context, c *crawlers.Crawler, rec *accesslog.Record, t int64) botauth.Result {
	v := *a.opt.Signatures
	if v.Keys != nil {
		v.Keys = listedKeys{src: v.Keys, c: c}
	}
	when := time.Unix(0, t).UTC()
	v.Now = func() time.Time { return when }
	v.Fields = loggedFields
	res := v.Verify(ctx, signedRequest(rec, a.site))
	res.Base = "" // the audit keeps results; the base is not reported
	return res
}

// loggedFields are the header fields signedRequest carries: a signature
// covering another one cannot be checked from the log (botauth.UnknownField).
var loggedFields = []string{"user-agent", "signature", "signature-input", "signature-agent"}

// signedRequest rebuilds the parts of a logged request that a signature
// base can cover: the method, the scheme (https unless the log says
// http), the authority (the host as logged with its port, else the host,
// else site), the target in origin form and the header fields the log
// carries: User-Agent, Signature, Signature-Input and Signature-Agent.
func signedRequest(rec *accesslog.Record, site []byte) *http.Request {
	scheme := "https"
	if strings.EqualFold(str(rec.Scheme), "http") {
		scheme = "http"
	}
	host := rec.Authority
	if len(host) == 0 {
		host = rec.Host
	}
	if len(host) == 0 {
		host = site
	}
	target := string(rec.PathQuery())
	u, err := url.ParseRequestURI(target)
	if err != nil {
		u = &url.URL{}
	}
	u.Scheme, u.Host = scheme, ""
	h := http.Header{}
	for _, f := range [...]struct {
		name string
		v    []byte
	}{{"User-Agent", rec.UserAgent}, {"Signature", rec.Signature}, {"Signature-Input", rec.SignatureInput}, {"Signature-Agent", rec.SignatureAgent}} {
		if len(f.v) > 0 {
			h[f.name] = []string{string(f.v)}
		}
	}
	method := string(rec.Method)
	if method == "" {
		method = http.MethodGet
	}
	return &http.Request{Method: method, URL: u, Host: string(host), Header: h, RequestURI: target, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1}
}

// listedKeys asks src only for the keys of the Signature-Agents the
// registry lists for crawler c (crawlers.Proof.SignatureAgents). A
// signature from any other agent cannot prove that the request came from
// c (identity.WithSignature), and the audit must not fetch from whatever
// origin a logged request names: anyone can send a Signature-Agent header.
type listedKeys struct {
	src botauth.KeySource
	c   *crawlers.Crawler
}

func (k listedKeys) Key(ctx context.Context, agent *botauth.SignatureAgent, keyid string) (botauth.Key, error) {
	if agent == nil {
		return botauth.Key{}, &botauth.Error{Reason: botauth.NoKeySource, KeyID: keyid, Detail: "the request has no Signature-Agent naming a directory"}
	}
	if identity.DirectoryListed(k.c, agent.URL) {
		return k.src.Key(ctx, agent, keyid)
	}
	listed := "no Signature-Agent"
	if len(k.c.Verify.SignatureAgents) > 0 {
		listed = "only " + strings.Join(k.c.Verify.SignatureAgents, ", ")
	}
	return botauth.Key{}, &botauth.Error{Reason: botauth.NoKeySource, KeyID: keyid,
		Detail: fmt.Sprintf("the registry lists %s for %s, not %s: its keys are not looked up", listed, k.c.Name, agent.URL)}
}

// SavedDirectories is a botauth.KeySource for offline audits: copies of
// key directories (JWK Sets saved from
// https://AGENT/.well-known/http-message-signatures-directory), so that no
// directory is fetched. A key found is reported as coming from the
// directory of the Signature-Agent that asked for it, as a fetched key
// would be, so identity.WithSignature accepts it as proof when the
// registry lists that agent for the claimed crawler. The zero value holds
// no keys.
type SavedDirectories struct {
	sets map[string][]botauth.JWKS // by directory URL; "" serves every agent
}

// Add adds keys as the directory of agent, a Signature-Agent origin such
// as "https://agent.bot.goog"; for agent "" the keys serve every agent the
// audit looks keys up for, which is only those the registry lists for the
// crawler a request claims.
func (d *SavedDirectories) Add(agent string, keys botauth.JWKS) error {
	dir := ""
	if agent != "" {
		var err error
		if dir, err = (&botauth.SignatureAgent{URL: agent, Type: "directory"}).DirectoryURL(false); err != nil {
			return err
		}
	}
	if d.sets == nil {
		d.sets = map[string][]botauth.JWKS{}
	}
	d.sets[dir] = append(d.sets[dir], keys)
	return nil
}

// Key implements botauth.KeySource: the key whose thumbprint is keyid
// among the keys saved for agent's directory and those saved for every
// agent.
func (d *SavedDirectories) Key(ctx context.Context, agent *botauth.SignatureAgent, keyid string) (botauth.Key, error) {
	if agent == nil {
		return botauth.Key{}, &botauth.Error{Reason: botauth.NoKeySource, KeyID: keyid, Detail: "the request has no Signature-Agent naming a directory"}
	}
	dir, err := agent.DirectoryURL(false)
	if err != nil {
		return botauth.Key{}, err
	}
	n := 0
	for _, sets := range [...][]botauth.JWKS{d.sets[dir], d.sets[""]} {
		for _, set := range sets {
			n += len(set.Keys)
			if k, err := set.Key(ctx, agent, keyid); err == nil {
				k.Directory = dir
				return k, nil
			}
		}
	}
	return botauth.Key{}, &botauth.Error{Reason: botauth.UnknownKey, KeyID: keyid, Directory: dir,
		Detail: fmt.Sprintf("none of the %d saved keys for this directory has this thumbprint", n)}
}

// signedCount counts the requests from one address that carried a
// signature with one outcome: the same verdict and, when verified, a key
// from the same directory, so identity.WithSignature judges them alike.
type signedCount struct {
	sig  botauth.Result // the first of them
	n, d int64          // requests, of which disallowed
}

func keyDir(r botauth.Result) string {
	if r.Key == nil {
		return ""
	}
	return r.Key.Directory
}

// addSigned counts one signed request in st.
func (st *ipStat) addSigned(sig botauth.Result, disallowed bool) {
	for _, c := range st.signed {
		if c.sig.Verdict == sig.Verdict && keyDir(c.sig) == keyDir(sig) {
			c.n++
			c.d += b2i(disallowed)
			return
		}
	}
	st.signed = append(st.signed, &signedCount{sig: sig, n: 1, d: b2i(disallowed)})
}

// countSignature adds one request's signature verdict to the crawler's
// Signatures.
func (s *cstate) countSignature(sig botauth.Result, rec *accesslog.Record, t int64) {
	if s.out.Signatures == nil {
		s.out.Signatures = &Signatures{}
	}
	g := s.out.Signatures
	switch sig.Verdict {
	case botauth.Verified:
		g.Verified++
		return
	case botauth.Invalid:
		g.Invalid++
	default:
		g.Unverified++
	}
	reason := reasonOf(sig)
	if g.Reasons == nil {
		g.Reasons = map[string]int64{}
	}
	g.Reasons[string(reason)]++
	when := time.Unix(0, t).UTC()
	if sig.Verdict == botauth.Invalid && (g.FirstInvalid == nil || when.Before(g.FirstInvalid.Time)) {
		msg := string(reason)
		if sig.Err != nil {
			msg = sig.Err.Error()
		}
		g.FirstInvalid = &SignatureProblem{Time: when, IP: string(rec.IP), Path: string(rec.PathQuery()), Error: msg}
	}
}

// reasonOf returns why sig is not verified, "" when it is.
func reasonOf(sig botauth.Result) botauth.Reason {
	if sig.Verdict == botauth.Verified {
		return ""
	}
	var e *botauth.Error
	if errors.As(sig.Err, &e) {
		return e.Reason
	}
	return "" // Verifier.Verify always gives an *botauth.Error
}

// withSignature combines the network verdict of an address with the
// signature of one of its requests.
func withSignature(c *crawlers.Crawler, net netVerification, sig botauth.Result) netVerification {
	r := identity.WithSignature(identity.Result{Crawler: c, Verdict: net.v, Method: net.m}, sig)
	return netVerification{r.Verdict, r.Method}
}
