package lint

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/rep-toolkit/rep/internal/testkit/corpus"
)

// TestLintBudgetCorpus: no real file comes near the work limit, so the
// limit never hides a finding there (docs/lint.md says so).
func TestLintBudgetCorpus(t *testing.T) {
	most, which := 0, ""
	for name, b := range corpus.Robots(t) {
		if _, w := run(context.Background(), b, Options{}); w > most {
			most, which = w, name
		}
	}
	if most > lintBudget/4 {
		t.Errorf("%s needs %d units of work, more than a quarter of the budget %d", which, most, lintBudget)
	}
	t.Logf("most work: %s, %d units (budget %d)", which, most, lintBudget)
}

// TestLintBudgetHostile: 20,000 distinct wildcard rules in the * group and
// 30 other groups stay within the budget instead of going quadratic.
func TestLintBudgetHostile(t *testing.T) {
	var b []byte
	b = append(b, "User-agent: *\n"...)
	for i := range 20000 {
		b = append(b, "Disallow: /*a"...)
		b = append(b, strconv.Itoa(i)...)
		b = append(b, '\n')
	}
	for i := range 30 {
		b = append(b, "User-agent: bot"...)
		b = append(b, byte('a'+i%26), byte('a'+i/26))
		b = append(b, "\nDisallow: /x\n"...)
	}
	r, w := run(context.Background(), b, Options{})
	if w > lintBudget+5001 {
		t.Errorf("work %d exceeds the budget %d", w, lintBudget)
	}
	// Stopping is reported, never silent.
	found := false
	for _, d := range r.Findings {
		found = found || d.Code == "checks-incomplete"
	}
	if (w > lintBudget) != found {
		t.Errorf("work %d (budget %d): checks-incomplete reported = %v", w, lintBudget, found)
	}
}

// TestRunContextStops: with its context done, the cross-rule checks stop
// within a few thousand units of work instead of running to the budget,
// and RunContext returns the context's error, no report.
func TestRunContextStops(t *testing.T) {
	var b []byte
	b = append(b, "User-agent: *\n"...)
	for i := range 20000 {
		b = append(b, "Disallow: /*a"...)
		b = append(b, strconv.Itoa(i)...)
		b = append(b, '\n')
	}
	for i := range 30 {
		b = append(b, "User-agent: bot"...)
		b = append(b, byte('a'+i%26), byte('a'+i/26))
		b = append(b, "\nDisallow: /x\n"...)
	}
	_, full := run(context.Background(), b, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, w := run(ctx, b, Options{})
	if full < 1<<20 || w != lintBudget+1 {
		t.Errorf("work %d with a live context, %d cancelled: want the cancelled run stopped (budget+1)", full, w)
	}
	if r, err := RunContext(ctx, b, Options{}); r != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("RunContext = %v, %v; want nil, context.Canceled", r, err)
	}
	if r, err := RunContext(context.Background(), []byte("User-agent: *\nDisallow: /x\n"), Options{}); r == nil || err != nil {
		t.Errorf("RunContext with a live context = %v, %v", r, err)
	}
}

// TestLintBudgetLongGlobs: a file of long wildcard patterns (2 KB each, a
// shape whose glob comparisons cost len·len steps) meets the budget by its
// real cost and says so, where counting each comparison as one step let
// such a file run for half a minute.
func TestLintBudgetLongGlobs(t *testing.T) {
	var b []byte
	b = append(b, "User-agent: *\n"...)
	for i := range 240 {
		kind := "Allow: /"
		if i%2 == 1 {
			kind = "Disallow: /"
		}
		b = append(b, kind...)
		for range 1000 - i%7 {
			b = append(b, "a*"...)
		}
		b = append(b, '\n')
	}
	r, w := run(context.Background(), b, Options{})
	if w <= lintBudget {
		t.Fatalf("work %d within the budget %d: the comparisons of 2 KB globs are counted as cheap", w, lintBudget)
	}
	found := false
	for _, d := range r.Findings {
		found = found || d.Code == "checks-incomplete"
	}
	if !found {
		t.Error("the checks stopped without a checks-incomplete finding")
	}
}
