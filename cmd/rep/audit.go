package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"runtime"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/rep-toolkit/rep/accesslog"
	"github.com/rep-toolkit/rep/audit"
	"github.com/rep-toolkit/rep/crawlers/botauth"
	"github.com/rep-toolkit/rep/crawlers/identity"
	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotstxt"
)

func init() {
	register(&command{name: "audit", summary: "audit access logs: which crawlers came, were they real, did they obey robots.txt", run: runAudit})
}

const auditUsage = `usage: rep audit [flags] LOG ...          report per crawler (text, -json, -html)
       rep audit enrich [flags] LOG ...   one NDJSON row per log line, for Spark/Hadoop/ClickHouse
       rep audit merge [-json] [-html FILE] [-force] PART.json ...   combine reports of parts of a log

LOG is a file (plain, .gz, .zst or .bz2, recognised by content) or - for
standard input. Several files are read in parallel.

-robots FILE|URL[@TIME] gives the robots.txt in force from TIME (RFC 3339 or
2006-01-02) on; repeat it to give the history. A URL is fetched now. Without
@TIME a file applies from the beginning. After a change, a request counts as
disallowed only if the previous version, which a crawler may cache for 24 hours
(RFC 9309 §2.4; -grace), forbade it too.

With -verify, Web Bot Auth signatures that a JSON log carries (Signature,
Signature-Input, Signature-Agent) are verified as of each line's time, with
keys from the key directories the registry lists for the claimed crawler:
fetched (not with -offline), or saved copies given with -keys.

Exit status: 0 nothing found, 1 disallowed requests, spoofed crawlers,
Crawl-delay breaches or invalid signatures found, 2 usage or input error.

flags:
`

// auditFlags are the flags audit and enrich share.
type auditFlags struct {
	robots       auditRobotsFlag
	format       string
	clientIP     string
	hops         int
	verify       bool
	offline      bool
	resolver     string
	site         string
	grace        time.Duration
	jobs         int
	top          int
	allowPrivate bool
	keys         auditKeysFlag
}

// auditKeysFlag is -keys [AGENT=]FILE, repeatable.
type auditKeysFlag []string

func (k *auditKeysFlag) String() string     { return strings.Join(*k, ",") }
func (k *auditKeysFlag) Set(s string) error { *k = append(*k, s); return nil }

type auditRobotsFlag []string

func (r *auditRobotsFlag) String() string     { return strings.Join(*r, ",") }
func (r *auditRobotsFlag) Set(s string) error { *r = append(*r, s); return nil }

func (f *auditFlags) register(fs *flag.FlagSet) {
	fs.Var(&f.robots, "robots", "robots.txt `FILE|URL[@TIME]` in force from TIME on (repeatable)")
	fs.StringVar(&f.format, "format", "auto", "log `format`: auto, "+strings.Join(accesslog.Formats[1:], ", ")+", nginx:'LOG_FORMAT' or apache:'LOGFORMAT'")
	fs.StringVar(&f.clientIP, "client-ip", "", "trust this `header` for the client address: X-Forwarded-For or CF-Connecting-IP (only behind proxies you control)")
	fs.IntVar(&f.hops, "trusted-hops", 1, "trusted proxies appending to X-Forwarded-For")
	fs.BoolVar(&f.verify, "verify", false, "verify crawler identities (IP lists, and reverse DNS unless -offline)")
	fs.BoolVar(&f.offline, "offline", false, "with -verify: IP lists only, no DNS and no key directories fetched")
	fs.StringVar(&f.resolver, "resolver", "", "with -verify: DNS server `HOST:PORT` (default: the system's)")
	fs.StringVar(&f.site, "site", "", "the `HOST` the robots.txt belongs to: other hosts are skipped, host-less lines are taken as HOST")
	fs.DurationVar(&f.grace, "grace", audit.DefaultGrace, "how long a crawler may use a cached robots.txt after a change")
	fs.IntVar(&f.jobs, "jobs", runtime.GOMAXPROCS(0), "files read at once")
	fs.IntVar(&f.top, "top", 1000, "paths tracked per crawler (top-k)")
	fs.BoolVar(&f.allowPrivate, "allow-private", false, "allow fetching a -robots URL or a key directory on a private or loopback address")
	fs.Var(&f.keys, "keys", "with -verify: a saved key directory (JWKS) `[AGENT=]FILE` for Web Bot Auth signatures, of Signature-Agent AGENT (e.g. https://agent.bot.goog) or of any the registry lists; no directory is fetched (repeatable)")
}

