// Package engine names whose rules rep applies: the four engines every
// door of rep (library, CLI, server, audit) accepts, with one meaning.
//
//   - google: Google's robots.txt parser (github.com/google/robotstxt) and
//     its documented handling of robots meta tags and X-Robots-Tag
//     (developers.google.com/search/docs/crawling-indexing); Crawl-delay is
//     not read.
//   - bing: Google's parser (Bing documents the same matching), Crawl-delay
//     honoured, Bing's page-level rules (bingbot and msnbot tokens, nocache).
//   - yandex: Google's parser, Crawl-delay and Request-rate honoured,
//     Yandex's page-level rules (allow directives win).
//   - rfc9309: RFC 9309 to the letter where Google departs from it
//     (percent-decoding, "%2A" literals), no Crawl-delay, Google's
//     page-level rules (the RFC says nothing about pages).
//
// The zero value, Auto, means "the engine the crawler follows": bingbot
// and msnbot follow bing, Yandex's crawlers yandex, every other crawler
// google. Package rep resolves it with the crawler registry.
package engine

import (
	"fmt"
	"strings"

	"github.com/rep-toolkit/rep/internal/enum"
	"github.com/rep-toolkit/rep/robotstxt"
)

// Engine is whose rules apply.
type Engine uint8

const (
	// Auto: the engine the crawler follows (see the package documentation).
	Auto Engine = iota
	// Google: Google's parser and page-level rules; no Crawl-delay.
	Google
	// Bing: Google's parser, Crawl-delay, Bing's page-level rules.
	Bing
	// Yandex: Google's parser, Crawl-delay and Request-rate, Yandex's
	// page-level rules.
	Yandex
	// RFC9309: the RFC's parser, no Crawl-delay, Google's page-level rules.
	RFC9309
)

var names = enum.New[Engine]("engine", "auto", "google", "bing", "yandex", "rfc9309")

// All lists the engines, without Auto.
func All() []Engine { return []Engine{Google, Bing, Yandex, RFC9309} }

// Names is the list of engine names for messages: "google, bing, yandex or rfc9309".
const Names = "google, bing, yandex or rfc9309"

// String returns the engine's name as flags and JSON spell it.
func (e Engine) String() string { return names.String(e) }

// Error is returned by Parse for a name that is not an engine.
type Error struct {
	Name string // the name given
}

// Error names the unknown engine and lists the four.
func (e *Error) Error() string {
	return fmt.Sprintf("unknown engine %q: use %s", e.Name, Names)
}

// Parse returns the engine named s, in any case. The empty string and
// "auto" give Auto; "rfc" is accepted for rfc9309.
func Parse(s string) (Engine, error) {
	switch l := strings.ToLower(strings.TrimSpace(s)); l {
	case "":
		return Auto, nil
	case "rfc":
		return RFC9309, nil
	default:
		if e, err := names.Parse(l); err == nil {
			return e, nil
		}
	}
	return Auto, &Error{Name: s}
}

// MarshalText implements encoding.TextMarshaler.
func (e Engine) MarshalText() ([]byte, error) { return names.Marshal(e) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (e *Engine) UnmarshalText(b []byte) error {
	v, err := Parse(string(b))
	if err != nil {
		return err
	}
	*e = v
	return nil
}

// Or returns e, or def when e is Auto.
func (e Engine) Or(def Engine) Engine {
	if e == Auto {
		return def
	}
	return e
}

// Parser is the robots.txt parser profile the engine reads files with:
// RFC 9309's for rfc9309, Google's for every other engine.
func (e Engine) Parser() robotstxt.Profile {
	if e == RFC9309 {
		return robotstxt.RFC9309
	}
	return robotstxt.Google
}

// ParseOptions are the robots.txt parse options the engine reads files
// with: its Parser profile, and for the engines that read Crawl-delay
// (bing, yandex) Crawl-delay as a group member
// (robotstxt.Options.CrawlDelayEndsGroup), so that a User-agent line after
// it starts a new group. MaxBytes is left at its default.
func (e Engine) ParseOptions() robotstxt.Options {
	return robotstxt.Options{Profile: e.Parser(), CrawlDelayEndsGroup: e.ReadsCrawlDelay()}
}

// ReadsCrawlDelay reports whether the engine's crawlers honour Crawl-delay
// (bing, yandex).
func (e Engine) ReadsCrawlDelay() bool { return e == Bing || e == Yandex }

// ReadsRequestRate reports whether the engine's crawlers honour
// Request-rate (yandex, in the older reading rep keeps for politeness).
func (e Engine) ReadsRequestRate() bool { return e == Yandex }
