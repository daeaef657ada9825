// Command mutate runs mutation testing on rep's packages: it makes one small
// change to the source at a time (a mutant), runs the package's tests
// against it and reports the mutants the tests did not notice.
//
// Usage (make mutate runs it on the core packages):
//
//	go run ./internal/mutate [-exclude regexp] [-only regexp] [-run regexp] [-o report.txt] dir...
//
// Each dir is a package directory; dir/file.go limits it to one file.
// dir@testdir mutates dir and runs the tests of testdir, for a package
// tested through the one that uses it (robotsmeta/internal/htmlscan by
// robotsmeta's tests): coverage is then measured on dir (-coverpkg). The
// mutants are:
//
//	boundary   <  <=  >  >= swapped for their neighbour (< to <=, ...)
//	negate     == and != swapped; !x made x
//	logical    && and || swapped
//	arith      + and -, * and / swapped (not on string literals)
//	literal    an integer literal n made n+1; true and false swapped
//	case       a switch case's body emptied; one value of a case list dropped
//	element    one element of a slice, array or map literal (of at most 32) dropped
//	statement  an x++, x--, x += y (and the other op=) statement removed
//
// A mutant is applied with go test -overlay, so the work tree is never
// written and the build cache is shared. Each top-level test of the
// package is first run alone with a coverage profile; a mutant is then
// tested only by the tests that ran its line (all of them when it lies in
// a declaration), with -failfast and a timeout of twenty times what those
// tests took, and never under fifteen seconds. -run limits the tests used
// to those whose name matches: for a package whose every test reaches the
// mutated code, a mutant then runs the tests written for it, and one that
// lives has outlived those tests only. Mutants on code that no test
// covers are reported as not covered and not run; mutants that do not
// compile are not viable. A mutant whose tests pass lived;
// docs/mutation.md lists the ones accepted as equivalent (no test can
// tell them from the original), by the ID this command prints; -rekey
// follows the IDs of accepted mutants whose code moved. The score of a
// package is killed / (killed + lived), equivalent mutants left out.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

type mutant struct {
	file      string // path relative to the module root
	off, end  int    // byte range replaced
	repl      string
	line, col int
	op, desc  string
}

func (m mutant) id() string {
	return fmt.Sprintf("%s:%d:%d %s %s", m.file, m.line, m.col, m.op, m.desc)
}

