package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rep-toolkit/rep/robotsfetch"
	"github.com/rep-toolkit/rep/robotsfetch/boltstore"
	"github.com/rep-toolkit/rep/robotsfetch/redisstore"
	"github.com/rep-toolkit/rep/server"
)

func init() {
	register(&command{name: "serve", summary: "serve the web tester and the JSON API", run: runServe})
}

const serveUsage = `usage: rep serve [-addr 127.0.0.1:8080] [-store memory|bolt:PATH|redis://HOST:PORT/DB|redis-cluster://HOST:PORT,...]
                 [-rate N] [-burst N] [-origin-rate N] [-origin-burst N] [-trust CIDR]...
                 [-host NAME]... [-cache-size SIZE] [-store-reset] [-allow-private] [-log-format text|json]
                 [-access-log off|all|'sample N']

Serves the robots.txt tester page at http://ADDR/, the JSON API under /api/
(check, lint, page, fetch, allowed) and counters at /metrics (Prometheus text
format). Fetched robots.txt files are cached in the store: in memory by
default, in a bbolt file, or in Redis shared by a fleet (one server, or a
Redis Cluster given by some of its nodes).

Only outbound fetches are limited: per client (-rate, -burst; clients in a
-trust network are exempt) and per target site (-origin-rate,
-origin-burst). Answers from the cache and pure computation (/api/check,
/api/lint, /api/page with pasted HTML) never are; a request that would need
a fetch beyond a limit gets 429 with Retry-After. A rate of 0 turns a limit
off. The server fetches only public addresses unless -allow-private is
given. It stops gracefully on SIGINT or SIGTERM.

Requests are logged on standard error as the fleet can afford: by default
one request in 100 ('sample 100') and every 5xx or answer slower than a
second; 'all' logs every request, 'off' none (the /metrics counters and
latencies count every request either way).

flags:
`

