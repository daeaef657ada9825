// Command filterdata writes the data of the filter benchmark
// (bench/filter.sh): the corpus's robots.txt files as JSONL captures (one
// 200 capture per host), the same files as a directory protego reads, and
// N documents whose URLs spread over the corpus's hosts, their paths drawn
// from the hosts' own rules (so that many are disallowed for someone;
// percent-encoded as a crawl's URLs are) and
// from random ones, and 2% on hosts with no capture. Deterministic for a
// seed.
//
// For the survey benchmark (bench/survey.sh), -copies K writes K captures
// of every file, copy i > 0 under the host "c<i>.<host>", and -n 0 no
// documents.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rep-toolkit/rep/robotstxt"
	"github.com/rep-toolkit/rep/survey"
)

// escape percent-encodes what a URL as requested cannot hold raw
// (controls, spaces, non-ASCII bytes, "<>\^`{|}), as the URLs of a crawl
// are.
func escape(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c <= 0x20 || c >= 0x7f || strings.IndexByte("\"<>\\^`{|}", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func main() {
	corpus := flag.String("corpus", os.Getenv("REP_CORPUS"), "corpus directory holding robots/")
	out := flag.String("out", "", "output directory")
	n := flag.Int("n", 1000000, "documents")
	seed := flag.Uint64("seed", 1, "random seed")
	copies := flag.Int("copies", 1, "captures of every file (copy i > 0 on host c<i>.<host>)")
	flag.Parse()
	if *corpus == "" {
		*corpus = "../../shared/corpus"
	}
	dir := filepath.Join(*corpus, "robots")
	ents, err := os.ReadDir(dir)
	if err != nil {
		log.Fatal(err)
	}
	files := map[string][]byte{}
	var hosts []string
	for _, e := range ents {
		if e.Name() == "README.md" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			log.Fatal(err)
		}
		files[e.Name()] = b
		hosts = append(hosts, e.Name())
	}
	sort.Strings(hosts)
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	cf, err := os.Create(filepath.Join(*out, "captures.jsonl"))
	if err != nil {
		log.Fatal(err)
	}
	cw := bufio.NewWriter(cf)
	enc := json.NewEncoder(cw)
	paths := map[string][]string{}
	for _, h := range hosts {
		enc.Encode(map[string]any{"host": h, "status": 200, "fetch_time": "2025-01-15T00:00:00Z", "body": string(files[h])})
		for _, g := range robotstxt.Parse(files[h]).Groups() {
			for _, r := range g.Rules {
				if r.Pattern != "" && !strings.ContainsAny(r.Pattern, "\"\\") {
					paths[h] = append(paths[h], escape(survey.Sample(r.Pattern)))
				}
			}
		}
	}
	for i := 1; i < *copies; i++ {
		for _, h := range hosts {
			enc.Encode(map[string]any{"host": fmt.Sprintf("c%d.%s", i, h), "status": 200, "fetch_time": "2025-01-15T00:00:00Z", "body": string(files[h])})
		}
	}
	cw.Flush()
	cf.Close()

	if *n == 0 {
		return
	}
	df, err := os.Create(filepath.Join(*out, "docs.jsonl"))
	if err != nil {
		log.Fatal(err)
	}
	dw := bufio.NewWriterSize(df, 1<<20)
	r := rand.New(rand.NewPCG(*seed, 2))
	words := []string{"news", "article", "item", "p", "search", "tag", "user", "page", "blog", "video"}
	for i := range *n {
		h := hosts[r.IntN(len(hosts))]
		var u string
		switch k := r.IntN(50); {
		case k == 0:
			u = fmt.Sprintf("https://uncaptured-%d.example/%s/%d", r.IntN(1000), words[r.IntN(len(words))], r.IntN(1e6))
		case k < 20 && len(paths[h]) > 0:
			u = "https://" + h + paths[h][r.IntN(len(paths[h]))] + fmt.Sprint(r.IntN(100))
		default:
			u = fmt.Sprintf("https://%s/%s/%d/%s-%d.html", h, words[r.IntN(len(words))], r.IntN(1000), words[r.IntN(len(words))], r.IntN(1e6))
		}
		ju, _ := json.Marshal(u)
		fmt.Fprintf(dw, `{"id":"%d","text":"lorem ipsum dolor sit amet","url":%s,"date":"2024-05-01"}`+"\n", i, ju)
	}
	dw.Flush()
	df.Close()
}