func runAudit(e *env) int {
	if len(e.args) > 0 {
		switch e.args[0] {
		case "enrich":
			return runAuditEnrich(e, e.args[1:])
		case "merge":
			return runAuditMerge(e, e.args[1:])
		}
	}
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { fmt.Fprint(e.stderr, auditUsage); fs.PrintDefaults() }
	var f auditFlags
	f.register(fs)
	asJSON := fs.Bool("json", false, "write the full report as JSON (the input of rep audit merge)")
	htmlOut := fs.String("html", "", "also write a self-contained HTML report to `FILE`")
	if err := fs.Parse(e.args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "rep audit: no log files: give one or more, or - for standard input")
		return exitUsage
	}
	if auditStdinTwice(e, "rep audit", fs.Args()) {
		return exitUsage
	}
	in, opt, code := auditSetup(e, &f)
	if code != exitOK {
		return code
	}
	var prog audit.Progress
	stop := auditProgress(e, &prog, fs.Args())
	rep, err := audit.Run(e.ctx, fs.Args(), in, opt, &prog)
	stop()
	if err != nil {
		fmt.Fprintf(e.stderr, "rep audit: %v\n", err)
		return exitUsage
	}
	if rep.VerifyErrors > 0 {
		fmt.Fprintf(e.stderr, "rep audit: warning: DNS verification failed for %d address(es), whose requests count as unverifiable: %s\n", rep.VerifyErrors, rep.VerifyError)
	}
	return auditOutput(e, rep, *asJSON, *htmlOut)
}

// auditOutput writes the report and returns the exit status.
func auditOutput(e *env, rep *audit.Report, asJSON bool, htmlOut string) int {
	if htmlOut != "" {
		fh, err := os.Create(htmlOut)
		if err == nil {
			err = audit.WriteHTML(fh, rep)
			if cerr := fh.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			return writeErr(e, "rep audit: -html", err)
		}
	}
	out := e.output(!asJSON)
	var err error
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		err = enc.Encode(rep)
	} else {
		err = audit.WriteText(out, rep)
	}
	if err != nil {
		return writeErr(e, "rep audit", err)
	}
	code := exitOK
	for _, c := range rep.Crawlers {
		if c.DisallowedRequests > 0 || c.Spoofed > 0 || c.CrawlDelay != nil && c.CrawlDelay.TooFast > 0 ||
			c.Signatures != nil && c.Signatures.Invalid > 0 {
			code = exitFinding
		}
	}
	return out.done(e, "rep audit", code)
}

