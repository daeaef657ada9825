package filter

import (
	"encoding/json"
	"strconv"
)

// AppendJSON appends the verdict for url as one JSON object and a line
// end: url, keep, class, and when a crawler decided, crawler, group, line
// and rule. It allocates nothing for a plain ASCII URL.
func (v *Verdict) AppendJSON(b []byte, url string) []byte {
	b = append(b, `{"url":`...)
	b = appendJSONString(b, url)
	if v.Keep {
		b = append(b, `,"keep":true,"class":"`...)
	} else {
		b = append(b, `,"keep":false,"class":"`...)
	}
	b = append(b, v.Class.String()...)
	b = append(b, '"')
	if v.Crawler != "" {
		b = append(b, `,"crawler":`...)
		b = appendJSONString(b, v.Crawler)
		b = append(b, `,"group":`...)
		b = appendJSONString(b, v.Group)
		b = append(b, `,"line":`...)
		b = strconv.AppendInt(b, int64(v.Line), 10)
		b = append(b, `,"rule":`...)
		if v.Line > 0 {
			// Rule.String without its allocation.
			if v.Rule.Allow {
				b = append(b, `"Allow: `...)
			} else {
				b = append(b, `"Disallow: `...)
			}
			q := appendJSONString(b, v.Rule.Pattern)
			b = append(q[:len(b)], q[len(b)+1:]...) // drop the pattern's opening quote
		} else {
			b = append(b, `""`...)
		}
	}
	return append(b, "}\n"...)
}

func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !plainHTML[s[i]] {
			j, _ := json.Marshal(s)
			return append(b, j...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// plainHTML marks the bytes encoding/json writes as they are: plain bytes
// but '<', '>' and '&', which it escapes for HTML.
var plainHTML = func() (t [256]bool) {
	t = plain
	t['<'], t['>'], t['&'] = false, false, false
	return t
}()
