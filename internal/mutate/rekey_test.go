package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRekey: an accepted mutant whose code moved down two lines is
// re-keyed to its new line, and one whose function moved to another file
// of the package to its place there; one whose line was rewritten is not,
// and is counted; one still current is left alone.
func TestRekey(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const before = "package p\n\nfunc f(x int) bool {\n\treturn x > 10\n}\n\nfunc g(x int) int {\n\treturn x + 1\n}\n\nfunc h(x int) bool { return x < 3 }\n\nfunc k(x int) int {\n\treturn x - 7\n}\n"
	write("p/a.go", before)
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "a")
	ms, err := mutantsOf("p/a.go", []byte(before))
	if err != nil {
		t.Fatal(err)
	}
	id := func(ms []mutant, line int, op string) string {
		for _, m := range ms {
			if m.line == line && m.op == op {
				return m.id()
			}
		}
		t.Fatalf("no %s mutant on line %d", op, line)
		return ""
	}
	moved, rewritten, kept, away := id(ms, 4, "boundary"), id(ms, 8, "arith"), id(ms, 11, "boundary"), id(ms, 14, "arith")
	write("docs/list.md", "# Accepted\n\n- `"+moved+"`: why one.\n- `"+rewritten+"`: why two.\n- `"+kept+"`: why three.\n- `"+away+"`: why four.\n")
	// Two lines in f's place: f moves down two lines, g's sum is now a
	// product, h's line stays line 11 (f grew by two lines, g lost two).
	after := "package p\n\n// f is f.\n// It compares.\nfunc f(x int) bool {\n\treturn x > 10\n}\n\nfunc g(x int) int { return x * 2 }\n\nfunc h(x int) bool { return x < 3 }\n"
	write("p/a.go", after)
	const other = "package p\n\n// k moved here.\nfunc k(x int) int {\n\treturn x - 7\n}\n"
	write("p/b.go", other)
	var out strings.Builder
	lost, err := rekey("docs/list.md", &out)
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := os.ReadFile("docs/list.md")
	now, _ := mutantsOf("p/a.go", []byte(after))
	there, _ := mutantsOf("p/b.go", []byte(other))
	want := "# Accepted\n\n- `" + id(now, 6, "boundary") + "`: why one.\n- `" + rewritten + "`: why two.\n- `" + kept + "`: why three.\n- `" + id(there, 5, "arith") + "`: why four.\n"
	if string(doc) != want || lost != 1 || !strings.Contains(out.String(), "cannot re-key "+rewritten) {
		t.Errorf("lost %d, said:\n%s\nlist:\n%s\nwant:\n%s", lost, out.String(), doc, want)
	}
}
