package main

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// rekey rewrites the accepted mutants of the list at path whose ID is no
// mutant of today's code: it finds the newest commit of the file in which
// the ID was one, lines up that version's mutants with today's (by
// operator and change, in order), and takes today's ID of the same mutant
// when its line of code reads the same. It writes the list back, tells
// w what it changed and returns how many IDs it could not re-key (code
// gone or rewritten: those need a run and a reason of their own).
func rekey(path string, w io.Writer) (lost int, err error) {
	doc, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	re := regexp.MustCompile("(?m)^- `([^`]+)`: ")
	now := map[string][]mutant{}        // file -> today's mutants
	ids := map[string]map[string]bool{} // file -> today's IDs
	var src = map[string][]byte{}
	stale := map[string][]string{} // file -> stale IDs
	var files []string
	for _, m := range re.FindAllSubmatch(doc, -1) {
		id := string(m[1])
		file, _, _ := strings.Cut(id, ":")
		if _, seen := now[file]; !seen {
			now[file] = nil
			if b, err := os.ReadFile(file); err == nil {
				src[file] = b
				if now[file], err = mutantsOf(file, b); err != nil {
					return 0, err
				}
				ids[file] = map[string]bool{}
				for _, m := range now[file] {
					ids[file][m.id()] = true
				}
			}
		}
		if !ids[file][id] {
			if stale[file] == nil {
				files = append(files, file)
			}
			stale[file] = append(stale[file], id)
		}
	}
	changed := map[string]string{}
	for _, file := range files {
		todo := map[string]bool{}
		for _, id := range stale[file] {
			todo[id] = true
		}
		if err := rekeyFile(file, src[file], now[file], todo, changed); err != nil {
			return 0, err
		}
		for _, id := range stale[file] {
			if todo[id] {
				fmt.Fprintf(w, "cannot re-key %s\n", id)
				lost++
			}
		}
	}
	for _, old := range slices.Sorted(maps.Keys(changed)) {
		doc = bytes.Replace(doc, []byte("- `"+old+"`: "), []byte("- `"+changed[old]+"`: "), 1)
		fmt.Fprintf(w, "%s -> %s\n", old, changed[old])
	}
	if len(changed) > 0 {
		if err := os.WriteFile(path, doc, 0o644); err != nil {
			return 0, err
		}
	}
	return lost, nil
}

// rekeyFile maps the IDs in todo (stale IDs of file) to today's, walking
// the file's history back from the newest commit; it deletes from todo
// the IDs it maps. cur is today's file (nil when it is gone) and now its
// mutants. A mutant not found in today's file is looked for in the other
// files of its package, for code moved between files: it is taken when
// exactly one mutant there has its change, its line of code and its place
// in that line.
func rekeyFile(file string, cur []byte, now []mutant, todo map[string]bool, changed map[string]string) error {
	var others []sibling // the package's other files, read on first need
	out, err := exec.Command("git", "log", "--format=%H", "--", file).Output()
	if err != nil {
		return fmt.Errorf("git log %s: %v", file, err)
	}
	curLines := strings.Split(string(cur), "\n")
	for _, c := range strings.Fields(string(out)) {
		if len(todo) == 0 {
			return nil
		}
		old, err := exec.Command("git", "show", c+":"+file).Output()
		if err != nil {
			continue // the file was deleted by c
		}
		then, err := mutantsOf(file, old)
		if err != nil {
			continue // a version that does not parse
		}
		index := map[string]int{}
		for i, m := range then {
			if todo[m.id()] {
				index[m.id()] = i
			}
		}
		if len(index) == 0 {
			continue
		}
		pairs := align(then, now)
		oldLines := strings.Split(string(old), "\n")
		for id, i := range index {
			if j, ok := pairs[i]; ok && strings.TrimSpace(oldLines[then[i].line-1]) == strings.TrimSpace(curLines[now[j].line-1]) {
				changed[id] = now[j].id()
				delete(todo, id)
				continue
			}
			if others == nil {
				if others, err = siblings(file); err != nil {
					return err
				}
			}
			if m, ok := findMoved(then[i], oldLines, others); ok {
				changed[id] = m.id()
				delete(todo, id)
			}
		}
	}
	return nil
}

// sibling is a Go file of a package, with its lines and mutants.
type sibling struct {
	lines []string
	ms    []mutant
}

// siblings reads the non-test Go files of file's directory as they are
// today (file itself included, when it is still there).
func siblings(file string) ([]sibling, error) {
	paths, err := filepath.Glob(filepath.Join(filepath.Dir(file), "*.go"))
	if err != nil {
		return nil, err
	}
	out := []sibling{}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		ms, err := mutantsOf(filepath.ToSlash(p), b)
		if err != nil {
			continue
		}
		out = append(out, sibling{strings.Split(string(b), "\n"), ms})
	}
	return out, nil
}

// findMoved returns the one mutant of the siblings with m's change on the
// same line of code (spaces around it aside), at the same place in it.
func findMoved(m mutant, lines []string, sibs []sibling) (mutant, bool) {
	text, at := lineAt(lines, m)
	var found []mutant
	for _, s := range sibs {
		for _, c := range s.ms {
			if c.op != m.op || lineRef.ReplaceAllString(c.desc, "") != lineRef.ReplaceAllString(m.desc, "") {
				continue
			}
			if t, a := lineAt(s.lines, c); t == text && a == at {
				found = append(found, c)
			}
		}
	}
	if len(found) != 1 {
		return mutant{}, false
	}
	return found[0], true
}

// lineAt is m's line of code without its indentation and trailing space,
// and m's column in it.
func lineAt(lines []string, m mutant) (string, int) {
	l := lines[m.line-1]
	indent := len(l) - len(strings.TrimLeft(l, " \t"))
	return strings.TrimSpace(l), m.col - 1 - indent
}

// lineRef is the line number a description may hold ("case body of case
// at line 12 emptied"): it moves with the code.
var lineRef = regexp.MustCompile(`at line \d+`)

// align pairs a's mutants with b's along their longest common subsequence
// by operator and change (line numbers in the change left out).
func align(a, b []mutant) map[int]int {
	keys := func(ms []mutant) []string {
		k := make([]string, len(ms))
		for i, m := range ms {
			k[i] = m.op + " " + lineRef.ReplaceAllString(m.desc, "at line N")
		}
		return k
	}
	ka, kb := keys(a), keys(b)
	n, m := len(a), len(b)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if ka[i] == kb[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	pairs := map[int]int{}
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case ka[i] == kb[j]:
			pairs[i] = j
			i++
			j++
		case lcs[i+1][j] >= lcs[i][j+1]:
			i++
		default:
			j++
		}
	}
	return pairs
}
