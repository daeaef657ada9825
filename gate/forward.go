package gate

import (
	"crypto/sha256"
	"net/http"
	"strings"

	"github.com/rep-toolkit/rep/policy"
)

func sha256Sum(b []byte) [32]byte { return sha256.Sum256(b) }

// Front names the headers a forward-auth proxy sets on its question: the
// original request's URI, method, host and scheme, and the header giving
// the client's address (X-Real-IP, read as one address, or
// X-Forwarded-For, read from the right past the proxies in Options.Trust).
// The gate reads those and no others: a header the front does not set
// passes from the client unchanged, and believing it would let the client
// choose what is judged.
//
// Resolves says the front passes the origin the path it resolved itself
// (dot segments removed, slashes merged), not the client's spelling, as
// nginx does with the configuration of docs/policy.md (proxy_pass with a
// URI). Behind a front that does not, a path with a dot segment or, unless
// Options.KeepSlashes, an empty one reaches the origin as the client wrote
// it, and an origin that resolves it otherwise than the gate would serve
// what the gate did not judge: the question is refused (AmbiguousPath).
type Front struct {
	Name                     string
	URI, Method, Host, Proto string
	Client                   string
	Resolves                 bool
}

// The fronts whose configurations docs/policy.md shows.
var (
	// Nginx is nginx's auth_request with the configuration of
	// docs/policy.md, which sets each of these with proxy_set_header.
	Nginx = Front{Name: "nginx", URI: "X-Original-URI", Method: "X-Original-Method",
		Host: "X-Forwarded-Host", Proto: "X-Forwarded-Proto", Client: "X-Real-IP", Resolves: true}
	// Caddy is Caddy's forward_auth: X-Forwarded-Uri and
	// X-Forwarded-Method, and reverse_proxy's X-Forwarded-For, -Host and
	// -Proto, which it replaces when the client is not a proxy it trusts.
	Caddy = Front{Name: "caddy", URI: "X-Forwarded-Uri", Method: "X-Forwarded-Method",
		Host: "X-Forwarded-Host", Proto: "X-Forwarded-Proto", Client: "X-Forwarded-For"}
	// Traefik is Traefik's ForwardAuth middleware, which sets the
	// X-Forwarded- headers and drops a client's own unless
	// forwardedHeaders trusts it.
	Traefik = Front{Name: "traefik", URI: "X-Forwarded-Uri", Method: "X-Forwarded-Method",
		Host: "X-Forwarded-Host", Proto: "X-Forwarded-Proto", Client: "X-Forwarded-For"}
)

// Fronts are the named fronts, by Name.
var Fronts = map[string]Front{"nginx": Nginx, "caddy": Caddy, "traefik": Traefik}

