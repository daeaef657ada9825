// Command filtercmp compares, document by document, the verdicts of the
// filter benchmark (bench/filter.sh): rep filter's verdict JSONL, the
// documents datatrove + protego kept, and Google's parser (grobotstxt, the
// Go port of Google's C++ matcher) asked for every crawler of the list on
// each document's host file: a document is kept when every crawler may
// fetch its URL, as the Apertus filter keeps it.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/jimsmart/grobotstxt"
)

func main() {
	docs := flag.String("docs", "", "documents JSONL")
	robots := flag.String("robots", "", "directory of robots.txt files named by host")
	repOut := flag.String("rep", "", "rep filter's verdict JSONL")
	dtOut := flag.String("datatrove", "", "datatrove's kept documents JSONL")
	agents := flag.String("agents", "", "comma-separated crawler list")
	examples := flag.Int("examples", 5, "differences to print per pair")
	flag.Parse()
	list := strings.Split(*agents, ",")

	files := map[string]string{}
	ents, err := os.ReadDir(*robots)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(*robots, e.Name()))
		if err != nil {
			log.Fatal(err)
		}
		files[e.Name()] = string(b)
	}
	dtKept := map[string]bool{}
	eachLine(*dtOut, func(b []byte) {
		var d struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(b, &d); err != nil {
			log.Fatal(err)
		}
		dtKept[d.ID] = true
	})
	var repKeep []bool
	eachLine(*repOut, func(b []byte) {
		var v struct {
			Keep bool `json:"keep"`
		}
		if err := json.Unmarshal(b, &v); err != nil {
			log.Fatal(err)
		}
		repKeep = append(repKeep, v.Keep)
	})
	m := grobotstxt.NewRobotsMatcher()
	var n, googleDrop, repDrop, dtDrop, repVsGoogle, dtVsGoogle, repVsDt int
	shown := map[string]int{}
	show := func(pair, line string) {
		if shown[pair] < *examples {
			shown[pair]++
			fmt.Printf("  %s: %s\n", pair, line)
		}
	}
	eachLine(*docs, func(b []byte) {
		var d struct {
			ID  string `json:"id"`
			URL string `json:"url"`
		}
		if err := json.Unmarshal(b, &d); err != nil {
			log.Fatal(err)
		}
		if n >= len(repKeep) {
			log.Fatalf("rep wrote %d verdicts for more documents", len(repKeep))
		}
		// The host from the scheme and authority alone: a stray "%" in a
		// path ("/URL%4", as real URLs have) must not hide the site.
		head := d.URL
		if i := strings.Index(head, "://"); i >= 0 {
			if j := strings.IndexAny(head[i+3:], "/?#"); j >= 0 {
				head = head[:i+3+j]
			}
		}
		u, err := url.Parse(head)
		if err != nil {
			log.Fatal(err)
		}
		google := true
		if body, ok := files[strings.ToLower(u.Hostname())]; ok {
			for _, a := range list {
				if !m.AgentAllowed(body, a, d.URL) {
					google = false
					break
				}
			}
		}
		rk, dk := repKeep[n], dtKept[d.ID]
		n++
		if !google {
			googleDrop++
		}
		if !rk {
			repDrop++
		}
		if !dk {
			dtDrop++
		}
		if rk != google {
			repVsGoogle++
			show("rep≠google", fmt.Sprintf("%s rep keep=%v google keep=%v", d.URL, rk, google))
		}
		if dk != google {
			dtVsGoogle++
			show("datatrove≠google", fmt.Sprintf("%s datatrove keep=%v google keep=%v", d.URL, dk, google))
		}
		if rk != dk {
			repVsDt++
		}
	})
	if n != len(repKeep) {
		log.Fatalf("%d documents, %d rep verdicts", n, len(repKeep))
	}
	fmt.Printf("documents %d\ndropped: google %d, rep %d, datatrove+protego %d\nverdicts differing from google: rep %d, datatrove+protego %d\nrep vs datatrove+protego: %d differ\n",
		n, googleDrop, repDrop, dtDrop, repVsGoogle, dtVsGoogle, repVsDt)
}

func eachLine(path string, fn func([]byte)) {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if len(sc.Bytes()) > 0 {
			fn(sc.Bytes())
		}
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
}
