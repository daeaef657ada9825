package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/internal/netguard"
	"github.com/rep-toolkit/rep/robotsdiff"
	"github.com/rep-toolkit/rep/robotsfetch"
)

func init() {
	register(&command{name: "watch", summary: "watch live robots.txt files and report each change in meaning", run: runWatch})
}

const watchUsage = `usage: rep watch [-history DIR|bolt:PATH] [-interval D] [-once] [-format text|json] [-webhook URL]
                 [-agent NAME|PURPOSE ...] [-engine ENGINE] [-allow-private] [-timeout D] URL ...

Fetches the robots.txt of each URL's site as a crawler would (status table,
redirects, 500 KiB; see rep fetch), keeps every version that differs in text
or in how it was fetched in a history (-history DIR: a directory per site
with an index.jsonl of versions, their fetch outcome and time, and the
bodies; -history bolt:PATH: the same records in one bbolt file, which one
rep watch at a time can open), and reports
each change in meaning as rep diff does: which crawler now reads which rule,
which URLs flip. A change of comments, order or case only is recorded, not
reported. A change in how the file is fetched is reported: a 200 becoming a
5xx (everything disallowed) or a 404 (everything allowed), an HTML page
served as robots.txt, a redirect appearing.

A site is fetched again when its copy expires (Cache-Control, Expires; at
most 24 hours, as crawlers cache it) and not before -interval has passed.
-once checks each site once and exits, for cron: a site whose recorded copy
has not expired is not fetched (-force fetches it anyway).

Reports go to standard output (text, or one JSON object a line with
-format json) and, with -webhook, are POSTed as JSON ({"time", "url",
"summary", "text": the Markdown report, "diff"}) with a 10-second timeout.

Exit status: -once: 0 no change in meaning, 1 a change reported, 2 usage or
input error; otherwise it runs until interrupted (0).

flags:
`

func defaultWatchDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "rep", "watch")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".local", "state", "rep", "watch")
	}
	return "rep-watch"
}

func runWatch(e *env) int {
	fs := flag.NewFlagSet("watch", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	cs := addCrawlerSet(fs, "report for")
	hist := fs.String("history", defaultWatchDir(), "keep the history in `DIR`, or in the bbolt file PATH with bolt:PATH")
	dir := fs.String("dir", "", "same as -history `DIR`")
	interval := fs.Duration("interval", time.Hour, "check each site at most every `D` (a site's copy is kept until it expires)")
	once := fs.Bool("once", false, "check each site once and exit (for cron)")
	force := fs.Bool("force", false, "-once: fetch even a site whose recorded copy has not expired")
	format := fs.String("format", "text", "report `FORMAT`: text, or json (one object a line)")
	asJSON := fs.Bool("json", false, "same as -format json")
	webhook := fs.String("webhook", "", "POST each report as JSON to `URL`")
	allowPrivate := fs.Bool("allow-private", false, allowPrivateHelp)
	timeout := fs.Duration("timeout", 30*time.Second, "give up on each fetch after `D`")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), watchUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(e.args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(e.stderr, "rep watch: "+format+"\n", a...)
		return exitUsage
	}
	if *asJSON {
		*format = "json"
	}
	if *format != "text" && *format != "json" {
		return fail("-format %q: use text or json", *format)
	}
	for _, err := range []error{checkDuration("-timeout", *timeout), checkDuration("-interval", *interval)} {
		if err != nil {
			return fail("%v", err)
		}
	}
	if *webhook != "" && !isURL(*webhook) {
		return fail("-webhook %q: give an http or https URL", *webhook)
	}
	if fs.NArg() == 0 {
		return fail("give at least one URL, e.g. rep watch https://example.com/")
	}
	var origins []string
	for i, u := range fs.Args() {
		o, err := robotsfetch.Origin(u)
		if err != nil {
			return fail("argument %d: %v", i+1, err)
		}
		if !slices.Contains(origins, o) {
			origins = append(origins, o)
		}
	}
	eng, list, err := cs.resolve()
	if err != nil {
		return fail("%v", err)
	}
	w := &watcher{
		e: e, interval: *interval, agents: list, engine: eng, format: *format, webhook: *webhook,
		now: time.Now, after: time.After,
	}
	w.fetcher, err = watchFetcher(*allowPrivate, *timeout, func() time.Time { return w.now() })
	if err != nil {
		return fail("%v", err)
	}
	if *dir != "" {
		histSet := false
		fs.Visit(func(f *flag.Flag) { histSet = histSet || f.Name == "history" })
		if histSet {
			return fail("give -history or -dir, not both")
		}
		*hist = *dir
	}
	if w.hist, err = openHistory(*hist); err != nil {
		return fail("-history: %v", err)
	}
	defer w.hist.Close()
	if *once {
		reported := false
		for _, o := range origins {
			r, err := w.check(o, *force)
			if err != nil {
				return fail("%v", err)
			}
			reported = reported || r
		}
		if reported {
			return exitFinding
		}
		return exitOK
	}
	if err := w.loop(origins); err != nil {
		return fail("%v", err)
	}
	return exitOK
}