func main() {
	exclude := flag.String("exclude", "", "skip files whose path matches this regexp")
	only := flag.String("only", "", "run only mutants whose ID matches this regexp")
	out := flag.String("o", "", "also write the report to this file")
	equiv := flag.String("equivalent", "docs/mutation.md", "file listing accepted equivalent mutants as lines \"- `ID`: reason\"")
	dry := flag.Bool("n", false, "list the mutants without running them")
	rekeyIDs := flag.Bool("rekey", false, "re-key the accepted mutants of -equivalent whose ID code has moved, and list those it cannot (no dir needed)")
	workers := flag.Int("workers", 2, "mutants tested at once")
	runFilter := flag.String("run", "", "use only the tests whose name matches this regexp (a mutant no such test reaches is not covered)")
	flag.Parse()
	if *rekeyIDs {
		lost, err := rekey(*equiv, os.Stdout)
		if err != nil {
			fatal(err)
		}
		if lost > 0 {
			os.Exit(1)
		}
		return
	}
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: mutate [flags] dir...")
		os.Exit(2)
	}
	var exRE, onlyRE *regexp.Regexp
	if *exclude != "" {
		exRE = regexp.MustCompile(*exclude)
	}
	if *only != "" {
		onlyRE = regexp.MustCompile(*only)
	}
	var runRE *regexp.Regexp
	if *runFilter != "" {
		runRE = regexp.MustCompile(*runFilter)
	}
	accepted := readEquivalent(*equiv)
	var report bytes.Buffer
	say := func(format string, a ...any) {
		fmt.Fprintf(os.Stdout, format, a...)
		fmt.Fprintf(&report, format, a...)
	}
	type score struct{ killed, lived, equivalent, uncovered, unviable int }
	var scores []struct {
		pkg string
		s   score
	}
	failed := false
	for _, arg := range flag.Args() {
		dir, file, testDir := splitArg(arg)
		var files []string
		if file != "" {
			files = []string{file}
		} else {
			var err error
			files, err = goFiles(dir)
			if err != nil {
				fatal(err)
			}
		}
		var ms []mutant
		for _, f := range files {
			if exRE != nil && exRE.MatchString(f) {
				continue
			}
			fm, err := mutants(f)
			if err != nil {
				fatal(err)
			}
			for _, m := range fm {
				if onlyRE == nil || onlyRE.MatchString(m.id()) {
					ms = append(ms, m)
				}
			}
		}
		if *dry {
			for _, m := range ms {
				fmt.Println(m.id())
			}
			continue
		}
		start := time.Now()
		cover, base, err := coverage(dir, testDir, runRE)
		if err != nil {
			fatal(fmt.Errorf("%s: the tests must pass before mutating: %v", dir, err))
		}
		say("== %s: %d mutants, %d tests each run alone with coverage in %v\n", dir, len(ms), len(cover.tests), base.Round(time.Millisecond))
		// Mutants run on -workers goroutines; the results are told in
		// source order.
		results := make([]chan string, len(ms))
		next := make(chan int)
		for i := range results {
			results[i] = make(chan string, 1)
		}
		go func() {
			for i := range ms {
				next <- i
			}
			close(next)
		}()
		for range *workers {
			go func() {
				for i := range next {
					sel := cover.selectFor(ms[i])
					if !sel.all && len(sel.tests) == 0 {
						results[i] <- "NOT COVERED"
						continue
					}
					args, timeout := cover.args(sel)
					results[i] <- run(testDir, ms[i], args, timeout)
				}
			}()
		}
		var s score
		for i, m := range ms {
			id := m.id()
			status := <-results[i]
			switch status {
			case "NOT COVERED":
				s.uncovered++
			default:
				switch status {
				case "KILLED", "TIMED OUT":
					s.killed++
				case "NOT VIABLE":
					s.unviable++
				case "LIVED":
					if why, ok := accepted[id]; ok {
						status = "EQUIVALENT (" + why + ")"
						s.equivalent++
					} else {
						s.lived++
						failed = true
					}
				}
			}
			if status != "KILLED" && status != "NOT VIABLE" {
				say("%-12s %s\n", strings.SplitN(status, " (", 2)[0], id)
			}
		}
		say("   %s: killed %d, lived %d, equivalent %d, not covered %d, not viable %d (%v)\n",
			dir, s.killed, s.lived, s.equivalent, s.uncovered, s.unviable, time.Since(start).Round(time.Second))
		scores = append(scores, struct {
			pkg string
			s   score
		}{dir, s})
	}
	if *dry {
		return
	}
	say("\n| package | killed | lived | equivalent | not covered | not viable | score |\n|---|---|---|---|---|---|---|\n")
	for _, p := range scores {
		pct := "-"
		if n := p.s.killed + p.s.lived; n > 0 {
			pct = fmt.Sprintf("%.1f%%", 100*float64(p.s.killed)/float64(n))
		}
		say("| %s | %d | %d | %d | %d | %d | %s |\n", p.pkg, p.s.killed, p.s.lived, p.s.equivalent, p.s.uncovered, p.s.unviable, pct)
	}
	if *out != "" {
		if err := os.WriteFile(*out, report.Bytes(), 0o644); err != nil {
			fatal(err)
		}
	}
	if failed {
		os.Exit(1)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "mutate:", err)
	os.Exit(2)
}

// splitArg reads a command-line argument, dir, dir/file.go or either with
// @testdir: the package mutated, the one file (or ""), and the package
// whose tests run (dir itself without @).
func splitArg(arg string) (dir, file, testDir string) {
	arg, testDir, _ = strings.Cut(arg, "@")
	dir = arg
	if strings.HasSuffix(arg, ".go") {
		dir, file = filepath.Dir(arg), arg
	}
	dir = filepath.Clean(dir)
	if testDir == "" {
		testDir = dir
	}
	return dir, file, filepath.Clean(testDir)
}

// goFiles lists the package's non-test Go files for this platform.
func goFiles(dir string) ([]string, error) {
	out, err := exec.Command("go", "list", "-f", "{{range .GoFiles}}{{$.Dir}}/{{.}}\n{{end}}", "./"+dir).Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %v", dir, err)
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	var files []string
	for _, l := range strings.Fields(string(out)) {
		rel, err := filepath.Rel(wd, l)
		if err != nil {
			return nil, err
		}
		files = append(files, rel)
	}
	return files, nil
}

