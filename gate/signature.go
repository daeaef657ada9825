package gate

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/crawlers/botauth"
	"github.com/rep-toolkit/rep/crawlers/identity"
)

// maxSignatureValidity is the longest a signature may be valid for under
// the default Options.Signatures: the draft recommends no more than 24
// hours, and a longer one is a longer window for replaying it.
const maxSignatureValidity = 24 * time.Hour

// fetcherUserAgent is the User-Agent of the default directory fetches.
const fetcherUserAgent = "rep-gate (+https://github.com/rep-toolkit/rep)"

// initSignatures sets up signature verification from the Options.
func (g *Gate) initSignatures() {
	if g.o.Signatures != nil {
		g.sig = *g.o.Signatures
	} else {
		g.sig = botauth.Verifier{MaxValidity: maxSignatureValidity}
	}
	if g.sig.Keys == nil {
		g.sig.Keys = &botauth.Fetcher{UserAgent: fetcherUserAgent, AllowPrivate: g.o.AllowPrivate, AllowHTTP: g.o.AllowPrivate}
	}
	if g.sig.Now == nil {
		g.sig.Now = g.o.Now
	}
	g.dirs = map[string]botauth.JWKS{}
	for origin, set := range g.o.Directories {
		dir, err := (&botauth.SignatureAgent{URL: origin}).DirectoryURL(true)
		if err != nil {
			continue // not an origin: no Signature-Agent can name it
		}
		g.dirs[dir] = set
	}
	g.signers = map[*crawlers.Crawler]*crawlers.Crawler{}
	for name, origins := range g.o.SignatureAgents {
		c, ok := crawlers.ByName(name)
		if !ok || len(origins) == 0 {
			continue
		}
		cp := *c
		if prev, ok := g.signers[c]; ok { // the same crawler by another name
			cp = *prev
		}
		cp.Verify.SignatureAgents = append(append([]string(nil), cp.Verify.SignatureAgents...), origins...)
		g.signers[c] = &cp
	}
}

// identify verifies ip's claim to be c. A request that carries a signature
// (signed is not nil) is verified by it when it proves c; otherwise, and
// for an unsigned request, the network check decides (g.verify, cached
// per IP), and identity.WithSignature adds the signature's verdict to it.
func (g *Gate) identify(ctx context.Context, ip netip.Addr, c *crawlers.Crawler, signed *http.Request) identity.Result {
	if signed == nil {
		return g.verify(ctx, ip, c)
	}
	ic := c
	if x, ok := g.signers[c]; ok {
		ic = x
	}
	v := g.sig
	v.Keys = listedKeys{c: ic, g: g}
	sig := g.verifySignature(ctx, &v, signed)
	// A signature that proves c needs no network check: asked with none
	// made, WithSignature says whether it does.
	if res := identity.WithSignature(identity.Result{IP: ip, Crawler: ic, Verdict: identity.Unverifiable}, sig); res.Verdict == identity.Verified {
		res.Reason = "no network check: the signature proves the crawler"
		return res
	}
	res := g.verify(ctx, ip, c)
	res.Crawler = ic
	return identity.WithSignature(res, sig)
}

// verifySignature verifies signed's signature with v, over an @authority
// that is one of Options.Hosts: a request for any other authority (or
// every request, with no Hosts) is verified as one whose authority is
// unknown, which no signature proves, since the Host header is the
// client's to write and a signature made for another site would replay.
func (g *Gate) verifySignature(ctx context.Context, v *botauth.Verifier, signed *http.Request) botauth.Result {
	if g.listed(signed.Host) {
		return v.Verify(ctx, signed)
	}
	host := signed.Host
	o := *signed
	o.Host = ""
	res := v.Verify(ctx, &o)
	var be *botauth.Error
	if errors.As(res.Err, &be) && be.Reason == botauth.UnknownAuthority {
		e := *be
		if len(g.hosts) == 0 {
			e.Detail = "the gate lists no host of its own (Options.Hosts, -host), so no @authority is believed"
		} else {
			e.Detail = fmt.Sprintf("%q is not one of the gate's hosts (Options.Hosts, -host)", host)
		}
		res.Err = &e
	}
	return res
}

// listedKeys is the KeySource a signature claiming crawler c is verified
// with: it looks a key up only in a directory listed for c, since a key
// from anywhere else proves nothing and fetching whatever directory a
// request names would let anyone make the gate fetch it. A local copy
// (Options.Directories) stands for its directory; other directories are
// asked of the Verifier's Keys.
type listedKeys struct {
	c *crawlers.Crawler
	g *Gate
}

func (k listedKeys) Key(ctx context.Context, agent *botauth.SignatureAgent, keyid string) (botauth.Key, error) {
	if agent == nil {
		return botauth.Key{}, &botauth.Error{Reason: botauth.NoKeySource, KeyID: keyid,
			Detail: "the signature covers no Signature-Agent, so no directory listed for " + k.c.Name + " holds its key"}
	}
	dir, err := agent.DirectoryURL(true)
	if err != nil {
		return botauth.Key{}, err
	}
	if !identity.DirectoryListed(k.c, dir) {
		return botauth.Key{}, &botauth.Error{Reason: botauth.NoKeySource, KeyID: keyid, Directory: dir,
			Detail: agent.URL + " is not a Signature-Agent listed for " + k.c.Name + ": its directory is not fetched"}
	}
	if set, ok := k.g.dirs[dir]; ok {
		key, err := set.Key(ctx, agent, keyid)
		if err != nil {
			return key, err
		}
		key.Directory = dir
		return key, nil
	}
	return k.g.sig.Keys.Key(ctx, agent, keyid)
}

// hasSignature reports whether r carries a signature to verify.
func hasSignature(r *http.Request) bool {
	return len(r.Header.Values("Signature-Input")) > 0 || len(r.Header.Values("Signature")) > 0
}

// original returns r as its client sent it, for the components a signature
// covers: with method, target, host and scheme as the caller established
// them (ServeHTTP: the request's own, with X-Forwarded-Host and
// X-Forwarded-Proto from a proxy in Options.Trust; ForwardAuth: those its
// Front sets). A target that does not parse leaves the URL without a path,
// so a signature covering it fails.
func (g *Gate) original(r *http.Request, method, target, host, proto string) *http.Request {
	o := r.WithContext(r.Context())
	o.Method = method
	o.RequestURI = target
	u, err := url.ParseRequestURI(target)
	if err != nil {
		u = &url.URL{}
	}
	o.URL = u
	o.Host = host
	if p := strings.ToLower(proto); p == "http" || p == "https" {
		o.URL.Scheme = p
	}
	return o
}
