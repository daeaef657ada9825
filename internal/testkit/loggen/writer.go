package loggen

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// fmtWriter renders events in one log format.
type fmtWriter struct {
	format    string
	host      string
	rewritten bool
	// per-second caches of the formatted time
	sec  int64
	tbuf []byte
}

func newWriter(format, host string) (*fmtWriter, error) {
	for _, f := range Formats {
		if f == format {
			return &fmtWriter{format: format, host: host, sec: -1}, nil
		}
	}
	return nil, fmt.Errorf("loggen: unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
}

// w3cFields1 and w3cFields2 are the IIS column lists before and after the
// mid-file change: the second adds the host and moves the status.
const (
	w3cFields1 = "date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status sc-bytes time-taken"
	w3cFields2 = "date time c-ip sc-status cs-method cs-host cs-uri-stem cs-uri-query cs(User-Agent) cs(Referer) sc-bytes time-taken"
	cfFields   = "date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end"
)

// header returns the directive lines that start part n (1, or 2 after the
// robots.txt change) of the log, if the format has any.
func (w *fmtWriter) header(b []byte, n int) []byte {
	switch {
	case w.format == "w3c" && n == 1:
		b = append(b, "#Software: Microsoft Internet Information Services 10.0\n#Version: 1.0\n#Date: 2026-03-01 00:00:00\n#Fields: "...)
		b = append(b, w3cFields1...)
		b = append(b, '\n')
	case w.format == "w3c" && n == 2:
		b = append(b, "#Fields: "...)
		b = append(b, w3cFields2...)
		b = append(b, '\n')
	case w.format == "cloudfront" && n == 1:
		b = append(b, "#Version: 1.0\n#Fields: "...)
		b = append(b, cfFields...)
		b = append(b, '\n')
	}
	return b
}

func (w *fmtWriter) clf(t int64) []byte {
	if t != w.sec {
		w.sec = t
		w.tbuf = time.Unix(t, 0).UTC().AppendFormat(w.tbuf[:0], "02/Jan/2006:15:04:05 -0700")
	}
	return w.tbuf
}

func quote(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b = append(b, `\x`...)
			b = append(b, "0123456789ABCDEF"[s[i]>>4], "0123456789ABCDEF"[s[i]&15])
			continue
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}

func splitQuery(target string) (stem, query string) {
	stem, query, _ = strings.Cut(target, "?")
	if query == "" {
		query = "-"
	}
	return
}

func dashIfEmpty(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// event appends one request line.
func (w *fmtWriter) event(b []byte, e *event) []byte {
	ts := time.Unix(e.t, 0).UTC()
	switch w.format {
	case "combined", "common", "nginx", "apache":
		if w.format == "nginx" {
			b = append(b, w.host...)
			b = append(b, ' ')
		}
		if w.format == "apache" {
			b = append(b, w.host...)
			b = append(b, ":443 "...)
		}
		b = e.ip.AppendTo(b)
		b = append(b, " - - ["...)
		b = append(b, w.clf(e.t)...)
		b = append(b, "] \""...)
		b = append(b, e.method...)
		b = append(b, ' ')
		b = append(b, e.target...)
		b = append(b, " HTTP/1.1\" "...)
		b = strconv.AppendInt(b, int64(e.status), 10)
		b = append(b, ' ')
		b = strconv.AppendInt(b, e.bytes, 10)
		if w.format != "common" {
			b = append(b, ' ')
			b = quote(b, e.referer)
			b = append(b, ' ')
			b = quote(b, e.ua)
		}
		if w.format == "nginx" {
			b = append(b, ' ')
			b = quote(b, dashIfEmpty(e.xff))
			b = append(b, " 0.004"...)
		}
	case "w3c":
		stem, query := splitQuery(e.target)
		ua := strings.ReplaceAll(e.ua, " ", "+")
		if !w.rewritten {
			b = fmt.Appendf(b, "%s %s 10.0.0.5 %s %s %s 443 - %s %s %s %d 0 0 %d 15",
				ts.Format("2006-01-02"), ts.Format("15:04:05"), e.method, stem, query, e.ip, ua, e.referer, e.status, e.bytes)
		} else {
			b = fmt.Appendf(b, "%s %s %s %d %s %s %s %s %s %s %d 15",
				ts.Format("2006-01-02"), ts.Format("15:04:05"), e.ip, e.status, e.method, w.host, stem, query, ua, e.referer, e.bytes)
		}
	case "cloudfront":
		stem, query := splitQuery(e.target)
		ua := strings.ReplaceAll(url.PathEscape(e.ua), "%2F", "/")
		b = fmt.Appendf(b, "%s\t%s\tSFO5-C1\t%d\t%s\t%s\td111111abcdef8.cloudfront.net\t%s\t%d\t%s\t%s\t%s\t-\tHit\tR%d\t%s\thttps\t170\t0.001\t-\tTLSv1.3\tTLS_AES_128_GCM_SHA256\tHit\tHTTP/2.0\t-\t-\t443\t0.001\tHit\ttext/html\t%d\t-\t-",
			ts.Format("2006-01-02"), ts.Format("15:04:05"), e.bytes, e.ip, e.method, stem, e.status, e.referer, ua, query, e.t, w.host, e.bytes)
	case "alb":
		b = fmt.Appendf(b, `https %s.%06dZ app/my-lb/50dc6c495c0c9188 %s:%d 10.0.0.1:80 0.000 0.001 0.000 %d %d 120 %d "%s https://%s:443%s HTTP/1.1" "%s" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2 arn:aws:elasticloadbalancing:us-east-1:123456789012:targetgroup/tg/73e2d6bc24d8a067 "Root=1-%x" "%s" "-" 0 %s.000000Z "forward" "-" "-" "10.0.0.1:80" "%d" "-" "-"`,
			ts.Format("2006-01-02T15:04:05"), 123456, e.ip, 40000+e.t%20000, e.status, e.status, e.bytes, e.method, w.host, e.target, strings.ReplaceAll(e.ua, `"`, `\"`), e.t, w.host, ts.Format("2006-01-02T15:04:05"), e.status)
	case "caddy":
		b = fmt.Appendf(b, `{"level":"info","ts":%d.%06d,"logger":"http.log.access.log0","msg":"handled request","request":{"remote_ip":"%s","remote_port":"%d","client_ip":"%s","proto":"HTTP/2.0","method":"%s","host":"%s","uri":%s,"headers":{"User-Agent":[%s],"Accept":["*/*"]}},"bytes_read":0,"user_id":"","duration":0.0012,"size":%d,"status":%d,"resp_headers":{"Server":["Caddy"]}}`,
			e.t, 250000, e.ip, 40000+e.t%20000, e.ip, e.method, w.host, strconv.Quote(e.target), strconv.Quote(e.ua), e.bytes, e.status)
	case "json":
		b = fmt.Appendf(b, `{"ClientHost":"%s","RequestMethod":"%s","RequestPath":%s,"RequestHost":"%s","RequestProtocol":"HTTP/1.1","DownstreamStatus":%d,"DownstreamContentSize":%d,"StartUTC":"%s","Duration":1200000,"request_User-Agent":%s,"request_Referer":%s}`,
			e.ip, e.method, strconv.Quote(e.target), w.host, e.status, e.bytes, ts.Format(time.RFC3339Nano), strconv.Quote(e.ua), strconv.Quote(e.referer))
	}
	return append(b, '\n')
}