// auditSetup turns the shared flags into reader and audit options.
func auditSetup(e *env, f *auditFlags) (audit.Input, audit.Options, int) {
	var in audit.Input
	var opt audit.Options
	format, err := accesslog.ParseFormat(f.format)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep audit: -format: %v\n", err)
		return in, opt, exitUsage
	}
	in = audit.Input{Format: format, Stdin: e.input(), Jobs: f.jobs,
		Log: accesslog.Options{ClientIP: f.clientIP, TrustedHops: f.hops}}
	if err := in.Log.Validate(); err != nil {
		fmt.Fprintf(e.stderr, "rep audit: -client-ip: %v\n", err)
		return in, opt, exitUsage
	}
	if (f.offline || f.resolver != "" || len(f.keys) > 0) && !f.verify {
		fmt.Fprintln(e.stderr, "rep audit: -offline, -resolver and -keys only make sense with -verify")
		return in, opt, exitUsage
	}
	if f.grace < 0 {
		fmt.Fprintln(e.stderr, "rep audit: -grace must not be negative")
		return in, opt, exitUsage
	}
	// The library reads 0 and below as "the default"; from a user they are
	// a mistake, and a silent 1000 for "-top 0" would hide it.
	for _, n := range []struct {
		name string
		v    int
	}{{"-top", f.top}, {"-jobs", f.jobs}, {"-trusted-hops", f.hops}} {
		if n.v < 1 {
			fmt.Fprintf(e.stderr, "rep audit: %s %d: want a number of at least 1\n", n.name, n.v)
			return in, opt, exitUsage
		}
	}
	if strings.ContainsAny(f.site, "/ ") {
		// A URL here would match no logged host: every request would be
		// skipped as "for other hosts" and the audit would find nothing.
		fmt.Fprintf(e.stderr, "rep audit: -site %q: give the host name only, e.g. -site www.example.com\n", f.site)
		return in, opt, exitUsage
	}
	opt = audit.Options{Site: f.site, Grace: f.grace, TopK: f.top}
	if opt.Grace == 0 {
		opt.Grace = time.Nanosecond // "no grace" rather than the default
	}
	if len(f.robots) > 0 {
		h, warnings, err := auditHistory(e, f)
		if err != nil {
			fmt.Fprintf(e.stderr, "rep audit: -robots: %v\n", err)
			return in, opt, exitUsage
		}
		for _, w := range warnings {
			fmt.Fprintf(e.stderr, "rep audit: warning: %s\n", w)
		}
		opt.Robots = h
	}
	if f.verify {
		v := &identity.Verifier{Timeout: 5 * time.Second}
		ranges := identity.Embedded()
		if dir, err := identity.DefaultCacheDir(); err == nil {
			if cached, err := identity.LoadCache(dir); err != nil {
				fmt.Fprintf(e.stderr, "rep audit: warning: skipping damaged cached IP lists: %v\n", err)
			} else if cached != nil {
				ranges = ranges.Merge(cached)
			}
		}
		v.Ranges = ranges
		opt.VerifyMode = "lists"
		switch {
		case f.offline:
		case f.resolver != "":
			if err := checkHostPort("-resolver", f.resolver); err != nil {
				fmt.Fprintf(e.stderr, "rep audit: %v\n", err)
				return in, opt, exitUsage
			}
			v.Resolver = identity.NewResolver(f.resolver)
			opt.VerifyMode = "dns+lists"
		default:
			v.Resolver = net.DefaultResolver
			opt.VerifyMode = "dns+lists"
		}
		opt.Verifier = v
		sigs, err := auditSignatures(f)
		if err != nil {
			fmt.Fprintf(e.stderr, "rep audit: %v\n", err)
			return in, opt, exitUsage
		}
		opt.Signatures = sigs
	}
	return in, opt, exitOK
}

// auditSignatures returns the verifier of Web Bot Auth signatures: with
// the key directories saved to the -keys files; else, unless -offline,
// fetching the directories (behind the address guard, which
// -allow-private lifts); else with no keys, so that every signature is
// reported unverified for want of them.
func auditSignatures(f *auditFlags) (*botauth.Verifier, error) {
	v := &botauth.Verifier{}
	if len(f.keys) == 0 {
		if !f.offline {
			kf := botauthFetcher(f.allowPrivate)
			kf.UserAgent = "rep-audit (+https://github.com/rep-toolkit/rep)"
			v.Keys = kf
		}
		return v, nil
	}
	saved := &audit.SavedDirectories{}
	for _, arg := range f.keys {
		agent, file := "", arg
		if a, rest, ok := strings.Cut(arg, "="); ok {
			if l := strings.ToLower(a); strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://") {
				agent, file = a, rest
			}
		}
		data, name, err := readInput(file, nil)
		if err != nil {
			return nil, fmt.Errorf("-keys: %v", err)
		}
		set, err := botauth.ParseJWKS(data)
		if err != nil {
			return nil, fmt.Errorf("-keys %s: %v", name, err)
		}
		if err := saved.Add(agent, set); err != nil {
			return nil, fmt.Errorf("-keys %s: %v", arg, err)
		}
	}
	v.Keys = saved
	return v, nil
}

// auditHistory loads the -robots arguments. A file with NUL or binary
// bytes is read as crawlers read it, with a warning.
func auditHistory(e *env, f *auditFlags) (*audit.History, []string, error) {
	var vs []audit.Version
	var warnings []string
	for _, arg := range f.robots {
		src, since, err := auditSplitTime(arg)
		if err != nil {
			return nil, nil, err
		}
		v := audit.Version{Since: since, Source: src}
		if l := strings.ToLower(src); strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://") {
			err = auditFetchRobots(e, src, f.allowPrivate, &v)
		} else {
			var data []byte
			var warning string
			if data, warning, err = readRobots(src, nil); err == nil {
				v.File, v.Body = robotstxt.Parse(data), data
			}
			if warning != "" {
				warnings = append(warnings, warning)
			}
		}
		if err != nil {
			return nil, nil, err
		}
		vs = append(vs, v)
	}
	h, err := audit.NewHistory(vs...)
	return h, warnings, err
}

