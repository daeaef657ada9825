package rep

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/rep-toolkit/rep/aipref"
)

// MaxTDMRepBytes is the most of a /.well-known/tdmrep.json FetchTDMRep
// reads; a longer file is refused whole rather than read in part, since
// its last rules may be the ones that match.
const MaxTDMRepBytes = 512 << 10

// TDMRepFetch is what FetchTDMRep found at a site's
// /.well-known/tdmrep.json (TDMRep, W3C Community Group Final Report,
// section 4.1, "TDM File on the Origin Server").
type TDMRepFetch struct {
	// URL is the file's URL: the page's origin and the well-known path.
	URL string `json:"url"`
	// Status is the HTTP status of the answer; 0 when none came.
	Status int `json:"status,omitempty"`
	// Rules are the file's rules, nil when it was not read.
	Rules []aipref.TDMRepRule `json:"rules,omitempty"`
	// Evidence is the statement of the first rule that matches the page
	// (aipref.TDMRep), nil when none does or the file was not read.
	Evidence []aipref.Evidence `json:"evidence,omitempty"`
	// Note says why the file states nothing: "no tdmrep.json (HTTP 404)",
	// or why it could not be read.
	Note string `json:"note,omitempty"`
	// Err is the *aipref.TDMRepError of a file that is not TDMRep JSON.
	Err error `json:"-"`
}

// FetchTDMRep fetches the TDMRep file of pageURL's origin,
// /.well-known/tdmrep.json, with client and returns the statement it makes
// about pageURL, for PageUsage. A site without one (HTTP 404 or 410)
// states nothing through it, nor does one that answers with another status
// or a file longer than MaxTDMRepBytes, and Note says why; a file that is
// not TDMRep JSON has its *aipref.TDMRepError in Err. The error is for what
// stops the question itself: a pageURL that is not absolute, or a failed
// request (refused by the client's guard, a timeout), which Note also
// gives as "not fetched: ..." for a caller that only reports it. The
// client decides redirects, addresses and
// time limits: a door that fetches for someone else passes its guarded one.
func FetchTDMRep(ctx context.Context, client *http.Client, pageURL string) (TDMRepFetch, error) {
	u, err := url.Parse(pageURL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return TDMRepFetch{}, fmt.Errorf("rep: tdmrep.json: %q is not an absolute http(s) URL", pageURL)
	}
	f := TDMRepFetch{URL: (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/.well-known/tdmrep.json"}).String()}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.URL, nil)
	if err != nil {
		return f, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		f.Note = "not fetched: " + err.Error()
		return f, err
	}
	defer resp.Body.Close()
	f.Status = resp.StatusCode
	switch {
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		f.Note = fmt.Sprintf("no tdmrep.json (HTTP %d)", resp.StatusCode)
		return f, nil
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		f.Note = fmt.Sprintf("tdmrep.json not read: HTTP %d", resp.StatusCode)
		return f, nil
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxTDMRepBytes+1))
	if err != nil {
		return f, err
	}
	if len(data) > MaxTDMRepBytes {
		f.Note = fmt.Sprintf("tdmrep.json not read: longer than %d bytes", MaxTDMRepBytes)
		return f, nil
	}
	rules, err := aipref.ParseTDMRep(data)
	if err != nil {
		f.Note, f.Err = "not read: "+err.Error(), err
		return f, nil
	}
	f.Rules, f.Evidence = rules, aipref.TDMRep(rules, pageURL)
	if f.Evidence == nil {
		f.Note = fmt.Sprintf("tdmrep.json has %d rules, none for this path", len(rules))
	}
	return f, nil
}
