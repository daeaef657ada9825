package redisstore

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/redis/go-redis/v9"
)

// ErrURL is wrapped by every error NewClient returns for a URL it cannot
// use (unknown scheme, no address, a database number in a cluster URL,
// options go-redis rejects).
var ErrURL = errors.New("redisstore: bad Redis URL")

// NewClient returns a client for a Redis URL, for New:
//
//	redis://[USER:PASSWORD@]HOST:PORT[/DB][?OPTIONS]            one server
//	rediss://...                                                 the same over TLS
//	redis-cluster://[USER:PASSWORD@]HOST:PORT,HOST:PORT,...[?OPTIONS]  a Redis Cluster
//	rediss-cluster://...                                         the same over TLS
//
// A redis:// URL is read by go-redis's ParseURL and gives a *redis.Client.
// A cluster URL lists some of the cluster's nodes (the seeds: any node
// answers with the whole slot map, so one reachable seed is enough) and
// gives a *redis.ClusterClient, which sends each key to the master that
// holds its slot and follows the cluster through failovers. It takes no
// database number (a cluster has only database 0); OPTIONS are go-redis's
// cluster URL options (dial_timeout=3s, read_timeout=1s, ...). The caller
// closes the client.
func NewClient(rawURL string) (redis.UniversalClient, error) {
	scheme, rest, ok := strings.Cut(rawURL, "://")
	if !ok {
		return nil, fmt.Errorf("%w %q: no scheme (redis://, rediss://, redis-cluster://, rediss-cluster://)", ErrURL, rawURL)
	}
	switch scheme {
	case "redis", "rediss":
		opt, err := redis.ParseURL(rawURL)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrURL, err)
		}
		return redis.NewClient(opt), nil
	case "redis-cluster", "rediss-cluster":
		opt, err := parseClusterURL(strings.TrimSuffix(scheme, "-cluster"), rest)
		if err != nil {
			return nil, err
		}
		return redis.NewClusterClient(opt), nil
	}
	return nil, fmt.Errorf("%w %q: unknown scheme %q (redis, rediss, redis-cluster, rediss-cluster)", ErrURL, rawURL, scheme)
}

// parseClusterURL reads the part after "redis-cluster://": it rewrites
// the seed list as go-redis's cluster URL (the first seed as the host, the
// others as addr= options) and lets go-redis read the options.
func parseClusterURL(scheme, rest string) (*redis.ClusterOptions, error) {
	rest, query, _ := strings.Cut(rest, "?")
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		if p := rest[i:]; p != "/" && p != "/0" {
			return nil, fmt.Errorf("%w: a cluster URL takes no database number (%q): a Redis Cluster has only database 0", ErrURL, p)
		}
		rest = rest[:i]
	}
	user := ""
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		user, rest = rest[:i+1], rest[i+1:]
	}
	var seeds []string
	for _, h := range strings.Split(rest, ",") {
		if h = strings.TrimSpace(h); h != "" {
			seeds = append(seeds, h)
		}
	}
	if len(seeds) == 0 {
		return nil, fmt.Errorf("%w: a cluster URL needs at least one HOST:PORT", ErrURL)
	}
	q, err := url.ParseQuery(query)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrURL, err)
	}
	for _, s := range seeds[1:] {
		q.Add("addr", s)
	}
	opt, err := redis.ParseClusterURL(scheme + "://" + user + seeds[0] + "?" + q.Encode())
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrURL, err)
	}
	return opt, nil
}
