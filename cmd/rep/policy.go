package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rep-toolkit/rep/lint"
	"github.com/rep-toolkit/rep/policy"
)

func init() {
	register(&command{name: "policy", summary: "build robots.txt, headers and server configs from a policy file", run: runPolicy})
}

const policyUsage = `usage: rep policy build [-o DIR] [-json] POLICY
       rep policy check [-json] POLICY

POLICY - reads the policy from standard input.

A policy (TOML, see docs/policy.md) says what crawlers may do: robots.txt
groups by product token or by purpose (categories = ["ai-training"]),
response headers by path (X-Robots-Tag, Content-Usage) and site-wide usage
preferences (Content-Signal).

build checks the policy, then writes into DIR (default .) robots.txt and the
server configurations that apply the headers and refuse the crawlers the
policy shuts out entirely: nginx-http.conf (for nginx's http block),
nginx-server.conf (for each server block), apache.conf (for the
VirtualHost), htaccess (to save as .htaccess), Caddyfile and haproxy.cfg
(for the frontend). Before writing, it holds robots.txt to the policy: for every
crawler of the registry, as it reads robots.txt, and every path the policy
names, the verdict must be the policy's intent; where it is not, nothing is
written and the differences are listed.

check lints the policy: unknown agents or categories, crawlers named by
several groups, crawl_delay for crawlers that ignore it, malformed usage
preferences, lint warnings in the generated robots.txt, the round trip.
With no finding it prints one line saying what it checked.

Both stop on SIGINT or SIGTERM (exit 2, nothing written).

Exit status: 0 ok (build: files written; check: no findings), 1 findings
(build: an error-level finding, nothing written), 2 usage or input error
(a policy that does not parse, with its line).
`

func runPolicy(e *env) int {
	if len(e.args) == 0 {
		fmt.Fprint(e.stderr, policyUsage)
		return exitUsage
	}
	switch e.args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(e.stdout, policyUsage)
		return exitOK
	case "build":
		return runPolicyBuild(e, e.args[1:])
	case "check":
		return runPolicyCheck(e, e.args[1:])
	}
	fmt.Fprintf(e.stderr, "rep policy: unknown subcommand %q: want build or check\n", e.args[0])
	return exitUsage
}

// policyFlags parses a subcommand's flags and loads its one POLICY.
func policyFlags(e *env, name string, args []string, setup func(fs *flag.FlagSet)) (*policy.Policy, int) {
	fs := flag.NewFlagSet("policy "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	setup(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), policyUsage+"\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return nil, exitOK
		}
		return nil, exitUsage
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(e.stderr, "rep policy %s: give one POLICY file\n", name)
		return nil, exitUsage
	}
	var p *policy.Policy
	var err error
	if fs.Arg(0) == "-" {
		var data []byte
		data, err = io.ReadAll(io.LimitReader(e.input(), policy.MaxBytes+1))
		if err == nil {
			p, err = policy.Parse("stdin", data)
		}
	} else {
		p, err = policy.Load(fs.Arg(0))
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "rep policy %s: %v\n", name, err)
		return nil, exitUsage
	}
	return p, -1
}

// policyFinding is a finding as -json writes it.
type policyFinding struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
}

func writeFindings(w io.Writer, p *policy.Policy, fs []policy.Finding, asJSON bool) {
	if asJSON {
		out := make([]policyFinding, 0, len(fs))
		for _, f := range fs {
			out = append(out, policyFinding{p.Source, f.Line, f.Severity.String(), f.Code, f.Message})
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(out)
		return
	}
	for _, f := range fs {
		fmt.Fprintf(w, "%s:%d: %s: %s [%s]\n", shownName(p.Source), f.Line, f.Severity, f.Message, f.Code)
	}
}

func runPolicyCheck(e *env, args []string) int {
	var asJSON *bool
	p, code := policyFlags(e, "check", args, func(fs *flag.FlagSet) {
		asJSON = fs.Bool("json", false, "print the findings as a JSON array")
	})
	if p == nil {
		return code
	}
	fs, err := p.CheckContext(e.ctx)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep policy check: %s: interrupted\n", shownName(p.Source))
		return exitUsage
	}
	writeFindings(e.stdout, p, fs, *asJSON)
	if len(fs) > 0 {
		return exitFinding
	}
	if !*asJSON {
		fmt.Fprintf(e.stdout, "%s: ok: %s\n", shownName(p.Source), summary(p))
	}
	return exitOK
}

// shownName is a policy file's name as text output shows it: quoted when
// it holds a control character, so that no name starts a line of its own.
func shownName(s string) string {
	if strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f }) {
		return strconv.Quote(s)
	}
	return s
}

// summary says what a policy holds and what check held it to.
func summary(p *policy.Policy) string {
	plural := func(n int, s string) string {
		if n == 1 {
			return "1 " + s
		}
		return fmt.Sprintf("%d %ss", n, s)
	}
	return fmt.Sprintf("%s, %s, %s refused everywhere; robots.txt says what the policy means for %s",
		plural(len(p.Groups), "group"), plural(len(p.Headers), "header"), plural(len(p.Blocked()), "crawler"), plural(len(p.Agents()), "crawler"))
}

func runPolicyBuild(e *env, args []string) int {
	var dir *string
	var asJSON *bool
	p, code := policyFlags(e, "build", args, func(fs *flag.FlagSet) {
		dir = fs.String("o", ".", "write the files into `DIR`")
		asJSON = fs.Bool("json", false, "print the findings and the files written as JSON")
	})
	if p == nil {
		return code
	}
	fs, err := p.CheckContext(e.ctx)
	if err != nil {
		fmt.Fprintf(e.stderr, "rep policy build: %s: interrupted: nothing written\n", shownName(p.Source))
		return exitUsage
	}
	failed := false
	for _, f := range fs {
		failed = failed || f.Severity >= lint.Error
	}
	var written []string
	if !failed {
		if err := os.MkdirAll(*dir, 0o755); err != nil {
			fmt.Fprintf(e.stderr, "rep policy build: %v\n", err)
			return exitUsage
		}
		for _, out := range p.Outputs() {
			name := filepath.Join(*dir, out.Name)
			if err := os.WriteFile(name, out.Data, 0o644); err != nil {
				fmt.Fprintf(e.stderr, "rep policy build: %v\n", err)
				return exitUsage
			}
			written = append(written, name)
		}
	}
	if *asJSON {
		out := struct {
			Findings []policyFinding `json:"findings"`
			Written  []string        `json:"written"`
		}{Findings: []policyFinding{}, Written: written}
		for _, f := range fs {
			out.Findings = append(out.Findings, policyFinding{p.Source, f.Line, f.Severity.String(), f.Code, f.Message})
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		enc.Encode(out)
	} else {
		writeFindings(e.stderr, p, fs, false)
		for _, w := range written {
			fmt.Fprintf(e.stdout, "wrote %s\n", w)
		}
	}
	if failed {
		if !*asJSON {
			fmt.Fprintf(e.stderr, "rep policy build: %s has errors (above): nothing written\n", shownName(p.Source))
		}
		return exitFinding
	}
	return exitOK
}