// ForwardAuth returns the handler of a forward-auth endpoint for the
// proxy front (nginx auth_request, Caddy forward_auth, Traefik
// ForwardAuth): the proxy asks it about each request before passing the
// request on, and it answers 200 to let it through or 403 to refuse it,
// logging the decision as ServeHTTP does. The logged status is the
// endpoint's answer.
//
// A question is believed only from a peer in Options.Trust, and read only
// from the headers front names: the original URI (exactly one such
// header), method, host and scheme, and the client's address. Its
// User-Agent is the User-Agent header. A question from anywhere else, one
// without front's URI header, one whose URI has no canonical form
// (Canonical), whose host is not in Options.Hosts or that carries two
// User-Agent headers is refused (403), under every enforce mode, and
// logged with Decision.Err's reason; so is a path with a dot segment or a
// "//" when front does not resolve paths itself (Front.Resolves).
//
// A Web Bot Auth signature reaches the endpoint in the headers the proxy
// passes on (nginx auth_request and Caddy forward_auth pass them all). It
// is verified against the original request as the front describes it; its
// authority must be one of Options.Hosts.
//
// A GET or HEAD of /robots.txt that carries no front's URI header is not
// a question but a request the proxy passed on: it is answered with the
// policy's robots.txt as ServeHTTP serves it, so the proxy can route
// /robots.txt to the endpoint.
func (g *Gate) ForwardAuth(front Front) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		uris := r.Header.Values(front.URI)
		if len(uris) == 0 && (r.Method == http.MethodGet || r.Method == http.MethodHead) && g.isRobots(requestTarget(r)) {
			host := r.Host
			if g.trusted(peer(r)) {
				host = first(firstValue(r.Header.Get(front.Host)), host)
			}
			g.serveRobots(w, r, requestTarget(r), "/robots.txt", g.clientIP(r, front.Client), host)
			return
		}
		method, host, proto, raw := r.Method, r.Host, "", ""
		ip := peer(r)
		var err error
		switch {
		case !g.trusted(ip):
			err = &RequestError{Reason: UntrustedPeer, Value: ip.String(), Detail: "its headers are not believed: add the front's address to Options.Trust (-trust)"}
		case len(uris) != 1:
			err = &RequestError{Reason: NoOriginal, Detail: "want one " + front.URI + " header, as " + front.Name + " sets it"}
		default:
			raw = uris[0]
			method = first(firstValue(r.Header.Get(front.Method)), r.Method)
			host = first(firstValue(r.Header.Get(front.Host)), r.Host)
			proto = firstValue(r.Header.Get(front.Proto))
			ip = g.clientIP(r, front.Client)
		}
		var target string
		if err == nil {
			target, err = g.check(raw, host, r)
		}
		if err == nil && !front.Resolves {
			err = g.unresolved(raw)
		}
		var d Decision
		switch {
		case err != nil:
			d = Decision{Action: Refuse, Reason: err.Error(), Err: err, ClientIP: ip, RawTarget: raw}
			if raw == "" { // no original URI believed: the question's own
				d.RawTarget = requestTarget(r)
			}
		case g.enforce == policy.Off:
			d = Decision{Action: Allow, Reason: "enforce is off", ClientIP: ip, Target: target, RawTarget: raw}
		default:
			var signed *http.Request
			if hasSignature(r) {
				signed = g.original(r, method, raw, host, proto)
			}
			d = g.decide(r.Context(), ip, r.UserAgent(), target, signed)
			d.RawTarget = raw
		}
		status := http.StatusOK
		if d.Action == Refuse {
			status = http.StatusForbidden
		}
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(status)
		if g.enforce != policy.Off || d.Err != nil {
			g.log(r.Context(), d, method, host, r.Proto, r.Header.Get("User-Agent"), r.Referer(), status, 0)
		}
	})
}

// unresolved refuses a path with a dot segment or, unless slashes are
// kept, an empty segment: a front that does not resolve paths passes it
// on as it is.
func (g *Gate) unresolved(raw string) error {
	path, _, _ := strings.Cut(raw, "?")
	for i, seg := range strings.Split(path, "/")[1:] {
		switch {
		case seg == "." || seg == "..":
			return &RequestError{Reason: AmbiguousPath, Value: raw, Detail: "a dot segment, which the front passes on unresolved"}
		case seg == "" && !g.o.KeepSlashes && i < strings.Count(path, "/")-1:
			return &RequestError{Reason: AmbiguousPath, Value: raw, Detail: "an empty segment (//), which the front passes on unmerged"}
		}
	}
	return nil
}

// isRobots reports whether target is /robots.txt once canonical.
func (g *Gate) isRobots(target string) bool {
	c, err := Canonical(target, !g.o.KeepSlashes)
	path, _, _ := strings.Cut(c, "?")
	return err == nil && path == "/robots.txt"
}

// first returns the first non-empty string.
func first(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// firstValue is the first of a comma-separated header value, trimmed: the
// one the proxy nearest the client set.
func firstValue(v string) string {
	v, _, _ = strings.Cut(v, ",")
	return strings.TrimSpace(v)
}
