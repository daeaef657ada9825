package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rep-toolkit/rep/robotsfetch/boltstore"
	"github.com/rep-toolkit/rep/robotsfetch/redisstore"
	"github.com/rep-toolkit/rep/server"
)

func init() {
	register(&command{name: "serve", summary: "serve the web tester and the JSON API", run: runServe})
}

const serveUsage = `usage: rep serve [-addr 127.0.0.1:8080] [-store memory|bolt:PATH|redis://HOST:PORT/DB|redis-cluster://HOST:PORT,...] [-allow-private] [-log-format text|json]

Serves the robots.txt tester page at http://ADDR/ and the JSON API under
/api/ (check, lint, page, fetch, allowed). Fetched robots.txt files are cached
in the store: in memory by default, in a bbolt file, or in Redis shared by a
fleet (one server, or a Redis Cluster given by some of its nodes). The server fetches only public addresses unless -allow-private is
given. It stops gracefully on SIGINT or SIGTERM.

flags:
`

func runServe(e *env) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "`HOST:PORT` to listen on (port 0 picks a free one)")
	store := fs.String("store", "memory", "robots.txt cache: memory, bolt:PATH, redis://HOST:PORT/DB or redis-cluster://HOST:PORT,HOST:PORT")
	allowPrivate := fs.Bool("allow-private", false, "let fetches reach loopback, private and link-local addresses (local testing)")
	logFormat := fs.String("log-format", "text", "log format on standard error: text or json")
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
	cfg := server.Config{Logger: log, AllowPrivate: *allowPrivate}
	// go-redis logs connection trouble through a global logger. At start,
	// an unreachable Redis is one error message below, not four warnings
	// from the retries before it; once serving, its warnings go into the
	// structured log instead of raw lines on standard error.
	redis.SetLogger(serveRedisLog{})
	closeStore, err := serveStore(&cfg, *store)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep serve: -store %s: %v\n", *store, err)
		return exitUsage
	}
	redis.SetLogger(serveRedisLog{log})
	defer closeStore()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep serve: %v\n", err)
		return exitUsage
	}
	log.Info("listening", "url", "http://"+ln.Addr().String()+"/", "store", *store, "allow_private", *allowPrivate)
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

// serveStore configures the robots.txt cache named by -store and returns
// the function that closes it.
func serveStore(cfg *server.Config, spec string) (func(), error) {
	switch {
	case spec == "memory":
		return func() {}, nil
	case strings.HasPrefix(spec, "bolt:"):
		path := strings.TrimPrefix(spec, "bolt:")
		if path == "" {
			return nil, fmt.Errorf("give a file after bolt:, e.g. -store bolt:robots.db")
		}
		st, err := boltstore.Open(path)
		if err != nil {
			return nil, err
		}
		cfg.Store = st
		return func() { st.Close() }, nil
	case strings.HasPrefix(spec, "redis://"), strings.HasPrefix(spec, "rediss://"),
		strings.HasPrefix(spec, "redis-cluster://"), strings.HasPrefix(spec, "rediss-cluster://"):
		c, err := redisstore.NewClient(spec)
		if err != nil {
			return nil, err
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := c.Ping(ctx).Err(); err != nil {
			c.Close()
			return nil, fmt.Errorf("cannot reach Redis: %v", err)
		}
		cfg.Store = redisstore.New(c)
		return func() { c.Close() }, nil
	}
	return nil, fmt.Errorf("unknown store: use memory, bolt:PATH, redis://HOST:PORT/DB or redis-cluster://HOST:PORT,HOST:PORT")
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