func runServe(e *env) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "`HOST:PORT` to listen on (port 0 picks a free one)")
	store := fs.String("store", "memory", "robots.txt cache: memory, bolt:PATH, redis://HOST:PORT/DB or redis-cluster://HOST:PORT,HOST:PORT")
	allowPrivate := fs.Bool("allow-private", false, "let fetches reach loopback, private and link-local addresses (local testing)")
	cacheSize := fs.String("cache-size", "32MiB", "memory bound of each robots.txt cache: the parsed files, and the memory store (`SIZE`: 64MiB, 512KiB, 1GiB, bytes)")
	storeReset := fs.Bool("store-reset", false, "with -store bolt:PATH, move a damaged file aside (PATH.damaged-TIME) and start with an empty cache")
	logFormat := fs.String("log-format", "text", "log format on standard error: text or json")
	accessLog := server.DefaultAccessLogEvery
	fs.Func("access-log", "which requests are logged: off, all, or 'sample N' (one in N, and every 5xx or slow answer; default 'sample 100')", func(v string) error {
		n, err := parseAccessLog(v)
		accessLog = n
		return err
	})
	rate := fs.Float64("rate", 5, "outbound fetches per second per client; 0: no per-client limit")
	burst := fs.Int("burst", 20, "outbound fetches a client may make at once before -rate applies")
	originRate := fs.Float64("origin-rate", 1, "fetches per second to one site (scheme://host:port); 0: no per-site limit")
	originBurst := fs.Int("origin-burst", 5, "fetches to one site at once before -origin-rate applies")
	var hosts []string
	fs.Func("host", "a host `NAME` the server answers to beside IP addresses and localhost (against DNS rebinding, other names are refused); repeat for more", func(v string) error {
		v = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(v)), ".")
		if v == "" || strings.ContainsAny(v, "/:@ ") {
			return fmt.Errorf("%q is not a host name: give one such as rep.example.com", v)
		}
		hosts = append(hosts, v)
		return nil
	})
	var trust []netip.Prefix
	fs.Func("trust", "client `CIDR` exempt from the per-client limit (a fleet's NAT, a proxy); repeat for more", func(v string) error {
		p, err := netip.ParsePrefix(v)
		if err != nil {
			a, aerr := netip.ParseAddr(v)
			if aerr != nil {
				return fmt.Errorf("not a CIDR (10.0.0.0/8) or an address: %q", v)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		trust = append(trust, p.Masked())
		return nil
	})
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), serveUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(e.args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "rep serve: unexpected argument %q: serve takes only flags\n", fs.Arg(0))
		return exitUsage
	}
	if *rate < 0 || *originRate < 0 || *burst < 1 || *originBurst < 1 {
		fmt.Fprintf(e.stderr, "rep serve: -rate and -origin-rate must be 0 (off) or more, -burst and -origin-burst 1 or more\n")
		return exitUsage
	}
	var h slog.Handler
	switch *logFormat {
	case "text":
		h = slog.NewTextHandler(e.stderr, nil)
	case "json":
		h = slog.NewJSONHandler(e.stderr, nil)
	default:
		fmt.Fprintf(e.stderr, "rep serve: unknown -log-format %q: use text or json\n", *logFormat)
		return exitUsage
	}
	log := slog.New(h)
	cacheBytes, err := parseSize(*cacheSize)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep serve: -cache-size: %v\n", err)
		return exitUsage
	}
	cfg := server.Config{Logger: log, AccessLogEvery: accessLog, AllowPrivate: *allowPrivate, CacheBytes: cacheBytes, Hosts: hosts,
		RatePerSecond: offIfZero(*rate), Burst: *burst, OriginRate: offIfZero(*originRate), OriginBurst: *originBurst, Trust: trust}
	// go-redis logs connection trouble through a global logger. At start,
	// an unreachable Redis is one error message below, not four warnings
	// from the retries before it; once serving, its warnings go into the
	// structured log instead of raw lines on standard error.
	redis.SetLogger(serveRedisLog{})
	closeStore, err := serveStore(&cfg, *store, *storeReset, e.stderr)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep serve: -store %s: %v\n", redactStore(*store), err)
		return exitUsage
	}
	redis.SetLogger(serveRedisLog{log})
	defer closeStore()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep serve: %v\n", err)
		if hint := listenHint(err); hint != "" {
			fmt.Fprintf(e.stderr, "rep serve: %s\n", hint)
		}
		return exitUsage
	}
	log.Info("listening", "url", "http://"+ln.Addr().String()+"/", "store", redactStore(*store), "allow_private", *allowPrivate,
		"rate", limitText(*rate, *burst), "origin_rate", limitText(*originRate, *originBurst), "trust", fmt.Sprint(trust))
	srv, err := server.New(cfg)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep serve: %v\n", err)
		return exitUsage
	}
	if err := srv.Serve(e.ctx, ln); err != nil {
		log.Error("serve", "err", err)
		return exitFinding
	}
	log.Info("stopped")
	return exitOK
}

// offIfZero maps a flag's 0 (off) to server.Config's negative rate.
func offIfZero(r float64) float64 {
	if r == 0 {
		return -1
	}
	return r
}

// limitText shows a limit in the start-up log.
func limitText(rate float64, burst int) string {
	if rate == 0 {
		return "off"
	}
	return fmt.Sprintf("%g/s burst %d", rate, burst)
}

// serveStore configures the robots.txt cache named by -store and returns
// the function that closes it.
func serveStore(cfg *server.Config, spec string, reset bool, stderr io.Writer) (func(), error) {
	st, closeStore, err := openStore("rep serve", spec, reset, stderr)
	if err != nil {
		return nil, err
	}
	if st != nil {
		cfg.Store = st
	}
	return closeStore, nil
}

