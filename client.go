package rep

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rep-toolkit/rep/internal/netguard"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotsmeta"
)

// DefaultPagePrefix is how much of an HTML body the Transport reads for
// its robots meta elements and links: 1 MiB, where nearly every page has
// closed its <head> and most have ended.
const DefaultPagePrefix = 1 << 20

// Transport is an http.RoundTripper that sends every request as its
// Crawler: it sets the crawler's User-Agent, asks robots.txt before each
// request (and so before each redirect hop, which http.Client sends as a
// request of its own), keeps the origin's pace (Politeness: the delay of
// Crawler.Wait, at most PerHost requests in flight), and refuses a
// disallowed URL with a *DisallowedError. A request for /robots.txt is
// never refused nor held back.
//
// Each response carries its page verdict, read by PageVerdictOf: the
// robots.txt decision, the X-Robots-Tag headers and, for HTML, the robots
// meta elements and links of the body's first PagePrefix bytes. The
// Transport reads that prefix before RoundTrip returns and puts it back in
// front of the rest, so the caller reads the body whole. The slot the
// request holds among PerHost is given back when the body is read to its
// end or closed: close it, as http.Client requires.
//
// A Transport is safe for concurrent use; its pacing is the Crawler's,
// shared by every Transport and Client of that Crawler.
type Transport struct {
	// Crawler answers for the requests. Required.
	Crawler *Crawler
	// Base sends the requests; nil means the crawler's own transport
	// (internal/netguard's, with its timeouts and the environment's proxy)
	// or, when the crawler's robots.txt fetcher has robotsfetch.Options.Guard
	// set, one refusing the addresses it refuses, with no proxy: the guard
	// covers every request the client makes.
	Base http.RoundTripper
	// PagePrefix is how many bytes of an HTML body are read for the page
	// verdict; 0 means DefaultPagePrefix, negative means none (the verdict
	// then holds the headers' rules only).
	PagePrefix int64

	now time.Time // the instant pages are judged at (FetchPage's Now); zero: the crawler's clock
}

// Transport returns a Transport sending through base (nil: the crawler's
// own transport, guarded when the crawler's robots.txt fetcher has
// robotsfetch.Options.Guard set) as c.
func (c *Crawler) Transport(base http.RoundTripper) *Transport {
	return &Transport{Crawler: c, Base: base}
}

// Client returns an http.Client whose Transport is c.Transport(nil): every
// request and every redirect hop is checked against robots.txt and paced,
// and a refusal is an error wrapping *DisallowedError (as *url.Error does).
// It sets no timeout: give each request a context.
func (c *Crawler) Client() *http.Client {
	return &http.Client{Transport: c.Transport(nil)}
}

// PageVerdictOf returns the page verdict the Transport read for resp, the
// response to a request it sent; nil for any other response and for a
// robots.txt. The verdict travels in the context of resp.Request, the
// request the Transport sent, so that it survives http.Client's wrapping
// of the body. Where the Transport read no body (PagePrefix negative, a
// HEAD request, a redirect, a body that is not HTML), the verdict is
// worked out from the headers on the first call, so that a crawler that
// does not ask does not pay for it: ask before changing resp.Header. Every call returns the same
// verdict; calls may come from several goroutines. Asked before RoundTrip
// has returned (by a Base about the response it returns), it is nil.
func PageVerdictOf(resp *http.Response) *PageVerdict {
	if resp == nil || resp.Request == nil {
		return nil
	}
	if h, ok := resp.Request.Context().Value(verdictKey{}).(*verdictCtx); ok {
		return h.verdict()
	}
	return nil
}

type verdictKey struct{}

// verdictCtx is the context of a request the Transport sent: its
// caller's, carrying the page verdict. A verdict read from the headers
// alone (no body read: PagePrefix negative, HEAD, a redirect, not HTML)
// is worked out on the first PageVerdictOf, from what RoundTrip kept: a
// crawler that never asks for it does not pay for it.
type verdictCtx struct {
	context.Context
	ready atomic.Bool // set once RoundTrip has what the verdict needs
	once  sync.Once
	v     *PageVerdict
	// What the verdict is worked out from when no body was read: no body,
	// so no links to resolve against the URL.
	c      *Crawler
	r      *robotsfetch.Robots // the decision is read again from r
	rawurl string
	h      http.Header
	at     time.Time
	unread bool // a body not HTML, which the verdict notes it did not read
}

// verdict returns the page verdict; nil while RoundTrip has not finished
// (a Base asking about the response it returns).
func (h *verdictCtx) verdict() *PageVerdict {
	if !h.ready.Load() {
		return nil
	}
	h.once.Do(func() {
		if h.v == nil {
			// Without a body, robotsmeta reads nothing that can fail.
			h.v = new(PageVerdict)
			d := h.c.agent.DecideFetched(h.r, h.rawurl)
			var body io.Reader // nil: no body; NoBody: one robotsmeta does not read
			if h.unread {
				body = http.NoBody
			}
			h.c.pageVerdict(h.v, nil, d, h.h, body, 0, h.at)
			h.c, h.r, h.h = nil, nil, nil
		}
	})
	return h.v
}

// sent is what the Transport keeps of one request it sends, allocated
// once: the context it is sent with (and the page verdict in it) and the
// response body's wrapper.
type sent struct {
	ctx  verdictCtx
	body pageBody
}

// pageRead is what the Transport keeps while it reads a body's prefix.
type pageRead struct {
	prefix bytes.Buffer // what the page verdict read of the body
	tee    teeBody      // the body, copied into prefix as it is read
}