// auditSplitTime splits "FILE@TIME"; a FILE containing "@" without a valid
// time after the last one is taken whole.
func auditSplitTime(arg string) (string, time.Time, error) {
	i := strings.LastIndexByte(arg, '@')
	if i < 0 {
		return arg, time.Time{}, nil
	}
	ts := arg[i+1:]
	for _, layout := range []string{time.RFC3339, time.DateOnly, "2006-01-02T15:04:05"} {
		if t, err := time.Parse(layout, ts); err == nil {
			return arg[:i], t.UTC(), nil
		}
	}
	if _, err := os.Stat(arg); err == nil {
		return arg, time.Time{}, nil
	}
	if l := strings.ToLower(arg); (strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")) && strings.Contains(ts, "/") {
		// The @ belongs to the URL's user information
		// (http://user@host/robots.txt), not to a time.
		return arg, time.Time{}, nil
	}
	return "", time.Time{}, fmt.Errorf("%q: the time after @ must be RFC 3339 (2026-03-01T00:00:00Z) or a date (2026-03-01)", arg)
}

// auditFetchRobots fetches a robots.txt URL as a crawler would, through
// the fetcher every command uses, and fills v with what crawlers then
// hold: the file, or the fetch's own verdict (4xx: allow all; 5xx:
// disallow all; RFC 9309 §2.3.1.3–4), never a made-up file.
func auditFetchRobots(e *env, url string, allowPrivate bool, v *audit.Version) error {
	fetcher, err := e.fetcher(fetchSettings{tool: "rep-audit", allowPrivate: allowPrivate})
	if err != nil {
		return err
	}
	rb, err := fetcher.Get(e.ctx, url)
	if err != nil {
		return fmt.Errorf("%s: %v", url, err)
	}
	o := rb.Outcome
	if o.Status == 0 {
		// No answer at all: RFC 9309 would have a crawler assume "disallow
		// all", but judging a log by that would flag every request. Ask for
		// the file instead.
		hint := "save the robots.txt and give it as a file"
		if errors.Is(o.Err(), robotsfetch.ErrRefused) {
			hint = "use -allow-private to fetch from a local or staging server"
		}
		return fmt.Errorf("%s: no answer (%s): %s", url, o.Error, hint)
	}
	v.Source = fmt.Sprintf("%s (fetched %s, status %d)", o.URL, o.FetchedAt.UTC().Format(time.RFC3339), o.Status)
	v.File, v.Fetch, v.Body = rb.File, &o, rb.Body
	switch o.Verdict {
	case robotsfetch.AllowAll:
		v.Source += ": allow all"
	case robotsfetch.DisallowAll:
		msg := o.Error
		if msg == "" {
			msg = o.Case.Explain()
		}
		v.Source += ": disallow all (" + msg + ")"
	}
	return nil
}

// auditProgress draws a progress line on a terminal stderr and returns a
// function that stops and erases it. It does nothing when stderr is not a
// terminal, so pipes and files stay clean.
func auditProgress(e *env, p *audit.Progress, files []string) func() {
	fh, ok := e.stderr.(*os.File)
	if !ok || !term.IsTerminal(int(fh.Fd())) {
		return func() {}
	}
	var total int64
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && f != "-" {
			total += st.Size()
		}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(finished)
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				fmt.Fprint(fh, "\r\033[K")
				return
			case <-t.C:
				b, n := p.Bytes.Load(), p.Lines.Load()
				el := time.Since(start).Seconds()
				pct := ""
				if total > 0 {
					pct = fmt.Sprintf(" %3.0f%%", 100*float64(b)/float64(total))
				}
				fmt.Fprintf(fh, "\r\033[Krep audit:%s %d MB read, %.1f M lines, %.2f M lines/s", pct, b>>20, float64(n)/1e6, float64(n)/1e6/el)
			}
		}
	}()
	return func() { close(done); <-finished }
}

// auditStdinTwice reports (and says) when "-" is given more than once:
// standard input can be read only once.
func auditStdinTwice(e *env, cmd string, args []string) bool {
	n := 0
	for _, a := range args {
		if a == "-" {
			n++
		}
	}
	if n > 1 {
		fmt.Fprintf(e.stderr, "%s: - (standard input) is given %d times; it can be read only once\n", cmd, n)
		return true
	}
	return false
}
