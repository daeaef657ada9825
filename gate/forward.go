package gate

import (
	"crypto/sha256"
	"net/http"

	"github.com/rep-toolkit/rep/policy"
)

func sha256Sum(b []byte) [32]byte { return sha256.Sum256(b) }

// ForwardAuth returns the handler of a forward-auth endpoint: a proxy
// (nginx auth_request, Caddy forward_auth, Traefik ForwardAuth) asks it
// about each request before passing the request on, and it answers 200 to
// let it through or 403 to refuse it, logging the decision as ServeHTTP
// does. The original request is read from X-Forwarded-Method and
// X-Forwarded-Uri (Caddy, Traefik) or X-Original-Method and X-Original-URI
// (nginx, as the generated configuration sends them), its User-Agent from
// User-Agent, and its client from X-Real-IP or X-Forwarded-For when the
// proxy is in Options.Trust. The logged status is the endpoint's answer.
//
// A Web Bot Auth signature reaches the endpoint in the headers the proxy
// passes on (nginx auth_request and Caddy forward_auth pass them all). It
// is verified against the original request: its method and URI as above,
// and, from a proxy in Options.Trust, its authority from X-Forwarded-Host
// and its scheme from X-Forwarded-Proto (Caddy and Traefik send both;
// nginx must be told to, as the configuration in docs/policy.md does).
// Without them the authority is the endpoint's own Host, which no
// signature was made for: the signature then proves nothing, and the
// network check decides.
//
// A GET or HEAD of /robots.txt that carries neither X-Forwarded-Uri nor
// X-Original-URI is not a question but a request the proxy passed on: it
// is answered with the policy's robots.txt as ServeHTTP serves it, so the
// proxy can route /robots.txt to the endpoint.
func (g *Gate) ForwardAuth() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" && (r.Method == http.MethodGet || r.Method == http.MethodHead) &&
			r.Header.Get("X-Forwarded-Uri") == "" && r.Header.Get("X-Original-URI") == "" {
			g.serveRobots(w, r)
			return
		}
		method := first(r.Header.Get("X-Forwarded-Method"), r.Header.Get("X-Original-Method"), r.Method)
		uri := first(r.Header.Get("X-Forwarded-Uri"), r.Header.Get("X-Original-URI"), r.URL.RequestURI())
		host := first(r.Header.Get("X-Forwarded-Host"), r.Host)
		d := Decision{Action: Allow, Reason: "enforce is off"}
		if g.enforce != policy.Off {
			var signed *http.Request
			if hasSignature(r) {
				signed = g.original(r, method, uri)
			}
			d = g.decide(r.Context(), g.clientIP(r, true), r.UserAgent(), uri, signed)
		}
		status := http.StatusOK
		if d.Action == Refuse {
			status = http.StatusForbidden
		}
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(status)
		if g.enforce != policy.Off {
			g.log(r.Context(), d, method, host, uri, r.Proto, r.UserAgent(), r.Referer(), status, 0)
		}
	})
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