// openStore opens the store a -store flag names (memory, bolt:PATH,
// redis://..., redis-cluster://...) for the command cmd and returns it
// with the function that closes it; the store is nil for memory, which
// each command keeps its own way. With reset, a damaged bbolt file is
// moved aside and an empty one started.
func openStore(cmd, spec string, reset bool, stderr io.Writer) (robotsfetch.Store, func(), error) {
	switch {
	case spec == "memory":
		return nil, func() {}, nil
	case strings.HasPrefix(spec, "bolt:"):
		path := strings.TrimPrefix(spec, "bolt:")
		if path == "" {
			return nil, nil, fmt.Errorf("give a file after bolt:, e.g. -store bolt:robots.db")
		}
		st, err := boltstore.Open(path)
		var ce *boltstore.CorruptError
		if errors.As(err, &ce) && reset {
			aside := fmt.Sprintf("%s.damaged-%d", path, time.Now().Unix())
			if rerr := os.Rename(path, aside); rerr != nil {
				return nil, nil, fmt.Errorf("%v; moving it aside: %v", err, rerr)
			}
			fmt.Fprintf(stderr, "%s: %v\n%s: moved it to %s; starting with an empty cache\n", cmd, err, cmd, aside)
			st, err = boltstore.Open(path)
		}
		if err != nil {
			return nil, nil, err
		}
		return st, func() { st.Close() }, nil
	case strings.HasPrefix(spec, "redis://"), strings.HasPrefix(spec, "rediss://"),
		strings.HasPrefix(spec, "redis-cluster://"), strings.HasPrefix(spec, "rediss-cluster://"):
		c, err := redisstore.NewClient(spec)
		if err != nil {
			// A *url.Error quotes the URL, password included: keep its cause.
			var ue *url.Error
			if errors.As(err, &ue) {
				err = ue.Err
			}
			return nil, nil, fmt.Errorf("not a Redis URL (redis://[user:password@]host:port/db): %v", err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := c.Ping(ctx).Err(); err != nil {
			c.Close()
			return nil, nil, fmt.Errorf("cannot reach Redis: %v", err)
		}
		return redisstore.New(c), func() { c.Close() }, nil
	}
	return nil, nil, fmt.Errorf("unknown store: use memory, bolt:PATH, redis://HOST:PORT/DB or redis-cluster://HOST:PORT,HOST:PORT")
}

// serveRedisLog adapts slog to go-redis's logger; with a nil log it
// discards.
type serveRedisLog struct{ log *slog.Logger }

func (l serveRedisLog) Printf(ctx context.Context, format string, v ...any) {
	if l.log == nil {
		return
	}
	l.log.WarnContext(ctx, strings.TrimPrefix(fmt.Sprintf(format, v...), "redis: "), "component", "redis")
}

// redactStore hides the password of a store URL (redis://:pw@host/0 →
// redis://:xxxxx@host/0) wherever -store is printed: logs and errors must
// not carry secrets.
func redactStore(spec string) string {
	u, err := url.Parse(spec)
	if err != nil || u.User == nil {
		if i, j := strings.Index(spec, "://"), strings.LastIndexByte(spec, '@'); i >= 0 && j > i {
			return spec[:i+3] + "xxxxx" + spec[j:] // unparsable: hide all user information
		}
		return spec
	}
	return u.Redacted()
}

// parseSize reads a byte count: a whole number with an optional unit, KiB,
// MiB, GiB (or K, M, G, the same powers of two), or none for bytes.
func parseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		shift  uint
	}{{"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"K", 10}, {"M", 20}, {"G", 30}, {"B", 0}}
	t, shift := strings.TrimSpace(s), uint(0)
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, shift = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.shift
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > (1<<50)>>shift {
		return 0, fmt.Errorf("%q is not a size: give a positive whole number with KiB, MiB or GiB, e.g. 64MiB", s)
	}
	return n << shift, nil
}

// listenHint says what to do about a listen error the user can fix with
// -addr: a port another program holds, or one below 1024 without the
// privilege to bind it.
func listenHint(err error) string {
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return "the port is taken by another program (another rep serve?): give another with -addr, e.g. -addr 127.0.0.1:8081, or -addr 127.0.0.1:0 for any free one"
	case errors.Is(err, syscall.EACCES):
		return "ports below 1024 need privileges: give a higher one with -addr, e.g. -addr 127.0.0.1:8080"
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return "no interface of this machine has that address: give one it has with -addr, e.g. -addr 127.0.0.1:8080"
	}
	return ""
}

// parseAccessLog reads -access-log: off, all, or "sample N" ("sample:N",
// "sample=N" too), into server.Config.AccessLogEvery.
func parseAccessLog(v string) (int, error) {
	v = strings.ToLower(strings.TrimSpace(v))
	switch v {
	case "off", "none":
		return -1, nil
	case "all":
		return 1, nil
	}
	if rest, ok := strings.CutPrefix(v, "sample"); ok {
		rest = strings.TrimLeft(rest, " :=")
		if n, err := strconv.Atoi(rest); err == nil && n >= 1 {
			return n, nil
		}
	}
	return 0, fmt.Errorf("%q: use off, all or 'sample N' (N 1 or more)", v)
}
