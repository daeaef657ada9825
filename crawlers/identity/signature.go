package identity

import (
	"errors"
	"net/url"
	"strings"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/crawlers/botauth"
)

// BySignature is the method of a verdict a Web Bot Auth signature proved:
// verified with a key from a directory the operator documents for the
// crawler. With a network check that agrees it is joined to that check's
// method, e.g. "signature+fcrdns+ranges".
const BySignature Method = "signature"

// WithSignature adds a Web Bot Auth verdict (botauth.Verifier.Verify) to
// the network verdict r (reverse DNS and IP lists) and says which proved
// the identity:
//
//   - a verified signature whose key was fetched from the directory of a
//     Signature-Agent the registry lists for the claimed crawler
//     (crawlers.Proof.SignatureAgents)
//     makes the verdict Verified, by BySignature, or by the signature and
//     the network check together when that check verified too; when the
//     network check disagreed, Reason keeps what it said;
//   - a verified signature with a key from elsewhere (another directory,
//     or keys given locally), an invalid signature, or an unverified one leaves the
//     network verdict as it is and says why in Reason: a signature proves
//     who holds a key, not which crawler that is;
//   - no signature at all leaves r unchanged.
//
// The returned Result's Signature holds sig.
func WithSignature(r Result, sig botauth.Result) Result {
	var e *botauth.Error
	if sig.Verdict != botauth.Verified && (sig.Err == nil && sig.Label == "" || errors.As(sig.Err, &e) && e.Reason == botauth.NoSignature) {
		return r
	}
	r.Signature = &sig
	dir := ""
	if sig.Key != nil {
		dir = sig.Key.Directory
	}
	switch {
	case sig.Verdict == botauth.Verified && DirectoryListed(r.Crawler, dir):
		if r.Verdict == Verified {
			r.Method = BySignature + "+" + r.Method
			return r
		}
		note := "network check: " + string(r.Verdict)
		if r.Reason != "" {
			note += " (" + r.Reason + ")"
		}
		r.Verdict, r.Method, r.Reason, r.Err = Verified, BySignature, note, nil
	case sig.Verdict == botauth.Verified:
		who := "the claimed crawler"
		if r.Crawler != nil {
			who = r.Crawler.Name
		}
		by := "a key given locally, not fetched from a directory"
		if dir != "" {
			by = "a key from " + dir
		}
		r.Reason = join(r.Reason, "signature verified with "+by+", which the registry does not list for "+who)
	default:
		msg := "Web Bot Auth signature " + string(sig.Verdict)
		if sig.Err != nil {
			msg += ": " + sig.Err.Error()
		}
		r.Reason = join(r.Reason, msg)
	}
	return r
}

// DirectoryListed reports whether a key from the key directory at dir
// can prove a request came from c: whether dir is on the origin of a
// Signature-Agent the registry lists for c
// (crawlers.Proof.SignatureAgents). It is the test WithSignature
// applies; a verifier can ask it first, to fetch no directory whose keys
// could prove nothing.
func DirectoryListed(c *crawlers.Crawler, dir string) bool {
	return c != nil && listed(c.Verify.SignatureAgents, dir)
}

// listed reports whether agent's origin is one of origins.
func listed(origins []string, agent string) bool {
	o := origin(agent)
	if o == "" {
		return false
	}
	for _, x := range origins {
		if origin(x) == o {
			return true
		}
	}
	return false
}

// origin returns scheme://host[:port] of u, lower-cased, or "".
func origin(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Scheme == "" || p.Host == "" {
		return ""
	}
	return strings.ToLower(p.Scheme + "://" + p.Host)
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
