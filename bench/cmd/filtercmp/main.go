// Command filtercmp compares, document by document, the verdicts of the
// filter benchmark (bench/filter.sh): rep filter's verdict JSONL, the
// documents datatrove + protego kept, and Google's parser (grobotstxt, the
// Go port of Google's C++ matcher) asked for every crawler of the list on
// each document's host file: a document is kept when every crawler may
// fetch its URL, as the Apertus filter keeps it.
//
// With -survey it compares the survey benchmark's rows (bench/survey.sh)
// the same way: for each capture of the captures JSONL and each crawler,
// rep survey's and protego's verdict for "/" against Google's parser on
// the same body (2xx: the body's rules; 429 and 5xx: disallowed; other
// 4xx: allowed).
package main

import (
	"bufio"
	"encoding/base64"
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
	surveyMode := flag.Bool("survey", false, "compare survey rows: -captures, -rep, -protego")
	captures := flag.String("captures", "", "with -survey: captures JSONL (host or url, status, body)")
	protegoOut := flag.String("protego", "", "with -survey: protego_survey.py's rows JSONL")
	flag.Parse()
	list := strings.Split(*agents, ",")
	shown := map[string]int{}
	show := func(pair, line string) {
		if shown[pair] < *examples {
			shown[pair]++
			fmt.Printf("  %s: %s\n", pair, line)
		}
	}
	if *surveyMode {
		compareSurvey(*captures, *repOut, *protegoOut, list, show)
		return
	}

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

// compareSurvey counts, over every capture × crawler, the rows whose
// verdict for "/" differs from Google's parser, for rep survey's rows and
// for protego's (both JSONL with host, crawler, root_allowed).
func compareSurvey(captures, repRows, protegoRows string, list []string, show func(pair, line string)) {
	type row struct {
		Host        string `json:"host"`
		Crawler     string `json:"crawler"`
		RootAllowed bool   `json:"root_allowed"`
	}
	read := func(path string) map[string]bool {
		v := map[string]bool{}
		eachLine(path, func(b []byte) {
			var r row
			if err := json.Unmarshal(b, &r); err != nil {
				log.Fatal(err)
			}
			v[r.Host+"\x00"+r.Crawler] = r.RootAllowed
		})
		return v
	}
	repV, proV := read(repRows), read(protegoRows)
	m := grobotstxt.NewRobotsMatcher()
	byBody := map[string][]bool{}
	var n, rows, googleBlock, repBlock, proBlock, repVsGoogle, proVsGoogle, repVsPro int
	eachLine(captures, func(b []byte) {
		var c struct {
			Host, URL, Body string
			BodyBase64      string `json:"body_base64"`
			Status          *int
		}
		if err := json.Unmarshal(b, &c); err != nil {
			log.Fatal(err)
		}
		n++
		host := c.Host
		if host == "" {
			u, err := url.Parse(c.URL)
			if err != nil {
				log.Fatal(err)
			}
			host = u.Host
		}
		if c.BodyBase64 != "" {
			raw, err := base64.StdEncoding.DecodeString(c.BodyBase64)
			if err != nil {
				log.Fatal(err)
			}
			c.Body = string(raw)
		}
		status := 200
		if c.Status != nil {
			status = *c.Status
		}
		// The corpus's files repeat under other hosts: ask Google's
		// parser once per body (the host does not change the verdict
		// for "/").
		var googleV []bool
		if status >= 200 && status < 300 {
			if googleV = byBody[c.Body]; googleV == nil {
				for _, a := range list {
					googleV = append(googleV, m.AgentAllowed(c.Body, a, "https://example.com/"))
				}
				byBody[c.Body] = googleV
			}
		}
		for i, a := range list {
			rows++
			google := !(status == 429 || status >= 500)
			if googleV != nil {
				google = googleV[i]
			}
			k := host + "\x00" + a
			rv, ok1 := repV[k]
			pv, ok2 := proV[k]
			if !ok1 || !ok2 {
				log.Fatalf("%s %s: a row is missing (rep %v, protego %v)", host, a, ok1, ok2)
			}
			if !google {
				googleBlock++
			}
			if !rv {
				repBlock++
			}
			if !pv {
				proBlock++
			}
			if rv != google {
				repVsGoogle++
				show("rep≠google", fmt.Sprintf("%s %s rep allowed=%v google allowed=%v", host, a, rv, google))
			}
			if pv != google {
				proVsGoogle++
				show("protego≠google", fmt.Sprintf("%s %s protego allowed=%v google allowed=%v", host, a, pv, google))
			}
			if rv != pv {
				repVsPro++
			}
		}
	})
	if rows != len(repV) || rows != len(proV) {
		log.Fatalf("%d capture × crawler pairs, %d rep rows, %d protego rows (hosts must be unique)", rows, len(repV), len(proV))
	}
	fmt.Printf("captures %d, rows %d (capture × crawler)\n\"/\" disallowed: google %d, rep %d, protego %d\nverdicts differing from google: rep %d, protego %d\nrep vs protego: %d differ\n",
		n, rows, googleBlock, repBlock, proBlock, repVsGoogle, proVsGoogle, repVsPro)
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
