package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rep-toolkit/rep/crawlers"
	"github.com/rep-toolkit/rep/crawlers/identity"
)

func init() {
	register(&command{name: "verify", summary: "prove a crawler is who its User-Agent says (rDNS, IP lists)", run: runVerify})
}

const verifyUsage = `usage: rep verify [-ua USER-AGENT] [-json] [-resolver HOST:PORT] [-offline] [-at DATE] IP ...
       rep verify -update
       rep verify -request FILE|- [-keys JWKS_FILE] [-now RFC3339] [-json] [-allow-private] [-offline] [IP]
       rep verify -directory URL [-json] [-allow-private]

Checks whether requests from each IP really come from the crawler the
User-Agent names, by the operator's published IP ranges and by
forward-confirmed reverse DNS (PTR in the operator's domain, whose A/AAAA
records lead back to the IP). Verdicts: verified, spoofed, unverifiable
(the operator publishes nothing usable), rdns-only (Baidu) and
not-a-crawler. Without -ua it names the known crawler an IP belongs to.

IPs come from the arguments, or from standard input (or "-"), one per line,
optionally followed by the User-Agent: "66.249.66.1 Mozilla/5.0 (...)".
-offline uses the IP lists only (the embedded snapshots and those fetched by
-update); -at judges against the lists current on that day, for old logs.

-update fetches every operator's current list into the cache directory,
dated; a list that fails validation (an error, a 200 with no prefixes, a
prefix that does not parse, 0.0.0.0/0) is rejected and the last good one kept.

-request checks the Web Bot Auth signature (RFC 9421, tag="web-bot-auth")
of a raw HTTP request (request line and headers; CRLF or LF; the body is
ignored; origin form is taken as https): verified, invalid or unverified,
with the reason and the signature step by step. Keys come from the
directory the covered Signature-Agent names, fetched without redirects and
refusing private addresses, or from a JWKS file given with -keys. -now
judges created and expires at another time. -directory fetches a key
directory (an origin or a URL) and checks its media type, JWKS shape,
thumbprints, keys and any response signatures. Both exit 0 when verified
or valid, 1 when not, 2 when the input cannot be read.

-request with the IP the request came from also checks its User-Agent by
reverse DNS and IP lists (-offline: the lists only) and combines both: a
signature proves the crawler when its key comes from a directory the
registry lists for it (Google-Agent: https://agent.bot.goog); the identity
line says which proved it, and the exit status follows that verdict.

Exit status: 0 every IP verified, 1 some IP not verified (or, with -update,
some list rejected), 2 usage, input or DNS errors.

flags:
`

// verifyJSON is one line of -json output. Other tools script against it:
// keep the field names.
type verifyJSON struct {
	IP               string `json:"ip"`
	Claimed          string `json:"claimed"`
	Operator         string `json:"operator"`
	Crawler          string `json:"crawler"`
	Verdict          string `json:"verdict"`
	Method           string `json:"method"`
	PTR              string `json:"ptr"`
	ForwardConfirmed bool   `json:"forward_confirmed"`
	Range            string `json:"range"`
	ListDate         string `json:"list_date"`
	List             string `json:"list"`
	Evidence         string `json:"evidence"`
	Error            string `json:"error,omitempty"`
}

// Test hooks: where -update fetches from and with which client.
var (
	verifyUpdateBaseURL string
	verifyUpdateClient  *http.Client
)

type verifyInput struct {
	line int
	ip   netip.Addr
	ua   string
}

