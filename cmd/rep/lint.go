package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rep-toolkit/rep"
	"github.com/rep-toolkit/rep/engine"
	"github.com/rep-toolkit/rep/lint"
	"github.com/rep-toolkit/rep/robotsfetch"
)

func init() {
	register(&command{name: "lint", summary: "check a robots.txt for mistakes (text, JSON or SARIF)", run: runLint})
}

const lintUsage = `usage: rep lint [-agent NAME ...] [-engine ENGINE] [-parser-only] [-allow-private] [-format text|json|sarif] [-json]
                [-severity info|warning|error] [-config FILE] [-disable CODE] [-enable CODE]
                [-severity-of CODE=LEVEL] [-baseline FILE] [-write-baseline FILE] FILE|URL|-
       rep lint -explain CODE

Checks a robots.txt the way crawlers read it and reports what makes them read
it differently from what its author meant: rules outside groups, invalid
agents, groups that hide the * rules, shadowed and conflicting rules, blocked
sites, ignored or misspelled directives, encoding problems, and more. Every
finding has a stable code; -explain prints its documentation (docs/lint.md).

A URL is fetched as a crawler fetches robots.txt (its site's /robots.txt,
up to 5 redirects), and the status, redirects and Content-Type are checked
too. Private and loopback addresses are refused unless -allow-private.

For CI: -disable and -enable turn codes off and on, -severity-of raises or
lowers one code's severity, and a "# rep:ignore CODE" comment on a line of
the robots.txt (or on the comment lines right above it) suppresses that
finding there. The same settings can live in a TOML file, .replint.toml
beside the checked file (in the current directory for a URL or -), or the
file -config names; flags win over it:

    disable = ["private-path"]
    baseline = "robots.baseline.json"
    [severity]
    star-overridden = "error"

-write-baseline FILE records today's findings; -baseline FILE then reports
only the findings it does not hold (matched by code and line text), so a
build fails on new mistakes only. Suppressed findings are not shown or
counted; SARIF lists them with their suppression.

Exit status: 0 nothing at or above -severity, 1 findings, 2 usage or input error.

flags:
`

// lintMaxFetch caps the body read from a URL: past the 500 KiB that
// crawlers read, so that the first ignored rule can be named.
const lintMaxFetch = 2 << 20

