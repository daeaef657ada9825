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
			d = g.Decide(r.Context(), g.clientIP(r, true), r.UserAgent(), uri)
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