func runVerify(e *env) int {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	ua := fs.String("ua", "", "the `USER-AGENT` the requests claimed (default: identify the IP)")
	asJSON := fs.Bool("json", false, "print one JSON object per IP")
	resolver := fs.String("resolver", "", "send DNS queries to `HOST:PORT` instead of the system resolver")
	offline := fs.Bool("offline", false, "use only the IP lists, no DNS")
	update := fs.Bool("update", false, "fetch the operators' current IP lists into the cache")
	at := fs.String("at", "", "judge against the lists current on `DATE` (YYYY-MM-DD or RFC 3339)")
	cacheDir := fs.String("cache", "", "`DIR` of fetched lists (default: the user cache directory's rep/iplists)")
	timeout := fs.Duration("timeout", 5*time.Second, "time limit for each DNS lookup")
	var ba botauthOptions
	fs.StringVar(&ba.request, "request", "", "verify the Web Bot Auth signature of the raw HTTP request in `FILE` (- for standard input)")
	fs.StringVar(&ba.directory, "directory", "", "check the Web Bot Auth key directory at `URL`")
	fs.StringVar(&ba.keys, "keys", "", "with -request: take keys from `JWKS_FILE` instead of fetching the directory")
	fs.StringVar(&ba.now, "now", "", "with -request: judge created and expires at `RFC3339` time")
	fs.BoolVar(&ba.allowPrivate, "allow-private", false, allowPrivateHelp+"; and http:// directories")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), verifyUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(e.args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	if ba.request != "" || ba.directory != "" {
		ba.asJSON, ba.offline = *asJSON, *offline
		if msg := ba.conflicts(fs.NArg(), *ua != "" || *update || *at != "" || *resolver != "" || *offline && ba.directory != ""); msg != "" {
			fmt.Fprintln(e.stderr, "rep verify: "+msg)
			return exitUsage
		}
		if fs.NArg() == 1 {
			ba.ip = fs.Arg(0)
		}
		return runBotauth(e, ba)
	}
	if ba.keys != "" || ba.now != "" || ba.allowPrivate {
		fmt.Fprintln(e.stderr, "rep verify: -keys, -now and -allow-private go with -request or -directory")
		return exitUsage
	}
	dir := *cacheDir
	if dir == "" {
		d, err := identity.DefaultCacheDir()
		if err != nil && *update {
			fmt.Fprintf(e.stderr, "rep verify: no cache directory (%v): give -cache DIR\n", err)
			return exitUsage
		}
		dir = d
	}
	if *update {
		if fs.NArg() > 0 || *ua != "" || *at != "" || *resolver != "" {
			fmt.Fprintln(e.stderr, "rep verify: -update takes no IPs and no -ua, -at or -resolver; run it on its own")
			return exitUsage
		}
		return verifyUpdate(e, dir)
	}
	if *offline && *resolver != "" {
		fmt.Fprintln(e.stderr, "rep verify: -offline and -resolver contradict each other: drop one")
		return exitUsage
	}
	if err := checkDuration("-timeout", *timeout); err != nil {
		fmt.Fprintf(e.stderr, "rep verify: %v\n", err)
		return exitUsage
	}
	var when time.Time
	if *at != "" {
		t, err := verifyParseTime(*at)
		if err != nil {
			fmt.Fprintf(e.stderr, "rep verify: -at %q: want a date like 2026-03-01 or an RFC 3339 time\n", *at)
			return exitUsage
		}
		when = t
	}

	v := &identity.Verifier{Timeout: *timeout}
	ranges := identity.Embedded()
	if dir != "" {
		cached, err := identity.LoadCache(dir)
		if err != nil {
			fmt.Fprintf(e.stderr, "rep verify: warning: skipping damaged cached lists: %v\n", err)
		}
		if cached != nil {
			ranges = ranges.Merge(cached)
		}
	}
	v.Ranges = ranges
	switch {
	case *offline:
	case *resolver != "":
		if err := checkHostPort("-resolver", *resolver); err != nil {
			fmt.Fprintf(e.stderr, "rep verify: %v\n", err)
			return exitUsage
		}
		v.Resolver = identity.NewResolver(*resolver)
	default:
		v.Resolver = net.DefaultResolver
	}

	code := exitOK
	out := e.output(!*asJSON)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	n, bad := 0, 0
	var dead verifyDeadResolver
	verifyStream(e.ctx, v, verifyInputs(e, fs.Args(), *ua, &bad), when, func(r identity.Result) bool {
		n++
		if *asJSON {
			enc.Encode(verifyToJSON(r))
		} else {
			fmt.Fprintln(out, verifyLine(r))
		}
		switch {
		case r.Err != nil:
			code = exitUsage
		case r.Verdict != identity.Verified && code == exitOK:
			code = exitFinding
		}
		if dead.add(r.Err) {
			out.Flush()
			fmt.Fprintf(e.stderr, "rep verify: stopped after %d IP(s): the last %d DNS lookups timed out (%v): %s is not answering; check -resolver, or use -offline for the IP lists alone\n",
				n, verifyMaxTimeouts, dead.last, dead.server())
			return false
		}
		// Answer each IP as it is verified, as a pipe from a log
		// follower expects.
		return out.Flush() == nil
	})
	if n == 0 && bad == 0 {
		fmt.Fprintln(e.stderr, "rep verify: no IP addresses: give them as arguments or on standard input")
		return exitUsage
	}
	if bad > 0 {
		code = exitUsage
	}
	return out.done(e, "rep verify", code)
}