// readEquivalent reads the accepted equivalent mutants: lines
// "- `ID`: reason".
func readEquivalent(path string) map[string]string {
	m := map[string]string{}
	data, err := os.ReadFile(path)
	if err != nil {
		return m
	}
	re := regexp.MustCompile("^- `([^`]+)`: (.*)$")
	for _, l := range strings.Split(string(data), "\n") {
		if s := re.FindStringSubmatch(l); s != nil {
			m[s[1]] = s[2]
		}
	}
	return m
}

var swaps = map[token.Token]struct {
	to token.Token
	op string
}{
	token.LSS: {token.LEQ, "boundary"}, token.LEQ: {token.LSS, "boundary"},
	token.GTR: {token.GEQ, "boundary"}, token.GEQ: {token.GTR, "boundary"},
	token.EQL: {token.NEQ, "negate"}, token.NEQ: {token.EQL, "negate"},
	token.LAND: {token.LOR, "logical"}, token.LOR: {token.LAND, "logical"},
	token.ADD: {token.SUB, "arith"}, token.SUB: {token.ADD, "arith"},
	token.MUL: {token.QUO, "arith"}, token.QUO: {token.MUL, "arith"},
}

// maxElements bounds the literals whose elements are dropped one at a
// time: a table of a few entries, not a data set.
const maxElements = 32

var opAssign = map[token.Token]bool{
	token.ADD_ASSIGN: true, token.SUB_ASSIGN: true, token.MUL_ASSIGN: true, token.QUO_ASSIGN: true,
	token.REM_ASSIGN: true, token.AND_ASSIGN: true, token.OR_ASSIGN: true, token.XOR_ASSIGN: true,
	token.SHL_ASSIGN: true, token.SHR_ASSIGN: true,
}

// mutants lists every mutant of one file.
func mutants(path string) ([]mutant, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return mutantsOf(path, src)
}

// mutantsOf lists every mutant of src, the text of the file at path.
func mutantsOf(path string, src []byte) ([]mutant, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var ms []mutant
	add := func(pos, end token.Pos, repl, op, desc string) {
		p := fset.Position(pos)
		ms = append(ms, mutant{file: filepath.ToSlash(path), off: p.Offset, end: fset.Position(end).Offset,
			repl: repl, line: p.Line, col: p.Column, op: op, desc: desc})
	}
	text := func(n ast.Node) string {
		return string(src[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset])
	}
	isString := func(e ast.Expr) bool {
		b, ok := ast.Unparen(e).(*ast.BasicLit)
		return ok && (b.Kind == token.STRING || b.Kind == token.CHAR)
	}
	// Statements in a for loop's post position are not removed: the loop
	// would never end.
	post := map[ast.Stmt]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GenDecl:
			if n.Tok == token.IMPORT {
				return false
			}
		case *ast.ForStmt:
			if n.Post != nil {
				post[n.Post] = true
			}
		case *ast.BinaryExpr:
			s, ok := swaps[n.Op]
			if !ok || (s.op == "arith" && (isString(n.X) || isString(n.Y))) {
				break
			}
			add(n.OpPos, n.OpPos+token.Pos(len(n.Op.String())), s.to.String(), s.op, n.Op.String()+" → "+s.to.String())
		case *ast.UnaryExpr:
			if n.Op == token.NOT {
				add(n.OpPos, n.OpPos+1, "", "negate", "!x → x")
			}
		case *ast.BasicLit:
			if n.Kind == token.INT {
				v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
				if err == nil {
					add(n.Pos(), n.End(), strconv.FormatInt(v+1, 10), "literal", n.Value+" → "+strconv.FormatInt(v+1, 10))
				}
			}
		case *ast.Ident:
			if n.Name == "true" || n.Name == "false" {
				to := map[string]string{"true": "false", "false": "true"}[n.Name]
				add(n.Pos(), n.End(), to, "literal", n.Name+" → "+to)
			}
		case *ast.CaseClause:
			if len(n.Body) > 0 {
				add(n.Body[0].Pos(), n.Body[len(n.Body)-1].End(), "", "case", "body of case at line "+strconv.Itoa(fset.Position(n.Pos()).Line)+" emptied")
			}
			if len(n.List) > 1 {
				for i, e := range n.List {
					// Drop the value with the comma that joins it to a neighbour.
					from, to := e.Pos(), e.End()
					if i+1 < len(n.List) {
						to = n.List[i+1].Pos()
					} else {
						from = n.List[i-1].End()
					}
					add(from, to, "", "case", "value "+text(e)+" dropped")
				}
			}
		case *ast.CompositeLit:
			switch n.Type.(type) {
			case *ast.ArrayType, *ast.MapType:
			default:
				return true
			}
			if len(n.Elts) < 2 || len(n.Elts) > maxElements {
				break
			}
			for i, e := range n.Elts {
				from, to := e.Pos(), e.End()
				if i+1 < len(n.Elts) {
					to = n.Elts[i+1].Pos()
				} else {
					from = n.Elts[i-1].End()
				}
				add(from, to, "", "element", "element at line "+strconv.Itoa(fset.Position(e.Pos()).Line)+" dropped")
			}
		case *ast.IncDecStmt:
			if !post[n] {
				add(n.Pos(), n.End(), "", "statement", text(n)+" removed")
			}
		case *ast.AssignStmt:
			if opAssign[n.Tok] && !post[n] {
				add(n.Pos(), n.End(), "", "statement", strings.Join(strings.Fields(text(n)), " ")+" removed")
			}
		}
		return true
	})
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].off < ms[j].off })
	return ms, nil
}