func runLint(e *env) int {
	fs := flag.NewFlagSet("lint", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var agents []string
	fs.Func("agent", "add the per-crawler view for `NAME` (a product token, a User-Agent, or a comma-separated fallback chain), as the crawler behaves (see rep check); repeatable", func(s string) error {
		if strings.TrimSpace(s) == "" {
			return errors.New("empty agent name")
		}
		agents = append(agents, s)
		return nil
	})
	profile := addEngineFlag(fs, "the `ENGINE` whose reading to check: "+engine.Names+" (default google; each -agent's view follows the crawler's own engine unless given)")
	parserOnly := fs.Bool("parser-only", false, "per-crawler views with the bare parser: no registry fallback chains or * group exceptions")
	format := fs.String("format", "text", "output `FORMAT`: text, json or sarif")
	asJSON := fs.Bool("json", false, "same as -format json, as for every other command")
	severity := fs.String("severity", "warning", "show findings at or above `LEVEL` (info, warning, error) and exit 1 if there are any")
	explain := fs.String("explain", "", "print the documentation of a finding `CODE` and exit")
	allowPrivate := fs.Bool("allow-private", false, "allow fetching from loopback and private addresses (a local or staging server)")
	userAgent := fs.String("user-agent", "Mozilla/5.0 (compatible; rep-lint/1.0; +https://github.com/rep-toolkit/rep)", "`User-Agent` header sent when fetching a URL")
	timeout := fs.Duration("timeout", 30*time.Second, "time limit for fetching a URL, redirects included")
	var flagCfg lint.Config
	codeList := func(dst *[]string) func(string) error {
		return func(v string) error {
			for _, c := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
				if err := lint.CheckCode(c); err != nil {
					return err
				}
				*dst = append(*dst, c)
			}
			return nil
		}
	}
	fs.Func("disable", "do not report finding `CODE` (comma-separated or repeatable)", codeList(&flagCfg.Disable))
	fs.Func("enable", "report finding `CODE` even when the config file disables it (comma-separated or repeatable)", codeList(&flagCfg.Enable))
	fs.Func("severity-of", "set the severity of a finding: `CODE=LEVEL`, LEVEL info, warning or error (repeatable)", func(v string) error {
		code, level, ok := strings.Cut(v, "=")
		if !ok {
			return fmt.Errorf("%q: write CODE=LEVEL, e.g. star-overridden=error", v)
		}
		if err := lint.CheckCode(code); err != nil {
			return err
		}
		sev, ok := lint.ParseSeverity(level)
		if !ok {
			return fmt.Errorf("%q: level %q is not info, warning or error", v, level)
		}
		if flagCfg.Severity == nil {
			flagCfg.Severity = map[string]lint.Severity{}
		}
		flagCfg.Severity[strings.TrimSpace(code)] = sev
		return nil
	})
	configFile := fs.String("config", "", "read lint settings from TOML `FILE` (default: "+lint.DefaultConfigFile+" beside the checked file, when there is one)")
	baselineFile := fs.String("baseline", "", "report only findings not in the baseline `FILE` (written by -write-baseline)")
	writeBaseline := fs.String("write-baseline", "", "write the findings to baseline `FILE` and exit 0")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), lintUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(e.args); err != nil {
		if err == flag.ErrHelp {
			return exitOK
		}
		return exitUsage
	}
	if *explain != "" {
		c, ok := lint.Explain(*explain)
		if !ok {
			fmt.Fprintf(e.stderr, "rep lint: unknown code %q; the codes are: %s\n", *explain, lintCodeList())
			return exitUsage
		}
		out := e.output(true)
		fmt.Fprintf(out, "%s (%s): %s\n\n%s\n", c.Code, c.Severity, c.Title, c.Doc)
		return out.done(e, "rep lint", exitOK)
	}
	eng, err := profile.get()
	if err != nil {
		fmt.Fprintf(e.stderr, "rep lint: %v\n", err)
		return exitUsage
	}
	var views []*rep.Agent
	for _, n := range agents {
		a, err := rep.NewAgent(n, rep.AgentOptions{Engine: eng, ParserOnly: *parserOnly})
		if err != nil {
			fmt.Fprintf(e.stderr, "rep lint: -agent: %v\n", err)
			return exitUsage
		}
		views = append(views, a)
	}
	noteUnknown(e, "lint", views...)
	for _, err := range []error{checkDuration("-timeout", *timeout), checkHeaderValue("-user-agent", *userAgent)} {
		if err != nil {
			fmt.Fprintf(e.stderr, "rep lint: %v\n", err)
			return exitUsage
		}
	}
	minSev, ok := lintSeverity(*severity)
	if !ok {
		fmt.Fprintf(e.stderr, "rep lint: unknown -severity %q: use info, warning or error\n", *severity)
		return exitUsage
	}
	if *asJSON {
		if *format != "text" && *format != "json" {
			fmt.Fprintf(e.stderr, "rep lint: -json and -format %s contradict each other: give one\n", *format)
			return exitUsage
		}
		*format = "json"
	}
	var write func(r *lint.Report, w io.Writer, name string, min lint.Severity) error
	switch *format {
	case "text":
		write = (*lint.Report).WriteText
	case "json":
		write = (*lint.Report).WriteJSON
	case "sarif":
		write = (*lint.Report).WriteSARIF
	default:
		fmt.Fprintf(e.stderr, "rep lint: unknown -format %q: use text, json or sarif\n", *format)
		return exitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(e.stderr, "rep lint: give one robots.txt: a FILE, a URL, or - for standard input (rep lint -h for help)")
		return exitUsage
	}
	arg := fs.Arg(0)
	opts := lint.Options{Engine: eng, Agents: views}
	var data []byte
	name := arg
	if lintIsURL(arg) {
		robotsURL, err := lintRobotsURL(arg)
		if err != nil {
			fmt.Fprintf(e.stderr, "rep lint: %v\n", err)
			return exitUsage
		}
		if robotsURL != arg {
			fmt.Fprintf(e.stderr, "rep lint: checking %s\n", robotsURL)
		}
		var o *robotsfetch.Outcome
		data, o, err = lintFetch(e, robotsURL, *userAgent, *timeout, *allowPrivate)
		if err != nil {
			fmt.Fprintf(e.stderr, "rep lint: %v\n", err)
			return exitUsage
		}
		name, opts.URL, opts.Fetch = robotsURL, robotsURL, o
	} else {
		if data, name, err = readInput(arg, e.input()); err != nil {
			fmt.Fprintf(e.stderr, "rep lint: %v\n", err)
			return exitUsage
		}
	}
	cfg, base, err := lintConfig(arg, *configFile, *baselineFile, flagCfg)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep lint: %v\n", err)
		return exitUsage
	}
	r := lint.Run(data, opts)
	r.Apply(cfg, base)
	if *writeBaseline != "" {
		if err := lintWriteBaseline(*writeBaseline, r); err != nil {
			fmt.Fprintf(e.stderr, "rep lint: -write-baseline: %v\n", err)
			return exitUsage
		}
		fmt.Fprintf(e.stderr, "rep lint: wrote %d finding(s) to %s\n", len(r.Baseline().Findings), *writeBaseline)
		return exitOK
	}
	out := e.output(*format == "text")
	if err := write(r, out, name, minSev); err != nil {
		return writeErr(e, "rep lint", err)
	}
	code := exitOK
	if r.Count(minSev) > 0 {
		code = exitFinding
	}
	return out.done(e, "rep lint", code)
}

