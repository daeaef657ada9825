package lint_test

import (
	"os"
	"testing"

	"github.com/rep-toolkit/rep/internal/testkit/corpus"
	"github.com/rep-toolkit/rep/lint"
)

// BenchmarkLint lints a typical file (www.hulu.com: 3.9 KiB, 5 groups, 141 rules) and the largest file
// of the corpus (853 KB, 31,847 rules, over the size limit).
func BenchmarkLint(b *testing.B) {
	for _, name := range []string{"www.hulu.com", "docs.oracle.com"} {
		data, err := os.ReadFile(corpus.Path(b, "robots", name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				lint.Run(data, lint.Options{})
			}
		})
	}
}