// profile holds, for each test of a package, the blocks of the package's
// source it ran, so that a mutant is tested only by the tests that reach it.
type profile struct {
	tests []testRun
	// blocks maps a file (relative to the module root) to its blocks;
	// a block's ran says which tests (indexes into tests) ran it.
	blocks map[string][]block
}

// testRun is one top-level test (Test, Fuzz seed corpus or Example) and
// the time it took alone.
type testRun struct {
	name string
	took time.Duration
}

type block struct {
	l0, c0, l1, c1 int
	ran            []int
}

// selection is what a mutant needs run: every test when it lies outside
// every block (a declaration), none when no test ran its block.
type selection struct {
	all   bool
	tests []int
}

func (p profile) selectFor(m mutant) selection {
	in := false
	var sel []int
	for _, b := range p.blocks[m.file] {
		after := m.line > b.l0 || (m.line == b.l0 && m.col >= b.c0)
		before := m.line < b.l1 || (m.line == b.l1 && m.col <= b.c1)
		if after && before {
			in = true
			sel = append(sel, b.ran...)
		}
	}
	if !in {
		return selection{all: true}
	}
	slices.Sort(sel)
	return selection{tests: slices.Compact(sel)}
}

// minTimeout is the shortest time a mutant's tests are given: a mutant
// that loops forever costs this much, and tests that took milliseconds
// alone still have room on a loaded machine.
const minTimeout = 15 * time.Second

// args turns a selection into go test flags and a timeout: twenty times
// what the selected tests took alone, and never under minTimeout. The
// timeout is the test binary's own (go test -timeout), so building the
// mutant does not count against it.
func (p profile) args(s selection) ([]string, time.Duration) {
	var took time.Duration
	if s.all {
		// Every test the profile holds: with -run, only those.
		s.tests = make([]int, len(p.tests))
		for i := range s.tests {
			s.tests[i] = i
		}
	}
	names := make([]string, len(s.tests))
	for i, t := range s.tests {
		names[i] = regexp.QuoteMeta(p.tests[t].name)
		took += p.tests[t].took
	}
	return []string{"-run=^(?:" + strings.Join(names, "|") + ")$"}, max(minTimeout, 20*took)
}

