package verdict

import (
	"testing"

	"github.com/rep-toolkit/rep/robotstxt"
)

// BenchmarkDecisionJSON encodes answers for one agent, as rep crawl -json
// and /api/crawl do page after page: notes=agent is Decision.JSON (the
// agent's noteCache), notes=each-time works them out per answer (notesFor),
// as Decision.JSON did before.
func BenchmarkDecisionJSON(b *testing.B) {
	f := robotstxt.Parse([]byte("User-agent: msnbot\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n"))
	for _, name := range []string{"bingbot", "Googlebto"} {
		a, err := NewAgent(name, AgentOptions{})
		if err != nil {
			b.Fatal(err)
		}
		d := a.Decide(f, "/a/x")
		b.Run(name+"/notes=agent", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = d.JSON()
			}
		})
		b.Run(name+"/notes=each-time", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				j := d.json()
				j.Notes = notesFor(d.Agent, d.Group)
			}
		})
	}
}