func (c *verdictCtx) Value(key any) any {
	if key == (verdictKey{}) {
		return c
	}
	return c.Context.Value(key)
}

// RoundTrip implements http.RoundTripper (see Transport).
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	c := t.Crawler
	if c == nil || req.URL == nil {
		closeBody(req)
		return nil, errors.New("rep: Transport needs a Crawler and a request URL")
	}
	base := t.Base
	if base == nil {
		base = c.baseTransport()
	}
	ctx := req.Context()
	if req.URL.Path == "/robots.txt" {
		return base.RoundTrip(c.asCrawler(ctx, req))
	}
	// The URL is written out once and its origin read once: the
	// robots.txt answer carries the origin, the decision and the delay
	// are read from it.
	rawurl := req.URL.String()
	r, err := c.fetcher.Get(ctx, rawurl)
	if err != nil {
		closeBody(req)
		return nil, err
	}
	d := c.agent.DecideFetched(r, rawurl)
	if !d.Allowed {
		closeBody(req)
		return nil, refusalOf(rawurl, d)
	}
	origin := r.Outcome.Origin
	if origin == "" { // an entry a Store kept without it
		if origin, err = robotsfetch.Origin(rawurl); err != nil {
			closeBody(req)
			return nil, err
		}
	}
	delay, _ := c.delayIn(r, false)
	slot, err := c.pace.start(ctx, origin, c.perHost, c.now, delay)
	if err != nil {
		closeBody(req)
		return nil, err
	}
	st := &sent{ctx: verdictCtx{Context: ctx}}
	h := &st.ctx
	out := c.asCrawler(h, req)
	resp, err := base.RoundTrip(out)
	if err != nil {
		slot.release()
		if errors.Is(err, netguard.ErrBlocked) {
			return nil, &DisallowedError{URL: rawurl, Kind: RefusedAddress, Decision: d, Err: err}
		}
		return nil, err
	}
	if resp.Request == nil {
		resp.Request = out
	}
	if resp.Body == nil {
		resp.Body = http.NoBody
	}
	var pr *pageRead // the body's prefix, read for the verdict (nil: not read)
	limit := t.PagePrefix
	if limit == 0 {
		limit = DefaultPagePrefix
	}
	hasBody := limit > 0 && req.Method != http.MethodHead && (resp.StatusCode < 300 || resp.StatusCode >= 400)
	var ct string // the Content-Type robotsmeta reads: the last one
	if v := resp.Header["Content-Type"]; len(v) > 0 {
		ct = strings.Trim(v[len(v)-1], " \t")
	}
	if hasBody && robotsmeta.ReadsBody(ct) {
		pr = new(pageRead)
		if isHTML(ct) {
			// Room for the prefix up front for HTML only; a body with no
			// type is sniffed, and the buffer grows as it is read.
			pr.prefix.Grow(int(min(max(resp.ContentLength, 4<<10), limit)))
		}
		pr.tee = teeBody{r: resp.Body, w: &pr.prefix}
	}
	at := t.now // FetchPage's, else the response's arrival
	if at.IsZero() {
		at = c.now()
	}
	st.body = pageBody{body: resp.Body, slot: slot}
	if pr == nil {
		// A body robotsmeta would not read (not HTML) is not read here
		// either: the verdict, worked out when asked, says so all the same.
		h.c, h.r, h.rawurl, h.h, h.at, h.unread = c, r, rawurl, resp.Header, at, hasBody
	} else {
		h.v = new(PageVerdict)
		err = c.pageVerdict(h.v, req.URL, d, resp.Header, &pr.tee, limit, at)
		if err != nil {
			slot.release()
			resp.Body.Close()
			return nil, err
		}
		st.body.pre = pr.prefix.Bytes()
	}
	h.ready.Store(true)
	resp.Body = &st.body
	return resp, nil
}

// asCrawler returns req with ctx and the crawler's User-Agent; req itself
// is not modified (http.RoundTripper's contract). The copy shares req's
// URL, body and header values, which nothing downstream modifies; its
// header map is its own.
func (c *Crawler) asCrawler(ctx context.Context, req *http.Request) *http.Request {
	out := req.WithContext(ctx)
	h := make(http.Header, len(req.Header)+1)
	for k, v := range req.Header {
		h[k] = v
	}
	h["User-Agent"] = c.uaHeader
	out.Header = h
	return out
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// teeBody is io.TeeReader into a buffer, kept in the request's pageRead.
type teeBody struct {
	r io.Reader
	w *bytes.Buffer
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.w.Write(p[:n])
	return n, err
}

// pageBody is a response body whose prefix was read for the page
// verdict: the prefix, then the rest. It gives the request's slot among
// PerHost back at the end of the body or on Close.
type pageBody struct {
	pre      []byte // what is left of the prefix
	body     io.ReadCloser
	slot     *originPace
	released atomic.Bool
}

func (b *pageBody) release() {
	if !b.released.Swap(true) {
		b.slot.release()
	}
}

func (b *pageBody) Read(p []byte) (int, error) {
	if len(b.pre) > 0 {
		n := copy(p, b.pre)
		b.pre = b.pre[n:]
		return n, nil
	}
	n, err := b.body.Read(p)
	if err == io.EOF {
		b.release()
	}
	return n, err
}

func (b *pageBody) Close() error {
	b.release()
	return b.body.Close()
}

// isHTML reports whether a Content-Type names HTML or XHTML (a missing
// one is sniffed by robotsmeta, and the buffer grows as it reads).
func isHTML(ct string) bool {
	return strings.Contains(ct, "html") || strings.Contains(ct, "HTML")
}