// coverage builds testDir's test binary with coverage of dir once, runs
// each top-level test alone with a coverage profile and returns, per block
// of dir, the tests that ran it, with the time the whole run took.
func coverage(dir, testDir string, filter *regexp.Regexp) (profile, time.Duration, error) {
	tmp, err := os.MkdirTemp("", "mutate-cover-*")
	if err != nil {
		return profile{}, 0, err
	}
	defer os.RemoveAll(tmp)
	start := time.Now()
	bin := filepath.Join(tmp, "pkg.test")
	if out, err := exec.Command("go", "test", "-c", "-cover", "-covermode=set", "-coverpkg=./"+dir, "-vet=off", "-o", bin, "./"+testDir).CombinedOutput(); err != nil {
		return profile{}, 0, fmt.Errorf("%v\n%s", err, out)
	}
	list := exec.Command(bin, "-test.list", ".*")
	list.Dir = testDir
	out, err := list.Output()
	if err != nil {
		return profile{}, 0, fmt.Errorf("listing tests: %v", err)
	}
	mod, err := exec.Command("go", "list", "-m").Output()
	if err != nil {
		return profile{}, 0, err
	}
	prefix := strings.TrimSpace(string(mod)) + "/"
	p := profile{blocks: map[string][]block{}}
	index := map[string]map[[4]int]int{} // file → block position → index in p.blocks[file]
	for _, name := range strings.Fields(string(out)) {
		if strings.HasPrefix(name, "Benchmark") || (filter != nil && !filter.MatchString(name)) {
			continue
		}
		cp := filepath.Join(tmp, "cover.out")
		cmd := exec.Command(bin, "-test.run=^"+regexp.QuoteMeta(name)+"$", "-test.count=1", "-test.coverprofile="+cp)
		cmd.Dir = testDir
		t0 := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			return profile{}, 0, fmt.Errorf("%s alone: %v\n%s", name, err, out)
		}
		ti := len(p.tests)
		p.tests = append(p.tests, testRun{name, time.Since(t0)})
		if err := readProfile(cp, prefix, func(file string, pos [4]int, count int) {
			if index[file] == nil {
				index[file] = map[[4]int]int{}
			}
			bi, ok := index[file][pos]
			if !ok {
				bi = len(p.blocks[file])
				index[file][pos] = bi
				p.blocks[file] = append(p.blocks[file], block{l0: pos[0], c0: pos[1], l1: pos[2], c1: pos[3]})
			}
			if count > 0 {
				p.blocks[file][bi].ran = append(p.blocks[file][bi].ran, ti)
			}
		}); err != nil {
			return profile{}, 0, err
		}
	}
	return p, time.Since(start), nil
}

// readProfile calls f for each block of a coverage profile, with its file
// relative to the module root.
func readProfile(name, prefix string, f func(file string, pos [4]int, count int)) error {
	fh, err := os.Open(name)
	if err != nil {
		return err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		l := sc.Text()
		file, rest, ok := strings.Cut(l, ":")
		if !ok || strings.HasPrefix(l, "mode:") {
			continue
		}
		var pos [4]int
		var n, count int
		if _, err := fmt.Sscanf(rest, "%d.%d,%d.%d %d %d", &pos[0], &pos[1], &pos[2], &pos[3], &n, &count); err != nil {
			return fmt.Errorf("coverage line %q: %v", l, err)
		}
		f(strings.TrimPrefix(file, prefix), pos, count)
	}
	return sc.Err()
}

// run tests one mutant through an overlay with the tests of dir and says
// what became of it.
func run(dir string, m mutant, args []string, timeout time.Duration) string {
	src, err := os.ReadFile(m.file)
	if err != nil {
		fatal(err)
	}
	mutated := append(append(append([]byte{}, src[:m.off]...), m.repl...), src[m.end:]...)
	tmpDir, err := os.MkdirTemp("", "mutate-*")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(tmpDir)
	abs, err := filepath.Abs(m.file)
	if err != nil {
		fatal(err)
	}
	mf := filepath.Join(tmpDir, filepath.Base(m.file))
	if err := os.WriteFile(mf, mutated, 0o644); err != nil {
		fatal(err)
	}
	ov, _ := json.Marshal(map[string]map[string]string{"Replace": {abs: mf}})
	ovf := filepath.Join(tmpDir, "overlay.json")
	if err := os.WriteFile(ovf, ov, 0o644); err != nil {
		fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout+2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", append(append([]string{"test", "-count=1", "-vet=off", "-failfast",
		"-timeout=" + timeout.String(), "-overlay=" + ovf}, args...), "./"+dir)...)
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return "LIVED"
	case ctx.Err() != nil || bytes.Contains(out, []byte("panic: test timed out")):
		return "TIMED OUT"
	case bytes.Contains(out, []byte("[build failed]")) || bytes.Contains(out, []byte("[setup failed]")):
		return "NOT VIABLE"
	case errors.As(err, &exit):
		return "KILLED"
	}
	fatal(fmt.Errorf("%s: %v\n%s", m.id(), err, out))
	return ""
}