// verifyInputs returns the IPs of args, then those of stdin when there are
// no args or one is "-", one at a time. It reports unparseable entries on
// stderr and counts them in *bad.
func verifyInputs(e *env, args []string, ua string, bad *int) func() (verifyInput, bool) {
	// where names an entry as the other commands do: "argument 2" for the
	// second argument, "standard input line 7" for a line of stdin.
	parse := func(where string, line int, ipText, lineUA string) (verifyInput, bool) {
		ip, err := netip.ParseAddr(strings.Trim(ipText, "[]"))
		if err != nil {
			fmt.Fprintf(e.stderr, "rep verify: %s: %q is not an IP address\n", where, ipText)
			*bad++
			return verifyInput{}, false
		}
		if lineUA == "" {
			lineUA = ua
		}
		return verifyInput{line, ip.WithZone(""), lineUA}, true
	}
	useStdin := len(args) == 0
	var sc *bufio.Scanner
	n, argN := 0, 0
	return func() (verifyInput, bool) {
		for len(args) > 0 {
			a := args[0]
			args = args[1:]
			argN++
			if a == "-" {
				useStdin = true
				continue
			}
			if in, ok := parse(fmt.Sprintf("argument %d", argN), 0, a, ""); ok {
				return in, true
			}
		}
		if !useStdin {
			return verifyInput{}, false
		}
		if sc == nil {
			sc = lineScanner(e.input())
		}
		for sc.Scan() {
			n++
			line := strings.TrimSpace(sc.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			ipText, rest, _ := strings.Cut(line, " ")
			if i := strings.IndexByte(ipText, '\t'); i >= 0 {
				ipText, rest = ipText[:i], ipText[i+1:]+" "+rest
			}
			if in, ok := parse(fmt.Sprintf("standard input line %d", n), n, ipText, strings.TrimSpace(rest)); ok {
				return in, true
			}
		}
		if err := sc.Err(); err != nil {
			fmt.Fprintf(e.stderr, "rep verify: %v\n", lineError(err, n+1))
			*bad++
		}
		useStdin = false
		return verifyInput{}, false
	}
}

// verifyStream verifies inputs as they are read, with a few workers (DNS is
// slow; the Verifier merges duplicate lookups), and hands each result to
// emit in input order. At most verifyWindow inputs are held at a time, so
// 'sort -u ips | rep verify' runs in constant memory however many IPs
// there are.
func verifyStream(ctx context.Context, v *identity.Verifier, next func() (verifyInput, bool), at time.Time, emit func(identity.Result) bool) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var halt atomic.Bool
	type job struct {
		in  verifyInput
		out chan identity.Result
	}
	jobs := make(chan job)
	order := make(chan chan identity.Result, verifyWindow)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for j := range jobs {
				r := v.VerifyAt(ctx, j.in.ip, j.in.ua, at)
				r.Claimed = j.in.ua
				j.out <- r
			}
		})
	}
	go func() {
		// A job's result channel is queued before the job is handed out,
		// so the printer always waits on a job some worker has or will get.
		for !halt.Load() {
			in, ok := next()
			if !ok {
				break
			}
			c := make(chan identity.Result, 1)
			order <- c
			jobs <- job{in, c}
		}
		close(jobs)
		close(order)
	}()
	stopped := false
	for c := range order {
		r := <-c
		if !stopped && !emit(r) {
			// Stop reading; the jobs handed out end at once with the
			// context and are drained unseen.
			stopped = true
			halt.Store(true)
			cancel()
		}
	}
	wg.Wait()
}

// verifyMaxTimeouts is how many DNS lookups in a row may time out before
// rep verify stops: a resolver that answers nothing would otherwise cost
// -timeout per IP, a day for a million IPs, with no word.
const verifyMaxTimeouts = 50