// watchFetcher is rep watch's robots.txt fetcher: the one fetcher path
// (rep.Fetchers, robotsfetch), Google's way of parsing (the diff parses
// each version again per engine), on the watcher's clock.
func watchFetcher(allowPrivate bool, timeout time.Duration, now func() time.Time) (*robotsfetch.Fetcher, error) {
	fs := rep.NewFetchers(robotsfetch.Options{UserAgent: fetchUserAgent("rep-watch", nil), Guard: !allowPrivate, Timeout: timeout, BodyTimeout: timeout, Now: now})
	return fs.ForEngine(engine.Google)
}

// watcher checks sites, keeps their history and reports changes.
type watcher struct {
	e        *env
	hist     history
	interval time.Duration
	agents   []*rep.Agent
	engine   engine.Engine
	format   string
	webhook  string
	fetcher  *robotsfetch.Fetcher
	// now is the clock; after waits (time.After). Tests inject both.
	now   func() time.Time
	after func(time.Duration) <-chan time.Time
	// client posts to the webhook; nil means post's own.
	client *http.Client
}

// sameFetch reports whether two outcomes read alike: status, case,
// verdict, where the body came from, and whether it is an HTML page.
func sameFetch(a, b *robotsfetch.Outcome) bool {
	return a.Status == b.Status && a.Case == b.Case && a.Verdict == b.Verdict && a.FinalURL == b.FinalURL &&
		len(a.Redirects) == len(b.Redirects) && a.Has(robotsfetch.WarnHTML) == b.Has(robotsfetch.WarnHTML)
}

// check fetches origin's robots.txt unless its recorded copy is still
// fresh (and not force), records a version that differs in text or fetch,
// and reports a change in meaning. It returns whether it reported one.
func (w *watcher) check(origin string, force bool) (bool, error) {
	prev, err := w.hist.last(origin)
	if err != nil {
		return false, err
	}
	if c, err := w.hist.checked(origin); err != nil {
		return false, err
	} else if c != nil && !force && w.now().Before(c.ExpiresAt) {
		return false, nil
	}
	r, err := w.fetcher.Get(w.e.ctx, origin+"/robots.txt")
	if err != nil {
		return false, err
	}
	cur := r.Outcome
	if err := w.hist.setChecked(origin, &cur); err != nil {
		return false, err
	}
	var body []byte
	if cur.Verdict == robotsfetch.UseRules {
		body = r.Body
	}
	rec := &record{Time: w.now().UTC(), Outcome: cur}
	if prev == nil {
		rec.N = 1
		return false, w.hist.save(origin, rec, body)
	}
	old, err := w.hist.body(origin, prev)
	if err != nil {
		return false, err
	}
	if bytes.Equal(old, body) && sameFetch(&prev.Outcome, &cur) {
		return false, nil // nothing new to record
	}
	agents := w.agents
	if agents == nil {
		agents = robotsdiff.DefaultAgents(w.engine, old, body)
	}
	po := prev.Outcome
	name := func(t time.Time) string { return cur.URL + "@" + t.UTC().Format(time.RFC3339) }
	d := robotsdiff.Compare(robotsdiff.Version{Name: name(prev.Time), Body: old, Fetch: &po},
		robotsdiff.Version{Name: name(rec.Time), Body: body, Fetch: &cur}, robotsdiff.Options{Agents: agents, MaxFlips: watchMaxFlips, MaxRules: watchMaxFlips})
	rec.N, rec.Changed = prev.N+1, d.Changed()
	if rec.Changed {
		rec.Summary = d.Summary()
	}
	if err := w.hist.save(origin, rec, body); err != nil {
		return false, err
	}
	if !rec.Changed {
		return false, nil
	}
	return true, w.report(cur.URL, rec.Time, d)
}