func lintSeverity(s string) (lint.Severity, bool) {
	for _, sev := range []lint.Severity{lint.Info, lint.Warning, lint.Error} {
		if strings.EqualFold(s, sev.String()) {
			return sev, true
		}
	}
	return 0, false
}

func lintCodeList() string {
	var codes []string
	for _, c := range lint.Codes() {
		codes = append(codes, c.Code)
	}
	return strings.Join(codes, ", ")
}

func lintIsURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// lintRobotsURL returns the robots.txt URL that governs rawurl, as a
// crawler computes it: scheme, host and port, then /robots.txt.
func lintRobotsURL(rawurl string) (string, error) {
	origin, err := robotsfetch.Origin(rawurl)
	if err != nil {
		return "", fmt.Errorf("URL %q: %v", rawurl, err)
	}
	return origin + "/robots.txt", nil
}

// lintFetch fetches robotsURL through the fetcher every command uses, as
// a crawler would, reading up to lintMaxFetch bytes so that the first rule
// past the 500 KiB crawlers read can be named, and returns the body (when
// the status makes crawlers read it) and what the fetch means. A refused
// private address is an input error that says what to do.
func lintFetch(e *env, robotsURL, ua string, timeout time.Duration, allowPrivate bool) ([]byte, *robotsfetch.Outcome, error) {
	f, err := e.fetcher(fetchSettings{tool: "rep-lint", userAgent: ua, allowPrivate: allowPrivate, timeout: timeout, maxBytes: lintMaxFetch})
	if err != nil {
		return nil, nil, err
	}
	rb, err := f.Get(e.ctx, robotsURL)
	if err != nil {
		return nil, nil, err
	}
	if err := rb.Outcome.Err(); errors.Is(err, robotsfetch.ErrRefused) {
		return nil, nil, fmt.Errorf("%v (use -allow-private to lint a local or staging server)", err)
	}
	return rb.Body, &rb.Outcome, nil
}

// lintConfig gathers the lint settings: the -config file, else
// .replint.toml beside the checked file (the current directory for a URL
// or standard input) when there is one, then the flags over it; and the
// baseline, from -baseline or the config file (relative to it).
func lintConfig(arg, configFile, baselineFile string, flags lint.Config) (lint.Config, *lint.Baseline, error) {
	var cfg lint.Config
	path := configFile
	if path == "" {
		dir := "."
		if arg != "-" && !lintIsURL(arg) {
			dir = filepath.Dir(arg)
		}
		if p := filepath.Join(dir, lint.DefaultConfigFile); fileExists(p) {
			path = p
		}
	}
	if path != "" {
		c, err := lint.LoadConfig(path)
		if err != nil {
			return cfg, nil, err
		}
		cfg = c
		if cfg.Baseline != "" && !filepath.IsAbs(cfg.Baseline) {
			cfg.Baseline = filepath.Join(filepath.Dir(path), cfg.Baseline)
		}
	}
	cfg = cfg.Merge(flags)
	if baselineFile != "" {
		cfg.Baseline = baselineFile
	}
	if cfg.Baseline == "" {
		return cfg, nil, nil
	}
	f, err := os.Open(cfg.Baseline)
	if err != nil {
		return cfg, nil, fmt.Errorf("baseline: %w", err)
	}
	defer f.Close()
	base, err := lint.ReadBaseline(f, cfg.Baseline)
	return cfg, base, err
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// lintWriteBaseline writes the report's findings as a baseline file.
func lintWriteBaseline(path string, r *lint.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := r.Baseline().WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
