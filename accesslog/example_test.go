package accesslog_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/rep-toolkit/rep/accesslog"
)

func Example() {
	log := `66.249.66.1 - - [01/Mar/2026:00:00:01 +0000] "GET /private/x HTTP/1.1" 200 512 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
garbage
`
	// A nil format means: detect it from the first lines.
	r, err := accesslog.NewReader(strings.NewReader(log), "access.log", nil, accesslog.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		fmt.Printf("%s %s %s %d\n", rec.IP, rec.When().Format("2006-01-02T15:04:05"), rec.Path(), rec.Status)
	}
	st := r.Stats()
	fmt.Println(r.Format(), st.Records, "records,", st.Bad, "bad:", st.Samples[0].Error)
	// Output:
	// 66.249.66.1 2026-03-01T00:00:01 /private/x 200
	// combined 1 records, 1 bad: column 1: client address
}

func ExampleParseFormat() {
	f, err := accesslog.ParseFormat(`nginx:$host $remote_addr [$time_local] "$request" $status $body_bytes_sent "$http_user_agent"`)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := f.NewParser(accesslog.Options{})
	var rec accesslog.Record
	err = p.Parse([]byte(`www.example.com 157.55.39.1 [01/Mar/2026:00:00:01 +0000] "GET /a?b HTTP/2.0" 200 42 "bingbot/2.0"`), &rec)
	fmt.Println(err, string(rec.Host), string(rec.IP), string(rec.Target), string(rec.UserAgent))
	// Output:
	// <nil> www.example.com 157.55.39.1 /a?b bingbot/2.0
}