// report writes one change to standard output and the webhook.
func (w *watcher) report(u string, t time.Time, d *robotsdiff.Diff) error {
	out := w.e.output(w.format == "text")
	if w.format == "json" {
		enc := json.NewEncoder(out)
		enc.SetEscapeHTML(false)
		enc.Encode(struct {
			Time time.Time        `json:"time"`
			URL  string           `json:"url"`
			Diff *robotsdiff.Diff `json:"diff"`
		}{t, u, d})
	} else {
		fmt.Fprintf(out, "%s %s changed in meaning\n", t.Format(time.RFC3339), u)
		d.WriteText(out, 20)
		fmt.Fprintln(out)
	}
	if err := out.Flush(); err != nil {
		return err
	}
	if w.webhook == "" {
		return nil
	}
	var md bytes.Buffer
	d.WriteMarkdown(&md, 20)
	payload, err := json.Marshal(struct {
		Time    time.Time        `json:"time"`
		URL     string           `json:"url"`
		Summary string           `json:"summary"`
		Text    string           `json:"text"`
		Diff    *robotsdiff.Diff `json:"diff"`
	}{t, u, d.Summary(), md.String(), d})
	if err != nil {
		return err
	}
	if err := w.post(payload); err != nil {
		// A webhook that fails loses this report, not the watch.
		fmt.Fprintf(w.e.stderr, "rep watch: webhook: %v\n", err)
	}
	return nil
}

// watchMaxFlips bounds the flips, and the rules added and removed, a
// report keeps per crawler (the counts say how many there are), so that a
// report, and a webhook's body, stays small when a whole file changes.
const watchMaxFlips = 50

// maxWebhookReply bounds what is read of the webhook's answer.
const maxWebhookReply = 64 << 10

// post sends payload to the webhook: 10 seconds at most, the answer read
// up to 64 KiB (to reuse the connection), any status but 2xx an error.
func (w *watcher) post(payload []byte) error {
	c := w.client
	if c == nil {
		// The user's own endpoint, maybe on their own network, maybe
		// behind their proxy: no address policy, the environment's proxy;
		// 10 seconds, no redirect followed (a POST is not replayed), the
		// answer capped.
		c = netguard.NewClient(netguard.Options{AllowPrivate: true, Proxy: http.ProxyFromEnvironment, UserAgent: fetchUserAgent("rep-watch", nil),
			Timeout: 10 * time.Second, MaxRedirects: -1, MaxBodyBytes: maxWebhookReply})
	}
	ctx, cancel := context.WithTimeout(w.e.ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.webhook, bytes.NewReader(payload))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", fetchUserAgent("rep-watch", nil))
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, maxWebhookReply))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s answered %d", w.webhook, resp.StatusCode)
	}
	return nil
}

// due is when origin is next checked: when its last fetched copy
// expires, and not before interval after that fetch; now when it was
// never fetched.
func (w *watcher) due(origin string) (time.Time, error) {
	o, err := w.hist.checked(origin)
	if err != nil || o == nil {
		return time.Time{}, err
	}
	t := o.FetchedAt.Add(w.interval)
	if o.ExpiresAt.After(t) {
		t = o.ExpiresAt
	}
	return t, nil
}

// loop checks every origin when it is due, until the context ends.
func (w *watcher) loop(origins []string) error {
	for {
		var next time.Time
		for _, o := range origins {
			due, err := w.due(o)
			if err != nil {
				return err
			}
			if !due.After(w.now()) {
				if _, err := w.check(o, true); err != nil {
					if w.e.ctx.Err() != nil {
						return nil
					}
					fmt.Fprintf(w.e.stderr, "rep watch: %s: %v\n", o, err)
				}
				if due, err = w.due(o); err != nil {
					return err
				}
				if !due.After(w.now()) {
					due = w.now().Add(w.interval) // the fetch itself failed
				}
			}
			if next.IsZero() || due.Before(next) {
				next = due
			}
		}
		select {
		case <-w.e.ctx.Done():
			return nil
		case <-w.after(next.Sub(w.now())):
		}
	}
}