// verifyDeadResolver counts consecutive lookups that timed out.
type verifyDeadResolver struct {
	n    int
	last *identity.LookupError
}

// add counts a result's error and reports whether the resolver looks dead.
func (d *verifyDeadResolver) add(err error) bool {
	le, ok := errors.AsType[*identity.LookupError](err)
	var ne net.Error
	if !ok || !errors.As(le.Err, &ne) || !ne.Timeout() {
		d.n = 0
		return false
	}
	d.n++
	d.last = le
	return d.n >= verifyMaxTimeouts
}

// server names the resolver that timed out.
func (d *verifyDeadResolver) server() string {
	if d.last.Server == "" {
		return "the system's resolver (/etc/resolv.conf)"
	}
	return "the resolver " + d.last.Server
}

// verifyWindow bounds the inputs read ahead of the one being printed.
const verifyWindow = 1024

// verifyLine formats a result as one line of text:
//
//	66.249.66.1 verified Googlebot (Google) by fcrdns+ranges: crawl-66-249-66-1.googlebot.com → 66.249.66.1; in google-common 2026-03-16 (66.249.66.0/27)
func verifyLine(r identity.Result) string {
	var b strings.Builder
	b.WriteString(r.IP.String())
	b.WriteByte(' ')
	b.WriteString(string(r.Verdict))
	if r.Crawler != nil {
		b.WriteString(" " + r.Crawler.Name)
		if r.Crawler.Operator != "" {
			b.WriteString(" (" + r.Crawler.Operator + ")")
		}
	}
	if r.Method != "" {
		b.WriteString(" by " + string(r.Method))
	}
	if ev := r.Evidence(); ev != "" {
		b.WriteString(": " + ev)
	}
	return b.String()
}

func verifyToJSON(r identity.Result) verifyJSON {
	j := verifyJSON{
		IP:               r.IP.String(),
		Claimed:          r.Claimed,
		Operator:         r.Operator(),
		Verdict:          string(r.Verdict),
		Method:           string(r.Method),
		PTR:              r.PTR,
		ForwardConfirmed: r.ForwardConfirmed,
		Evidence:         r.Evidence(),
	}
	if r.Crawler != nil {
		j.Crawler = r.Crawler.Name
	}
	if r.Range.IsValid() {
		j.Range = r.Range.String()
	}
	if r.List != nil {
		j.List = r.List.ID
		j.ListDate = r.List.Date.Format(time.DateOnly)
	}
	if r.Err != nil {
		j.Error = r.Err.Error()
	}
	return j
}

func verifyParseTime(s string) (time.Time, error) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	return time.Parse(time.RFC3339, s)
}

// verifyUpdate runs -update: every registry list, fetched and validated.
func verifyUpdate(e *env, dir string) int {
	current := identity.Embedded()
	cached, err := identity.LoadCache(dir)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep verify: warning: skipping damaged cached lists: %v\n", err)
	}
	if cached != nil {
		current = current.Merge(cached)
	}
	u := &identity.Updater{Dir: dir, BaseURL: verifyUpdateBaseURL, Client: verifyUpdateClient}
	res := u.Update(e.ctx, crawlers.Lists(), current)
	failed := 0
	for _, r := range res {
		if r.Err == nil {
			fmt.Fprintf(e.stdout, "%-26s ok       %s  %4d prefixes  %s\n", r.ID, r.List.Date.Format(time.DateOnly), r.List.Len(), r.File)
			continue
		}
		failed++
		kept := "no copy of this list is available"
		if r.Kept != nil {
			kept = fmt.Sprintf("keeping %s (%s)", r.Kept.Date.Format(time.DateOnly), r.Kept.Source)
		}
		fmt.Fprintf(e.stdout, "%-26s rejected %s; %s\n", r.ID, verifyOneLine(r.Err), kept)
	}
	switch {
	case failed == 0:
		return exitOK
	case failed < len(res):
		return exitFinding
	}
	fmt.Fprintf(e.stderr, "rep verify: no list could be updated (is the network reachable?); the cache in %s is unchanged\n", dir)
	return exitUsage
}

// verifyOneLine keeps an error on one line.
func verifyOneLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", " ")
}
