package lint

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/rep-toolkit/rep/robotsfetch"
)

// fetch reports what the HTTP answer means for crawlers.
func (l *linter) fetch(o *robotsfetch.Outcome) {
	if o.Status == 0 {
		why := o.Error
		if why == "" {
			why = o.Case.Explain()
		}
		l.add(0, 0, Error, "fetch-unreachable", "robots.txt could not be fetched ("+why+"): crawlers assume every URL is disallowed (RFC 9309 §2.3.1.4)",
			"make sure the host resolves and serves /robots.txt")
		return
	}
	chain := append([]string{o.URL}, o.Redirects...)
	if n := len(chain) - 1; n > 0 {
		msg := "robots.txt is redirected " + plural(n, "time") + ": " + strings.Join(chain, " -> ")
		if o.Status >= 300 && o.Status < 400 {
			l.add(0, 0, Error, "fetch-redirect", msg+", and redirects again (status "+statusText(o.Status)+"): after 5 redirects Google treats robots.txt as not found and crawls everything",
				"point the robots.txt URL directly (or in one redirect) at the file")
			return
		}
		first, last := chain[0], chain[n]
		u0, e0 := url.Parse(first)
		u1, e1 := url.Parse(last)
		if e0 == nil && e1 == nil && !strings.EqualFold(u0.Host, u1.Host) {
			msg += "; crawlers apply the file they reach to " + u0.Host
		}
		l.add(0, 0, Info, "fetch-redirect", msg, "fine for http->https and www redirects; otherwise serve the file directly")
	}
	switch s := o.Status; {
	case s >= 200 && s < 300:
	case s == 429 || s >= 500:
		l.add(0, 0, Error, "fetch-status", "status "+statusText(s)+": robots.txt is unreachable and crawlers assume every URL is disallowed (RFC 9309 §2.3.1.4)",
			"serve robots.txt with status 200 (or 404 for no rules)")
	case s >= 400:
		msg := "status " + statusText(s) + ": robots.txt is unavailable and crawlers may fetch every URL (RFC 9309 §2.3.1.3)"
		if s == 401 || s == 403 {
			msg += "; Google treats " + strconv.Itoa(s) + " like 404"
		}
		l.add(0, 0, Warning, "fetch-status", msg, "serve robots.txt with status 200, or keep the 404 if you want no rules")
	case s >= 300:
		l.add(0, 0, Error, "fetch-status", "status "+statusText(s)+" without a redirect that could be followed: crawlers treat robots.txt as not found",
			"serve robots.txt with status 200")
	default:
		l.add(0, 0, Error, "fetch-status", "unexpected status "+strconv.Itoa(s), "serve robots.txt with status 200")
	}
	if o.Status >= 200 && o.Status < 300 {
		ct := strings.ToLower(o.ContentType)
		mt, params, _ := strings.Cut(ct, ";")
		mt = strings.TrimSpace(mt)
		switch {
		case ct == "":
			l.add(0, 0, Warning, "fetch-content-type", "robots.txt is served without a Content-Type", "serve it as 'text/plain; charset=utf-8'")
		case mt != "text/plain":
			l.add(0, 0, Warning, "fetch-content-type", "robots.txt is served as "+mt+", not text/plain (RFC 9309 §2.3)", "serve it as 'text/plain; charset=utf-8'")
		default:
			if i := strings.Index(params, "charset="); i >= 0 {
				cs := strings.Trim(strings.TrimSpace(params[i+len("charset="):]), `"`)
				if cs != "utf-8" && cs != "utf8" && cs != "us-ascii" {
					l.add(0, 0, Warning, "fetch-content-type", "robots.txt is served with charset "+cs+"; RFC 9309 §2.3 requires UTF-8", "save the file as UTF-8 and serve it as 'text/plain; charset=utf-8'")
				}
			}
		}
	}
}

func statusText(s int) string {
	if t := statusNames[s]; t != "" {
		return strconv.Itoa(s) + " " + t
	}
	return strconv.Itoa(s)
}

var statusNames = map[int]string{301: "Moved Permanently", 302: "Found", 303: "See Other", 307: "Temporary Redirect",
	308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 410: "Gone",
	429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"}
